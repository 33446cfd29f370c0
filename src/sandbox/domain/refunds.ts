// Refunds: partial or full, bounded by what remains refundable, blocked by an open dispute.
import { itemRemaining, takeFromItems } from './allocation.js';
import { refusalsOf } from './errors.js';
import type { Refund, RefundReason, Session } from './types.js';

const refuse = refusalsOf('createRefund');

export const refundedAmount = (session: Session) => session.refunds.reduce((sum, r) => sum + r.amount, 0);

/** Amounts taken by lost or accepted disputes. */
export const disputedLoss = (session: Session) =>
  session.disputes
    .filter((d) => !d.open && (d.dispute.state === 'lost' || d.dispute.state === 'accepted'))
    .reduce((sum, d) => sum + d.dispute.amount, 0);

export const hasOpenDispute = (session: Session) => session.disputes.some((d) => d.open);

/** What can still be refunded: the capture, less refunds and lost disputes. */
export function refundable(session: Session): number {
  return Math.max(0, (session.capture_amount ?? 0) - refundedAmount(session) - disputedLoss(session));
}

export interface RefundRequest {
  amount: number;
  idempotency_key: string;
  reason: RefundReason;
  item_details?: Array<Record<string, unknown>> | null;
}

/** The items item_details names, read as {item_id} (the entry shape is undocumented). */
function namedItems(session: Session, details: RefundRequest['item_details']): number[] {
  return (details ?? []).map((detail, n) => {
    if (detail.item_id === undefined)
      throw refuse(
        'MissingField',
        `item_details[${n}] names no item_id: give the item_id of one of the payment's order_items.`,
      );
    const index = session.items.findIndex((item) => item.item_id === detail.item_id);
    if (index < 0)
      throw refuse(
        'MissingField',
        `item_details[${n}].item_id ${JSON.stringify(detail.item_id)} names no order item of this payment: give ` +
          `the item_id of one of its order_items.`,
      );
    return index;
  });
}

export function refund(session: Session, request: RefundRequest, now: string, newId: () => string): Refund {
  const existing = session.refunds.find((r) => r.idempotency_key === request.idempotency_key);
  if (existing) return existing;
  if (session.status !== 'captured')
    throw refuse('NoSessionCaptures', 'Nothing has been captured on this payment yet.');
  if (hasOpenDispute(session)) throw refuse('ChargeDisputed', 'A pending dispute blocks refunds until it is resolved.');
  const remaining = refundable(session);
  if (!Number.isSafeInteger(request.amount) || request.amount <= 0 || request.amount > remaining) {
    throw refuse(
      'AmountInvalid',
      `amount must be greater than 0 and at most the remaining refundable amount, ${remaining}; got ${request.amount}.`,
    );
  }
  const named = namedItems(session, request.item_details);
  if (named.length > 0) {
    const available = [...new Set(named)].reduce((sum, index) => sum + itemRemaining(session.items[index]!), 0);
    if (request.amount > available) {
      throw refuse(
        'AmountInvalid',
        `amount ${request.amount} is more than the items named in item_details have left to refund, ${available}.`,
      );
    }
  }
  takeFromItems(session.items, request.amount, 'refunded', named);
  const created: Refund = {
    refund_id: `rf_${newId()}`,
    idempotency_key: request.idempotency_key,
    amount: request.amount,
    reason: request.reason,
    created_at: now,
  };
  session.refunds.push(created);
  return created;
}
