// Error narrowing by operation: the documented codes of each operation, exactly, at the type level
// (checked by tsc), and hasErrorCode narrowing a body at run time.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { hasErrorCode, type OperationErrorBody, type OperationErrorCode, type OperationId } from '../../src/client/index.js';
import { ERRORS_400, OPERATIONS } from '../spec/reference.js';

type Common = 'NotFound' | 'MethodNotAllowed' | 'ServerError' | 'NotImplemented';

describe('OperationErrorCode', () => {
  it('is exactly each operation\'s 400 list plus the common codes', () => {
    expectTypeOf<OperationErrorCode<'createPaymentSession'>>().toEqualTypeOf<
      Common | 'MissingRequiredParameter' | 'InvalidRequestParameter' | 'TotalAmountInvalid' | 'OrderItemsInvalid' | 'IdempotencyViolation' | 'SessionPending' | 'TokenizeNotSupported' | 'FeatureNotEnabled'
    >();
    expectTypeOf<OperationErrorCode<'capturePaymentSession'>>().toEqualTypeOf<
      Common | 'MissingField' | 'TotalAmountInvalid' | 'PaymentSessionDoesNotExist' | 'SessionVoided' | 'SessionExpired' | 'SessionPending' | 'SessionCaptured' | 'ImmediateCapture'
    >();
    expectTypeOf<OperationErrorCode<'voidPaymentSession'>>().toEqualTypeOf<
      Common | 'MissingField' | 'PaymentSessionDoesNotExist' | 'SessionCaptured' | 'SessionPending' | 'ImmediateCapture'
    >();
    expectTypeOf<OperationErrorCode<'cancelPaymentSession'>>().toEqualTypeOf<Common | 'InvalidPaymentId' | 'SessionCaptured' | 'SessionAuthorized'>();
    expectTypeOf<OperationErrorCode<'createRefund'>>().toEqualTypeOf<Common | 'MissingField' | 'AmountInvalid' | 'InvalidPaymentId' | 'ChargeDisputed' | 'NoSessionCaptures'>();
    expectTypeOf<OperationErrorCode<'createPaymentToken'>>().toEqualTypeOf<Common | 'MissingField' | 'IdempotencyViolation' | 'WaitingForVerification' | 'ValidationError'>();
    expectTypeOf<OperationErrorCode<'retrieveProvisionRequestEligibility'>>().toEqualTypeOf<Common | 'TotalAmountInvalid' | 'ValidationError'>();
    for (const op of ['retrievePaymentSession', 'listPaymentSessions', 'retrievePaymentToken', 'listPaymentTokens', 'updatePaymentToken', 'deletePaymentToken', 'retrieveProvisionTokenRequest', 'listCatalogItems', 'createCatalogItem', 'updateCatalogItem', 'retrieveCatalogItem', 'retrieveCheckoutMethod', 'retrieveDispute', 'listDisputes', 'retrieveDisputeRecord', 'acceptDispute'] as const) {
      expectTypeOf<OperationErrorCode<typeof op>>().toEqualTypeOf<Common>();
    }
    // The 422 body of create session is an action, not an error code.
    expectTypeOf<Extract<OperationErrorBody<'createPaymentSession'>, { next_action: unknown }>>().toHaveProperty('redirect_url');
  });

  it('covers every operation of the reference', () => {
    const typed: Record<OperationId, true> = Object.fromEntries(OPERATIONS.map((o) => [o.operationId, true])) as Record<OperationId, true>;
    expect(Object.keys(typed).sort()).toEqual(OPERATIONS.map((o) => o.operationId).sort());
    expect(Object.keys(ERRORS_400).every((op) => op in typed)).toBe(true);
  });
});

describe('hasErrorCode', () => {
  it('narrows a capture error to SessionVoided', () => {
    const error = { error: 'SessionVoided', message: 'voided' } as OperationErrorBody<'capturePaymentSession'>;
    if (hasErrorCode(error, 'SessionVoided')) {
      expectTypeOf(error.error).toEqualTypeOf<'SessionVoided'>();
      expect(error.message).toBe('voided');
    } else {
      expect.unreachable();
    }
    const other = { error: 'SessionVoided', message: 'voided' } as OperationErrorBody<'capturePaymentSession'>;
    expect(hasErrorCode(other, 'SessionCaptured')).toBe(false);
    expect(hasErrorCode(undefined as OperationErrorBody<'capturePaymentSession'> | undefined, 'SessionCaptured')).toBe(false);
  });

  it('refuses, at compile time, a code the operation cannot answer', () => {
    const error = { error: 'InvalidPaymentId', message: 'x' } as OperationErrorBody<'cancelPaymentSession'>;
    // @ts-expect-error: SessionVoided is a capture/void code, never a cancel one
    expect(hasErrorCode(error, 'SessionVoided')).toBe(false);
    expect(hasErrorCode(error, 'InvalidPaymentId')).toBe(true);
  });
});
