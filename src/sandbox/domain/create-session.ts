// The rules of create_payment_session beyond the schema: the total arithmetic, URLs after
// templating, tokens and merchant features. Pure: token facts are passed in.
import { expectedTotal } from './amounts.js';
import { notFound, refusalsOf } from './errors.js';
import { customerKeyOf, type Need } from './provisioning.js';
import { SESSION_SHAPE_VERSION } from './session-shape.js';
import type { CreateSessionRequest, Features, OrderItem, Session } from './types.js';

const refuse = refusalsOf('createPaymentSession');

export const SESSION_ID_PLACEHOLDER = '{{payment_session_id}}';

/** success_url / failure_url with every exact `{{payment_session_id}}` replaced. */
export function resolveRedirect(template: string, sessionId: string): string {
  return template.split(SESSION_ID_PLACEHOLDER).join(sessionId);
}

export interface TokenFacts {
  exists: boolean;
  /** The token's user, whose identity a charge with the token takes, and who is the charge's customer. */
  customer_email?: string;
  customer_name?: string;
  customer_key?: string;
  deleted: boolean;
  /** The session that issued it has not finished its initial checkout. */
  pendingCheckout: boolean;
  /** What the customer must do before this charge (domain/payment-tokens.ts chargeNeeds). */
  needs: Need[];
}

/**
 * The reference refuses an "invalid URL" without defining one. The sandbox takes an absolute http or
 * https URL (after templating), with no control character: its hosted page sends the customer's
 * browser there, and another scheme (javascript:, data:) would run in that page. Written down in
 * openapi/sandbox.yaml.
 */
export function isValidUrl(url: string): boolean {
  // The URL parser drops a tab, CR or LF wherever it stands: the customer would be sent to another
  // URL than the one given.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters a URL may not carry
  if (/[\u0000-\u001f\u007f]/.test(url)) return false;
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && hasPlainHost(parsed);
  } catch {
    return false;
  }
}

/**
 * A host that is a DNS name (letters, digits and hyphens between dots) or an IP address. The URL
 * parser also takes `*`, `;`, `,` and `'` in a host, which the hosted pages would copy into their
 * Content-Security-Policy as the partner's origin: `https://shop.example;frame-ancestors/ok` added
 * a directive, and `https://*` / `http://*:4624` a wildcard that let any site frame the checkout.
 */
export function hasPlainHost(url: URL): boolean {
  return /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?)$/i.test(url.hostname);
}

/**
 * Refuses a request that breaks a rule; otherwise what the customer must do before a charge with
 * its payment_token (the 422), or nothing.
 */
export function checkCreateRules(
  request: CreateSessionRequest,
  features: Features,
  token: TokenFacts | undefined,
): Need[] {
  for (const field of ['success_url', 'failure_url'] as const) {
    if (!isValidUrl(resolveRedirect(request[field], '00000000-0000-4000-8000-000000000000'))) {
      throw refuse('InvalidRequestParameter', `${field} is not a valid URL.`);
    }
    // A 422 creates no session, so its page fills the placeholder with nothing: the URL must hold then too.
    if (!isValidUrl(resolveRedirect(request[field], ''))) {
      throw refuse(
        'InvalidRequestParameter',
        `${field} is not a valid URL once ${SESSION_ID_PLACEHOLDER} is left empty, as it is when a charge with a ` +
          `payment_token is refused with a 422 and no session exists.`,
      );
    }
  }
  // "Required in effect": a session charges for items, so an empty list is refused (sandbox.yaml).
  if (request.order_items.length === 0) throw refuse('OrderItemsInvalid', 'order_items must hold at least one item.');
  checkSafeAmounts(request);
  if (request.payment_token !== undefined && request.tokenize === true) {
    throw refuse('TokenizeNotSupported', 'tokenize must be false when payment_token is given.');
  }
  const freeTrial = request.display_next_bill_info !== undefined;
  if (freeTrial && request.tokenize === undefined) {
    throw refuse('MissingRequiredParameter', 'display_next_bill_info (a free trial) requires tokenize=true.');
  }
  if (freeTrial && request.tokenize !== true) {
    throw refuse('InvalidRequestParameter', 'display_next_bill_info (a free trial) requires tokenize=true, not false.');
  }
  if (freeTrial && request.total_amount !== 0) {
    throw refuse('TotalAmountInvalid', 'display_next_bill_info (a free trial) requires total_amount=0.');
  }
  if (!freeTrial && request.total_amount <= 0) {
    throw refuse('TotalAmountInvalid', `total_amount must be greater than 0, not ${request.total_amount}.`);
  }
  const expected = expectedTotal(request);
  if (request.total_amount !== expected) {
    throw refuse(
      'TotalAmountInvalid',
      `total_amount ${request.total_amount} does not equal the sum of the amounts, ${expected}.`,
    );
  }
  if (request.kind === 'authorization' && !features.authorization) {
    throw refuse('FeatureNotEnabled', 'Authorization sessions (kind=authorization) are not enabled for this merchant.');
  }
  if ((request.tokenize === true || request.payment_token !== undefined || freeTrial) && !features.tokenization) {
    throw refuse('FeatureNotEnabled', 'Payment tokens are not enabled for this merchant.');
  }
  return request.payment_token !== undefined ? checkToken(request.payment_token, token) : [];
}

/** Amounts beyond 2^53 cannot be summed exactly in JSON numbers; the service's are cents. */
function checkSafeAmounts(request: CreateSessionRequest): void {
  for (const [n, item] of request.order_items.entries()) {
    const values = [
      item.quantity,
      item.price,
      item.amount_details.total_additional_charges,
      item.amount_details.total_discounts,
    ];
    if (!values.every(Number.isSafeInteger) || !Number.isSafeInteger(item.quantity * item.price)) {
      throw refuse('OrderItemsInvalid', `order_items[${n}] has an amount beyond ${Number.MAX_SAFE_INTEGER} cents.`);
    }
  }
  const values = [
    request.total_amount,
    request.amount_details.total_additional_charges,
    request.amount_details.total_discounts,
    expectedTotal(request),
  ];
  if (!values.every(Number.isSafeInteger)) {
    throw refuse('TotalAmountInvalid', `Amounts must be whole cents below ${Number.MAX_SAFE_INTEGER}.`);
  }
}

function checkToken(paymentToken: string, token: TokenFacts | undefined): Need[] {
  if (!token?.exists || token.deleted) throw notFound(`No payment token ${paymentToken}.`);
  if (token.pendingCheckout) {
    throw refuse(
      'SessionPending',
      'The customer has not finished the initial checkout of the session that created this payment token.',
    );
  }
  return token.needs;
}

/** The new session's order items, with ids for those the partner gave none. */
export function orderItems(request: CreateSessionRequest, newId: () => string): OrderItem[] {
  return request.order_items.map((item) => ({
    item_id: item.item_id ?? newId(),
    name: item.name,
    ...(item.sku !== undefined ? { sku: item.sku } : {}),
    quantity: item.quantity,
    price: item.price,
    total_additional_charges: item.amount_details.total_additional_charges,
    total_discounts: item.amount_details.total_discounts,
    captured: 0,
    refunded: 0,
    disputed: 0,
  }));
}

/**
 * Who a new session's customer is: the token's user when it charges a payment_token (its customer
 * key), else the customer of the request's email, else a customer of the session's own.
 */
export const sessionCustomerKey = (
  request: CreateSessionRequest,
  sessionId: string,
  tokenCustomerKey: string | undefined,
) => tokenCustomerKey ?? customerKeyOf(request.customer_email, `session:${sessionId}`);

export function newSession(fields: {
  id: string;
  channel: string;
  request: CreateSessionRequest;
  now: string;
  issuedToken?: string;
  /** With a payment_token, the token's user; the request's customer_email and customer_name are ignored. */
  tokenUser?: { customer_email?: string; customer_name?: string };
  /** The business id of the session's customer (sessionCustomerKey names the customer). */
  userBusinessId?: string;
  newId: () => string;
}): Session {
  const { request } = fields;
  const identity = fields.tokenUser ?? { customer_email: request.customer_email, customer_name: request.customer_name };
  return {
    shape_version: SESSION_SHAPE_VERSION,
    id: fields.id,
    channel: fields.channel,
    kind: request.kind ?? 'one_time_payment',
    status: 'pending',
    created_at: fields.now,
    request,
    ...(request.idempotency_key !== undefined ? { idempotency_key: request.idempotency_key } : {}),
    total_amount: request.total_amount,
    items: orderItems(request, fields.newId),
    ...(request.payment_token !== undefined ? { payment_token: request.payment_token } : {}),
    ...(identity.customer_email !== undefined ? { customer_email: identity.customer_email } : {}),
    ...(identity.customer_name !== undefined ? { customer_name: identity.customer_name } : {}),
    ...(fields.userBusinessId !== undefined ? { user_business_id: fields.userBusinessId } : {}),
    ...(fields.issuedToken !== undefined ? { issued_payment_token: fields.issuedToken } : {}),
    capture_keys: {},
    void_keys: {},
    refunds: [],
    disputes: [],
  };
}
