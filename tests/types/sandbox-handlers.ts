// Type tests of the sandbox's handlers and error codes, checked by `npm run typecheck` (tsc): every
// line under @ts-expect-error must fail to compile, or tsc reports the directive as unused. So a
// misspelt error code, a code of another operation, a handler for an operationId the document does
// not have, and a handler returning the wrong body are all compile errors.
import { helperRefusal, refusalsOf } from '../../src/sandbox/domain/errors.js';
import { VALIDATION_CODES } from '../../src/sandbox/http/error-codes.js';
import type { ContractOperations, Handlers, HelperOperations } from '../../src/sandbox/http/operation-types.js';

export const refusals = [
  refusalsOf('capturePaymentSession')('SessionPending', 'a code of capture'),
  // @ts-expect-error: a misspelt code
  refusalsOf('capturePaymentSession')('SessionPendng', 'typo'),
  // @ts-expect-error: cancel cannot answer SessionVoided
  refusalsOf('cancelPaymentSession')('SessionVoided', 'a code of another operation'),
  // @ts-expect-error: no such operation
  refusalsOf('capturePaymentSessions'),
  // @ts-expect-error: a contract code is no helper code
  helperRefusal('SessionPending', 'helpers answer InvalidRequest or InvalidState'),
];

export const unknownOperation = {
  // @ts-expect-error: createPaymentSesion is no operationId of the contract
  createPaymentSesion: () => ({ id: 'x', redirect_url: 'https://x' }),
} satisfies Handlers<ContractOperations>;

export const wrongBody = {
  // @ts-expect-error: capture answers {id}, not a refund
  capturePaymentSession: () => ({ refund_id: 'x' }),
} satisfies Handlers<ContractOperations>;

export const typedContext = {
  capturePaymentSession: (context) => {
    // @ts-expect-error: capture's path has business_id only
    void context.path.payment_session_id;
    return { id: `${context.path.business_id}-${context.body.total_amount}` };
  },
  // @ts-expect-error: a helper is no contract operation
  advanceClock: () => ({ now: 'x', offset_seconds: 1 }),
} satisfies Handlers<ContractOperations>;

export const helperContext = {
  advanceClock: (context) => ({ now: String(context.body.seconds), offset_seconds: context.body.seconds }),
} satisfies Handlers<HelperOperations>;

export const validationTable: typeof VALIDATION_CODES = {
  ...VALIDATION_CODES,
  // @ts-expect-error: the table names only codes of the operation's enum
  voidPaymentSession: { missing: 'MissingField', invalid: 'MisingField' },
};
