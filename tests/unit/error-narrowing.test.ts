// Error narrowing by operation: the documented codes of each operation, exactly, at the type level
// (checked by tsc), and hasErrorCode narrowing a body at run time.
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  hasErrorCode,
  type OperationErrorBody,
  type OperationErrorCode,
  type OperationId,
} from '../../src/client/index.js';
import { ERRORS_400, OPERATIONS, UNDOCUMENTED_ERRORS_400 } from '../spec/reference.js';
import { contract, operations, resolve } from '../../testkit/contract.js';
import { documentedValues } from '../../src/sandbox/http/document-facts.js';

type Common = 'NotFound' | 'MethodNotAllowed' | 'ServerError' | 'NotImplemented';

describe('OperationErrorCode', () => {
  it("is exactly each operation's 400 list plus the common codes", () => {
    expectTypeOf<OperationErrorCode<'createPaymentSession'>>().toEqualTypeOf<
      | Common
      | 'MissingRequiredParameter'
      | 'InvalidRequestParameter'
      | 'TotalAmountInvalid'
      | 'OrderItemsInvalid'
      | 'IdempotencyViolation'
      | 'SessionPending'
      | 'TokenizeNotSupported'
      | 'FeatureNotEnabled'
    >();
    expectTypeOf<OperationErrorCode<'capturePaymentSession'>>().toEqualTypeOf<
      | Common
      | 'MissingField'
      | 'TotalAmountInvalid'
      | 'PaymentSessionDoesNotExist'
      | 'SessionVoided'
      | 'SessionExpired'
      | 'SessionPending'
      | 'SessionCaptured'
      | 'ImmediateCapture'
    >();
    expectTypeOf<OperationErrorCode<'voidPaymentSession'>>().toEqualTypeOf<
      Common | 'MissingField' | 'PaymentSessionDoesNotExist' | 'SessionCaptured' | 'SessionPending' | 'ImmediateCapture'
    >();
    expectTypeOf<OperationErrorCode<'cancelPaymentSession'>>().toEqualTypeOf<
      Common | 'InvalidPaymentId' | 'SessionCaptured' | 'SessionAuthorized'
    >();
    expectTypeOf<OperationErrorCode<'createRefund'>>().toEqualTypeOf<
      Common | 'MissingField' | 'AmountInvalid' | 'InvalidPaymentId' | 'ChargeDisputed' | 'NoSessionCaptures'
    >();
    expectTypeOf<OperationErrorCode<'createPaymentToken'>>().toEqualTypeOf<
      Common | 'MissingField' | 'IdempotencyViolation' | 'WaitingForVerification' | 'ValidationError'
    >();
    expectTypeOf<OperationErrorCode<'retrieveProvisionRequestEligibility'>>().toEqualTypeOf<
      Common | 'TotalAmountInvalid' | 'ValidationError'
    >();
    // Per operation (a loop over a union of operations would keep only the statuses they share).
    type Codes = { [Op in OperationId]: OperationErrorCode<Op> };
    type BadQueryOrBody =
      | 'listPaymentSessions'
      | 'listPaymentTokens'
      | 'updatePaymentToken'
      | 'listCatalogItems'
      | 'createCatalogItem'
      | 'updateCatalogItem'
      | 'retrieveCatalogItem'
      | 'retrieveCheckoutMethod'
      | 'listDisputes';
    expectTypeOf<Pick<Codes, BadQueryOrBody>>().toEqualTypeOf<
      Record<BadQueryOrBody, Common | 'InvalidRequestParameter'>
    >();
    type NoBadRequest =
      | 'retrievePaymentSession'
      | 'retrievePaymentToken'
      | 'deletePaymentToken'
      | 'retrieveProvisionTokenRequest'
      | 'retrieveDispute'
      | 'retrieveDisputeRecord'
      | 'acceptDispute';
    expectTypeOf<Pick<Codes, NoBadRequest>>().toEqualTypeOf<Record<NoBadRequest, Common>>();
    // The 422 body of create session is an action, not an error code.
    expectTypeOf<Extract<OperationErrorBody<'createPaymentSession'>, { next_action: unknown }>>().toHaveProperty(
      'redirect_url',
    );
  });

  it("covers every operation of the bundled document, and each 400's codes are the reference's", () => {
    // Every operation id of the type, no more: tsc refuses a missing or an unknown one.
    const typed = {
      createPaymentSession: true,
      retrievePaymentSession: true,
      listPaymentSessions: true,
      capturePaymentSession: true,
      cancelPaymentSession: true,
      voidPaymentSession: true,
      createRefund: true,
      createPaymentToken: true,
      listPaymentTokens: true,
      retrievePaymentToken: true,
      updatePaymentToken: true,
      deletePaymentToken: true,
      retrieveProvisionTokenRequest: true,
      retrieveProvisionRequestEligibility: true,
      listCatalogItems: true,
      createCatalogItem: true,
      updateCatalogItem: true,
      retrieveCatalogItem: true,
      retrieveCheckoutMethod: true,
      retrieveDispute: true,
      listDisputes: true,
      retrieveDisputeRecord: true,
      acceptDispute: true,
      // The webhooks the partner receives are operations of the document too.
      receivePaymentSessionComplete: true,
      receivePaymentSessionCompleteLegacy: true,
      receivePaymentTokenUpdated: true,
      receivePaymentTokenUpdatedLegacy: true,
      receiveItemEligibilityUpdated: true,
      receiveItemEligibilityUpdatedLegacy: true,
      receiveDisputeCreated: true,
      receiveDisputeUpdated: true,
      receiveDisputeClosed: true,
      receiveDisputeEvidenceSubmitted: true,
      receiveDisputeLegacy: true,
    } satisfies Record<OperationId, true>;
    const documented = operations()
      .map((o) => o.op.operationId!)
      .sort();
    const webhooks = Object.values(contract.webhooks).flatMap((item) =>
      Object.values(item as Record<string, { operationId?: string }>).map((op) => op.operationId!),
    );
    expect(Object.keys(typed).sort()).toEqual([...documented, ...webhooks].sort());
    expect(OPERATIONS.map((o) => o.operationId).sort()).toEqual(documented);
    // The codes OperationErrorCode is built from: each 400's `error` enum in the document.
    const codes400 = Object.fromEntries(
      operations().flatMap(({ op }) => {
        const response = op.responses?.['400'] as
          | { content?: Record<string, { schema?: { $ref?: string } }> }
          | undefined;
        const schema = response?.content?.['application/json']?.schema;
        if (!schema) return [];
        const errorEnum = documentedValues(
          resolve<{ properties: { error: Parameters<typeof documentedValues>[0] } }>(schema).properties.error,
        );
        return [[op.operationId!, errorEnum]];
      }),
    );
    const reference = Object.fromEntries(
      Object.entries({ ...ERRORS_400, ...UNDOCUMENTED_ERRORS_400 }).map(([op, { codes }]) => [op, codes]),
    );
    expect(codes400).toEqual(reference);
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
    expect(hasErrorCode(undefined as OperationErrorBody<'capturePaymentSession'> | undefined, 'SessionCaptured')).toBe(
      false,
    );
  });

  it('refuses, at compile time, a code the operation cannot answer', () => {
    const error = { error: 'InvalidPaymentId', message: 'x' } as OperationErrorBody<'cancelPaymentSession'>;
    // @ts-expect-error: SessionVoided is a capture/void code, never a cancel one
    expect(hasErrorCode(error, 'SessionVoided')).toBe(false);
    expect(hasErrorCode(error, 'InvalidPaymentId')).toBe(true);
  });
});
