// What the service shows of a session: the detail record, the list item, status_summary and the
// per-item refundable and capturable amounts.
import { itemRemaining } from './allocation.js';
import { storedItemTotal } from './amounts.js';
import { disputedLoss, hasOpenDispute, refundable, refundedAmount } from './refunds.js';
import type { Session, SessionDetail, SessionListItem, SessionOrderItem, StatusSummary } from './types.js';

/** status_summary; its moves are undocumented, so the sandbox's derivation is stated in sandbox.yaml. */
export function statusSummary(session: Session): StatusSummary {
  switch (session.status) {
    case 'authorized':
      return 'Authorized';
    case 'authorization_voided':
      return 'Voided';
    case 'authorization_expired':
      return 'Expired';
    case 'captured': {
      // A dispute open, or one that took money back (lost or accepted): the session was charged back.
      if (hasOpenDispute(session) || disputedLoss(session) > 0) return 'Disputed';
      const refunded = refundedAmount(session);
      if (refundable(session) === 0 && refunded > 0) return 'Refunded';
      if (refunded > 0) return 'Partially Refunded';
      if ((session.capture_amount ?? 0) < session.total_amount) return 'Partially Captured';
      return 'Captured';
    }
    default:
      return 'Incomplete';
  }
}

/** Order items as the service returns them, with the optional fields exactly when they apply. */
export function sessionItems(session: Session): SessionOrderItem[] {
  return session.items.map((item) => {
    const view: SessionOrderItem = {
      item_id: item.item_id,
      name: item.name,
      price: item.price,
      quantity: item.quantity,
    };
    if (item.sku !== undefined) view.sku = item.sku;
    if (session.status === 'captured') {
      const totalRefundable = itemRemaining(item);
      const unit = storedItemTotal(item) / item.quantity;
      view.total_refundable = totalRefundable;
      // Units not yet wholly refunded (a unit partly refunded still counts). An item whose discounts
      // take its whole price captured nothing (applyCapture), so it has no unit left to refund.
      view.quantity_refundable = unit > 0 ? Math.min(item.quantity, Math.ceil(totalRefundable / unit)) : 0;
    }
    if (session.status === 'authorized') {
      // The item's share of the hold; an item whose discounts exceed its price has none to capture.
      view.total_capturable = Math.max(0, storedItemTotal(item));
      view.quantity_capturable = item.quantity;
    }
    return view;
  });
}

/**
 * capture_amount and authorize_amount: a one-time payment always carries both, equal (0 until its
 * capture); an authorization carries authorize_amount once the hold is placed, and capture_amount
 * once captured.
 */
export function amountFields(session: Session): { capture_amount?: number; authorize_amount?: number } {
  if (session.kind === 'one_time_payment') {
    const captured = session.capture_amount ?? 0;
    return { capture_amount: captured, authorize_amount: captured };
  }
  return {
    ...(session.authorized_at !== undefined ? { authorize_amount: session.total_amount } : {}),
    ...(session.capture_amount !== undefined ? { capture_amount: session.capture_amount } : {}),
  };
}

/** The service fee, in decimal dollars; the sandbox charges none. */
export const SERVICE_FEE = '0.00';

/**
 * The version of the stored detail rendering (detail_view): a row rendered by another version is
 * rendered again from its document when read. Bump it whenever toDetail's output changes, and add
 * the new rendering to tests/unit/fixtures/detail-view-golden.json.
 */
export const DETAIL_VIEW_VERSION = 2;

export function toDetail(session: Session): SessionDetail {
  return {
    id: session.id,
    kind: session.kind,
    status: session.status,
    status_summary: statusSummary(session),
    created_at: session.created_at,
    total_amount: session.total_amount,
    ...(session.user_business_id !== undefined ? { user_business_id: session.user_business_id } : {}),
    order_items: sessionItems(session),
    ...amountFields(session),
    ...(session.captured_at !== undefined ? { captured_on: session.captured_at } : {}),
    service_fee: SERVICE_FEE,
    ...(session.request.metadata !== undefined ? { metadata: session.request.metadata } : {}),
    capture_failed_on: session.capture_failed_on ?? null,
    capture_failed_details: session.capture_failed_on ? 'The hold expired and re-authorization failed.' : null,
    capture_failed_amount_collected: null,
  };
}

export interface ListFlags {
  include_metadata?: boolean;
  include_order_items?: boolean;
  summarize_refunds?: boolean;
  include_service_fee?: boolean;
  include_refunds?: boolean;
  include_disputes?: boolean;
}

/**
 * A session as an item of the list, with everything the list's flags add. Refunds and disputes
 * are in unless turned off (summarize_refunds replaces the refunds by their sum).
 */
export function listItemOf(session: Session, flags: ListFlags): SessionListItem {
  const includeRefunds = flags.include_refunds !== false && flags.summarize_refunds !== true;
  const includeDisputes = flags.include_disputes !== false;
  return {
    ...toListItem(session, flags),
    ...(includeRefunds ? { refunds: session.refunds.map(({ idempotency_key: _key, ...r }) => r) } : {}),
    ...(includeDisputes ? { disputes: session.disputes.map((d) => d.dispute) } : {}),
  } as SessionListItem;
}

/** Whether a list asks for nothing but the default item (so that its stored rendering will do). */
export const hasDefaultListFlags = (flags: ListFlags) =>
  !flags.include_metadata &&
  !flags.include_order_items &&
  !flags.summarize_refunds &&
  !flags.include_service_fee &&
  flags.include_refunds !== false &&
  flags.include_disputes !== false;

/**
 * The version of the stored list rendering (list_view): a row rendered by another version is
 * rendered again from its document when read. Bump it whenever listItemOf's output changes, and add
 * the new rendering to tests/unit/fixtures/list-view-golden.json (tests/unit/list-views.test.ts).
 */
export const LIST_VIEW_VERSION = 3;

export function toListItem(session: Session, flags: ListFlags): SessionListItem {
  const { order_items: items, metadata, service_fee: serviceFee, ...detail } = toDetail(session);
  // For a one-time payment authorized_on equals captured_on, so it appears once captured.
  const authorizedOn = session.kind === 'one_time_payment' ? session.captured_at : session.authorized_at;
  return {
    ...detail,
    ...(authorizedOn !== undefined ? { authorized_on: authorizedOn } : {}),
    ...(flags.include_order_items ? { order_items: items } : {}),
    ...(flags.include_metadata && metadata !== undefined ? { metadata } : {}),
    ...(flags.summarize_refunds ? { refund_amount: refundedAmount(session) } : {}),
    ...(flags.include_service_fee ? { service_fee: serviceFee } : {}),
  };
}
