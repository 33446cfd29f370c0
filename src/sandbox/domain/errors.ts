// What went wrong, in the domain's words: the kind of refusal and the code the contract gives it.
// Which HTTP status a kind is belongs to http/ (http/errors.ts). Codes are typed by operation from
// the generated contract, so a misspelt code, or one the operation cannot answer, does not compile.
import type { OperationErrorCode, OperationId } from '../../client/errors.js';
import type { components as SandboxComponents } from '../../../generated/sandbox.js';

export type RefusalKind =
  /** The request breaks a rule of the service. */
  | 'invalid'
  /** No such resource on the caller's sales channel. */
  | 'not_found'
  /** A payment token needs the customer first (the create-session 422). */
  | 'needs_customer_action'
  /** The resource exists already (create catalog item with a known sku). */
  | 'conflict';

export class Refusal extends Error {
  override readonly name = 'Refusal';
  constructor(
    readonly kind: RefusalKind,
    readonly code: string,
    message: string,
    /** Fields of a body other than {error, message}: the 422's next_action and redirect_url. */
    readonly fields?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

/** The refusals of one contract operation: `refusalsOf('capturePaymentSession')('SessionVoided', …)`. */
export function refusalsOf<Op extends OperationId>(_operationId: Op) {
  return (code: OperationErrorCode<Op>, message: string) => new Refusal('invalid', code, message);
}

/** Codes the sandbox's own helpers refuse with (openapi/sandbox.yaml). */
export type HelperRefusalCode = Extract<
  SandboxComponents['schemas']['SandboxError']['error'],
  'InvalidRequest' | 'InvalidState'
>;

export const helperRefusal = (code: HelperRefusalCode, message: string) => new Refusal('invalid', code, message);

export const notFound = (message: string) => new Refusal('not_found', 'NotFound', message);

/** The 409 of create catalog item; its body is undocumented, the shared shape is assumed. */
export const conflict = (message: string) => new Refusal('conflict', 'Conflict', message);

export type CustomerAction = 'UpdatePaymentMethod' | 'TakeHealthSurvey';

export const customerActionNeeded = (action: CustomerAction, redirectUrl: string) =>
  new Refusal('needs_customer_action', action, `The payment token needs customer action: ${action}.`, {
    next_action: action,
    redirect_url: redirectUrl,
  });

/** Caller input quoted in a message, cut at 100 characters: an answer never echoes a whole body. */
export const quoted = (value: string) => JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);
