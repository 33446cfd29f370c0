// The rules of create_payment_session beyond the schema: the total arithmetic, URLs after
// templating, tokens and merchant features. Pure: token facts are passed in.
import { expectedTotal } from './amounts.js';
import { badRequest, notFound, OperationError } from './errors.js';
import type { CreateSessionRequest, Features, OrderItem, Session } from './types.js';

export const SESSION_ID_PLACEHOLDER = '{{payment_session_id}}';

/** success_url / failure_url with every exact `{{payment_session_id}}` replaced. */
export function resolveRedirect(template: string, sessionId: string): string {
  return template.split(SESSION_ID_PLACEHOLDER).join(sessionId);
}

export interface TokenFacts {
  exists: boolean;
  deleted: boolean;
  /** The session that issued it has not finished its initial checkout. */
  pendingCheckout: boolean;
  nextAction: 'UpdatePaymentMethod' | 'TakeHealthSurvey' | null;
  actionUrl: string;
}

function isValidUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    return false;
  }
}

export function checkCreateRules(request: CreateSessionRequest, features: Features, token: TokenFacts | undefined): void {
  for (const field of ['success_url', 'failure_url'] as const) {
    if (!isValidUrl(resolveRedirect(request[field], '00000000-0000-4000-8000-000000000000'))) {
      throw badRequest('InvalidRequestParameter', `${field} is not a valid URL.`);
    }
  }
  if (request.payment_token !== undefined && request.tokenize === true) {
    throw badRequest('TokenizeNotSupported', 'tokenize must be false when payment_token is given.');
  }
  const freeTrial = request.display_next_bill_info !== undefined;
  if (freeTrial && (request.tokenize !== true || request.total_amount !== 0)) {
    throw badRequest('TotalAmountInvalid', 'display_next_bill_info (a free trial) requires tokenize=true and total_amount=0.');
  }
  if (!freeTrial && request.total_amount <= 0) {
    throw badRequest('TotalAmountInvalid', `total_amount must be greater than 0, not ${request.total_amount}.`);
  }
  const expected = expectedTotal(request);
  if (request.total_amount !== expected) {
    throw badRequest('TotalAmountInvalid', `total_amount ${request.total_amount} does not equal the sum of the amounts, ${expected}.`);
  }
  const itemIds = request.order_items.map((i) => i.item_id).filter((id) => id !== undefined);
  if (new Set(itemIds).size !== itemIds.length) {
    throw badRequest('OrderItemsInvalid', 'order_items: item_id values must be unique.');
  }
  if ((request.kind ?? 'one_time_payment') === 'authorization' && !features.authorization) {
    throw badRequest('FeatureNotEnabled', 'Authorization sessions (kind=authorization) are not enabled for this merchant.');
  }
  if ((request.tokenize === true || request.payment_token !== undefined || freeTrial) && !features.tokenization) {
    throw badRequest('FeatureNotEnabled', 'Payment tokens are not enabled for this merchant.');
  }
  if (request.payment_token !== undefined) checkToken(request.payment_token, token);
}

function checkToken(paymentToken: string, token: TokenFacts | undefined): void {
  if (!token?.exists || token.deleted) throw notFound(`No payment token ${paymentToken}.`);
  if (token.pendingCheckout) {
    throw badRequest('SessionPending', 'The customer has not finished the initial checkout of the session that created this payment token.');
  }
  if (token.nextAction) {
    throw new OperationError(422, token.nextAction, `The payment token needs customer action: ${token.nextAction}.`, {
      next_action: token.nextAction,
      redirect_url: token.actionUrl,
    });
  }
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
    refunded_quantity: 0,
  }));
}

export function newSession(fields: {
  id: string;
  channel: string;
  request: CreateSessionRequest;
  now: string;
  issuedToken?: string;
  newId: () => string;
}): Session {
  const { request } = fields;
  return {
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
    ...(fields.issuedToken !== undefined ? { issued_payment_token: fields.issuedToken } : {}),
    capture_keys: {},
    void_keys: {},
    refunds: [],
    disputes: [],
  };
}
