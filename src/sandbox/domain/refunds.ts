// Refunds: partial or full, bounded by what remains refundable, blocked by an open dispute.
import { badRequest } from './errors.js';
import { hasOpenDispute, refundable } from './views.js';
import type { Refund, RefundReason, Session } from './types.js';

export interface RefundRequest {
  amount: number;
  idempotency_key: string;
  reason: RefundReason;
  item_details?: Array<Record<string, unknown>> | null;
}

/** An item_details entry the sandbox understands: {item_id, quantity?} (the shape is undocumented). */
function itemRequests(session: Session, details: RefundRequest['item_details']): Array<{ index: number; quantity?: number }> {
  return (details ?? []).map((detail, n) => {
    const index = session.items.findIndex((item) => item.item_id === detail.item_id);
    if (index < 0) throw badRequest('MissingField', `item_details[${n}].item_id does not name an item of this payment.`);
    const quantity = detail.quantity;
    if (quantity !== undefined && (!Number.isInteger(quantity) || (quantity as number) < 1)) {
      throw badRequest('MissingField', `item_details[${n}].quantity must be a positive integer.`);
    }
    return { index, ...(quantity !== undefined ? { quantity: quantity as number } : {}) };
  });
}

export function refund(session: Session, request: RefundRequest, now: string, newId: () => string): Refund {
  const existing = session.refunds.find((r) => r.idempotency_key === request.idempotency_key);
  if (existing) return existing;
  if (session.status !== 'captured') throw badRequest('NoSessionCaptures', 'Nothing has been captured on this payment yet.');
  if (hasOpenDispute(session)) throw badRequest('ChargeDisputed', 'A pending dispute blocks refunds until it is resolved.');
  const remaining = refundable(session);
  if (request.amount <= 0 || request.amount > remaining) {
    throw badRequest('AmountInvalid', `amount must be greater than 0 and at most the remaining refundable amount, ${remaining}; got ${request.amount}.`);
  }
  allocate(session, request.amount, itemRequests(session, request.item_details));
  const created: Refund = { refund_id: `rf_${newId()}`, idempotency_key: request.idempotency_key, amount: request.amount, reason: request.reason, created_at: now };
  session.refunds.push(created);
  return created;
}

/** Takes the amount from the named items first, then from the items in order. */
function allocate(session: Session, amount: number, named: Array<{ index: number; quantity?: number }>): void {
  let left = amount;
  const order = [...named.map((n) => n.index), ...session.items.map((_, i) => i)];
  for (const { index, quantity } of named) {
    if (quantity !== undefined) session.items[index]!.refunded_quantity = Math.min(session.items[index]!.quantity, session.items[index]!.refunded_quantity + quantity);
  }
  for (const index of order) {
    const item = session.items[index]!;
    const take = Math.min(left, Math.max(0, item.captured - item.refunded));
    item.refunded += take;
    left -= take;
    if (left === 0) return;
  }
  // Any rest was captured outside the items (session-level charges such as shipping).
}
