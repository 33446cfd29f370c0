// Narrowing of error responses by their `error` enum, per operation, with types from the contract.
import type { operations } from '../../generated/schema.js';
import type { KnownValues } from './known-values.js';

export type OperationId = keyof operations;
type Responses<Op extends OperationId> = operations[Op]['responses'];
type JsonBody<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON bodies of every non-2xx response an operation declares. */
export type OperationErrorBody<Op extends OperationId> = {
  [Status in keyof Responses<Op>]: Status extends 200 | 201 | 204 ? never : JsonBody<Responses<Op>[Status]>;
}[keyof Responses<Op>];

/**
 * The documented error codes of a body union. Each code enum is open (`"A" | (string & {})`): a
 * later version may add codes, which the body still decodes, but only the documented ones can be
 * named here. The 401's plain `string` documents none.
 */
export type ErrorCodeOf<Body> = Body extends { error: infer Code } ? KnownValues<Code> : never;

/** Every documented `error` code an operation can answer, e.g. OperationErrorCode<'capturePaymentSession'>. */
export type OperationErrorCode<Op extends OperationId> = ErrorCodeOf<OperationErrorBody<Op>>;

/** The members of a body union that can carry this code, each with `error` narrowed to it. */
export type NarrowedError<Body, Code> = Body extends { error: infer Codes }
  ? Code extends KnownValues<Codes> // the 401's undocumented open string carries no documented code
    ? Body & { error: Code }
    : never
  : never;

/**
 * True when an error body carries this code; narrows it. The code must be one the operation can
 * answer, so `hasErrorCode(captureError, 'SessionVoided')` compiles and a typo does not.
 */
export function hasErrorCode<Body, const Code extends ErrorCodeOf<Body>>(
  error: Body | undefined,
  code: Code,
): error is NarrowedError<Body, Code> {
  return typeof error === 'object' && error !== null && (error as { error?: unknown }).error === code;
}
