// A payment session's timeline (GET /sandbox/v1/payment_sessions/{id}/timeline): the steps its
// record keeps (its creation, each refund, which fire no webhook) merged in time with the webhook
// events it fired, each named by what it reports. Pure: the store reads a page of the session's
// events, this module names and orders them.
import type { components } from '../../../generated/sandbox.js';
import type { Session } from './types.js';

export type TimelineEntry = components['schemas']['TimelineEntry'];
type Step = TimelineEntry['step'];

/** A webhook event of the session, as the outbox holds it. */
export interface SessionEvent {
  id: string;
  event_type: string;
  webhook_delivery_id: string;
  created_at: string;
  delivered_at: string | null;
  data: Record<string, unknown>;
}

/** The step a payment_session_complete reports, by the status it carries. */
const COMPLETION_STEPS: Readonly<Record<string, Step>> = {
  processing: 'checkout_completed',
  pending: 'checkout_ineligible',
  authorized: 'authorized',
  captured: 'captured',
  rejected: 'rejected',
  canceled: 'canceled',
  authorization_voided: 'voided',
  authorization_expired: 'expired',
};

const DISPUTE_STEPS: Readonly<Record<string, Step>> = {
  'dispute.created': 'dispute_opened',
  'dispute.updated': 'dispute_updated',
  'dispute.evidence_submitted': 'dispute_evidence_submitted',
  'dispute.closed': 'dispute_closed',
};

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const cents = (value: unknown): number | null =>
  Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : null;

/** The entry of one webhook event: the step it reports, and what it reports it with. */
export function eventEntry(event: SessionEvent): TimelineEntry {
  const webhook = {
    event_id: event.id,
    event_type: event.event_type,
    webhook_delivery_id: event.webhook_delivery_id,
    delivered_at: event.delivered_at,
  };
  const entry: TimelineEntry = {
    at: event.created_at,
    step: 'event',
    amount: null,
    state: null,
    refund_id: null,
    dispute_id: null,
    webhook,
  };
  const { data } = event;
  if (event.event_type === 'payment_session_complete') {
    const status = text(data.status);
    const step = status === null ? undefined : COMPLETION_STEPS[status];
    return {
      ...entry,
      step: step ?? 'event',
      state: status,
      amount: step === 'captured' ? cents(data.capture_amount) : null,
    };
  }
  const disputeStep = DISPUTE_STEPS[event.event_type];
  if (disputeStep)
    return {
      ...entry,
      step: disputeStep,
      state: text(data.state),
      amount: cents(data.amount),
      dispute_id: text(data.dispute_id),
    };
  if (event.event_type === 'payment_token.updated') return { ...entry, step: 'token_issued' };
  return entry;
}

/** The steps of the session's record: its creation and its refunds, in time order. */
export function recordEntries(session: Session): TimelineEntry[] {
  const none = { state: null, dispute_id: null, webhook: null };
  const created: TimelineEntry = {
    at: session.created_at,
    step: 'created',
    amount: session.total_amount,
    refund_id: null,
    ...none,
  };
  const refunds = session.refunds.map(
    (refund): TimelineEntry => ({
      at: refund.created_at,
      step: 'refunded',
      amount: refund.amount,
      refund_id: refund.refund_id,
      ...none,
    }),
  );
  return [created, ...refunds].sort((a, b) => compareTimes(a.at, b.at));
}

/** Stored times are ISO 8601 in UTC with milliseconds, so they compare as instants; a stray format compares as text. */
function compareTimes(a: string, b: string): number {
  const [x, y] = [Date.parse(a), Date.parse(b)];
  if (Number.isNaN(x) || Number.isNaN(y)) return a < b ? -1 : a > b ? 1 : 0;
  return x - y;
}

/**
 * Which of the record's steps a page holds: those after the previous page's last event, up to this page's last (no
 * bound on the last page).
 */
export interface PageSpan {
  /** The time of the previous page's last event (exclusive); none on the first page. */
  after?: string;
  /** The time of this page's last event (inclusive), when more pages follow. */
  through?: string;
}

/**
 * One page of the timeline: the page's events (oldest first) merged with the record's steps of
 * the page's span. A step of the record comes before an event at the same instant: the session
 * existed before anything it fired.
 */
export function timelinePage(session: Session, events: readonly SessionEvent[], span: PageSpan): TimelineEntry[] {
  const record = recordEntries(session).filter(
    (entry) =>
      (span.after === undefined || compareTimes(entry.at, span.after) > 0) &&
      (span.through === undefined || compareTimes(entry.at, span.through) <= 0),
  );
  const fired = events.map(eventEntry);
  const merged: TimelineEntry[] = [];
  let r = 0;
  for (const entry of fired) {
    while (r < record.length && compareTimes(record[r]!.at, entry.at) <= 0) merged.push(record[r++]!);
    merged.push(entry);
  }
  return [...merged, ...record.slice(r)];
}
