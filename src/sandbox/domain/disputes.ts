// Disputes on a captured session, in the contract's canonical shape, with the webhooks of the
// reference's dispute table. Every move goes through `sync`, the way the service syncs a dispute
// from the processor:
// - a dispute becoming visible fires dispute.created (again when an inquiry escalates);
// - a change of state or phase fires dispute.updated; a sync that changes neither is silent;
// - reaching a terminal state fires dispute.closed once; a re-sync of a terminal dispute is silent;
// - an inquiry already closed when first seen fires nothing.
// Pure: each move changes the session and returns its events.
import { takeFromItems } from './allocation.js';
import { helperRefusal } from './errors.js';
import { refundable } from './refunds.js';
import type { Dispute, DomainEvent, Session, SessionDispute } from './types.js';

export type DisputeOutcome = 'won' | 'lost' | 'accepted' | 'expired';
export type DisputeKind = 'chargeback' | 'inquiry';

const RESPONSE_WINDOW_MS = 14 * 24 * 60 * 60 * 1000;
const TERMINAL = new Set(['won', 'lost', 'accepted', 'expired', 'closed']);
/** The phase of a chargeback is the documented `dispute`; an inquiry's is the sandbox's `inquiry`. */
const PHASE_OF: Record<DisputeKind, string> = { chargeback: 'dispute', inquiry: 'inquiry' };

export const isTerminal = (state: string) => TERMINAL.has(state);

/** An entry stored without a kind (older documents) is a chargeback. */
const isInquiry = (entry: SessionDispute) => entry.kind === 'inquiry';

const event = (type: string, dispute: Dispute): DomainEvent => ({ event_type: type, data: { ...dispute } });

export function openDispute(
  session: Session,
  fields: { id: string; kind?: DisputeKind; amount?: number; reason?: string; now: string; alreadyClosed?: boolean },
): { dispute: Dispute; events: DomainEvent[] } {
  if (session.status !== 'captured')
    throw helperRefusal('InvalidState', `Only a captured session can be disputed; this one is ${session.status}.`);
  const kind = fields.kind ?? 'chargeback';
  if (fields.alreadyClosed && kind !== 'inquiry')
    throw helperRefusal('InvalidRequest', 'Only an inquiry can be closed before it is first seen.');
  // A dispute claims money the customer paid and still has with the merchant: the capture, less
  // refunds and lost disputes, less what the session's other open disputes already claim.
  const claimed = session.disputes.filter((d) => d.open).reduce((sum, d) => sum + d.dispute.amount, 0);
  const disputable = refundable(session) - claimed;
  if (disputable <= 0)
    throw helperRefusal(
      'InvalidState',
      'Nothing is left to dispute: refunds and other disputes already cover the capture.',
    );
  const amount = fields.amount ?? disputable;
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > disputable) {
    throw helperRefusal(
      'InvalidRequest',
      `amount must be between 1 and ${disputable}: the capture less refunds, lost disputes and open disputes.`,
    );
  }
  const dispute: Dispute = {
    dispute_id: fields.id,
    processor_dispute_id: `sbx_${fields.id.slice(0, 8)}`,
    processor: 'SANDBOX',
    state: fields.alreadyClosed ? 'closed' : 'needs_response',
    phase: PHASE_OF[kind],
    reason: fields.reason ?? 'fraudulent',
    network_reason_code: '10.4',
    amount,
    currency: 'USD',
    due_by: new Date(Date.parse(fields.now) + RESPONSE_WINDOW_MS).toISOString(),
    created_at: fields.now,
    counters: [],
    metadata: {},
    evidence_requirements: {
      merchant_explanation: 'Explain why the charge is valid.',
      compelling: [],
      supporting: [],
      other: [],
    },
    payment: { order_id: session.id },
    ...(fields.alreadyClosed ? { resolved_at: fields.now } : {}),
  };
  session.disputes.push({ dispute, open: !fields.alreadyClosed, kind, updated_at: fields.now });
  // Opened and closed between two syncs: the partner never sees it, and no webhook fires.
  return { dispute, events: fields.alreadyClosed ? [] : [event('dispute.created', dispute)] };
}

function entryOf(session: Session, disputeId: string): SessionDispute {
  const entry = session.disputes.find((d) => d.dispute.dispute_id === disputeId);
  if (!entry) throw helperRefusal('InvalidState', `No dispute ${disputeId} on this session.`);
  return entry;
}

/**
 * The processor's view of a dispute arrives: a new state, a new phase, or both. The reference's
 * table decides what fires. A terminal state is final: a re-sync of it is silent, another state
 * after it is refused.
 */
export function syncDispute(
  session: Session,
  disputeId: string,
  change: { state?: string; phase?: string },
  now: string,
): { dispute: Dispute; events: DomainEvent[] } {
  const entry = entryOf(session, disputeId);
  const state = change.state ?? String(entry.dispute.state);
  const phase = change.phase ?? entry.dispute.phase;
  if (isTerminal(String(entry.dispute.state))) {
    if (state === entry.dispute.state && phase === entry.dispute.phase) return { dispute: entry.dispute, events: [] };
    throw helperRefusal(
      'InvalidState',
      `The dispute is already ${entry.dispute.state}; a terminal dispute does not change.`,
    );
  }
  if (state === entry.dispute.state && phase === entry.dispute.phase) return { dispute: entry.dispute, events: [] };
  const inquiry = isInquiry(entry);
  // An inquiry reaching the chargeback phase is the reference's escalation: dispute.created again.
  if (inquiry && phase === PHASE_OF.chargeback && !isTerminal(state)) return escalateInquiry(session, disputeId, now);
  // Outcomes belong to chargebacks; `closed` to inquiries the bank drops (the reference's table).
  if (isTerminal(state) && (state === 'closed') !== inquiry) {
    throw helperRefusal(
      'InvalidState',
      inquiry
        ? `An inquiry ends closed (dropped) or escalates to a chargeback; it is not ${state}.`
        : 'A chargeback ends won, lost, accepted or expired; only an inquiry is closed.',
    );
  }
  entry.updated_at = now;
  if (!isTerminal(state)) {
    entry.dispute = { ...entry.dispute, state, phase };
    return { dispute: entry.dispute, events: [event('dispute.updated', entry.dispute)] };
  }
  entry.open = false;
  entry.dispute = {
    ...entry.dispute,
    state,
    phase,
    ...(state !== 'closed' ? { outcome: state } : {}),
    resolved_at: now,
  };
  // A lost (or accepted) dispute takes its amount out of what the items can still refund.
  if (state === 'lost' || state === 'accepted') takeFromItems(session.items, entry.dispute.amount, 'disputed');
  return { dispute: entry.dispute, events: [event('dispute.closed', entry.dispute)] };
}

/** The outcome of a chargeback: won, lost, accepted or expired (dispute.closed, once). */
export function resolveDispute(session: Session, disputeId: string, outcome: DisputeOutcome, now: string) {
  const entry = entryOf(session, disputeId);
  if (isInquiry(entry) && !isTerminal(String(entry.dispute.state))) {
    throw helperRefusal('InvalidState', 'An inquiry is not resolved: escalate it to a chargeback, or drop it.');
  }
  return syncDispute(session, disputeId, { state: outcome }, now);
}

/**
 * Evidence is submitted: the dispute goes under review (dispute.updated when that changes its
 * state), and dispute.evidence_submitted fires first, at each submission (the sandbox's choice).
 */
export function submitEvidence(session: Session, disputeId: string, now: string) {
  const entry = entryOf(session, disputeId);
  if (isTerminal(String(entry.dispute.state)))
    throw helperRefusal('InvalidState', `The dispute is already ${entry.dispute.state}; evidence is no longer taken.`);
  const synced = syncDispute(session, disputeId, { state: 'under_review' }, now);
  return { dispute: synced.dispute, events: [event('dispute.evidence_submitted', synced.dispute), ...synced.events] };
}

/** An inquiry escalates to a chargeback: it becomes visible again as one (dispute.created again). */
export function escalateInquiry(session: Session, disputeId: string, now: string) {
  const entry = entryOf(session, disputeId);
  if (!isInquiry(entry) || isTerminal(String(entry.dispute.state))) {
    throw helperRefusal('InvalidState', 'Only an open inquiry escalates to a chargeback.');
  }
  entry.kind = 'chargeback';
  entry.updated_at = now;
  entry.dispute = {
    ...entry.dispute,
    state: 'needs_response',
    phase: PHASE_OF.chargeback,
    due_by: new Date(Date.parse(now) + RESPONSE_WINDOW_MS).toISOString(),
  };
  return { dispute: entry.dispute, events: [event('dispute.created', entry.dispute)] };
}

/** The bank drops an inquiry: closed (dispute.closed). */
export function dropInquiry(session: Session, disputeId: string, now: string) {
  const entry = entryOf(session, disputeId);
  if (!isInquiry(entry)) throw helperRefusal('InvalidState', 'Only an inquiry is dropped; a chargeback is resolved.');
  return syncDispute(session, disputeId, { state: 'closed' }, now);
}

/**
 * Accept dispute (the contract's): the merchant concedes an open dispute, as an `accepted` outcome;
 * an open inquiry is accepted as the chargeback it would become, so it escalates first, with the
 * reference's dispute.created for the chargeback, then closes (dispute.closed). A dispute already
 * over stays as it is, silently: the contract gives accept no refusal.
 */
export function acceptDispute(session: Session, disputeId: string, now: string) {
  const entry = entryOf(session, disputeId);
  if (isTerminal(String(entry.dispute.state))) return { dispute: entry.dispute, events: [] };
  const escalated = isInquiry(entry) ? escalateInquiry(session, disputeId, now).events : [];
  const accepted = syncDispute(session, disputeId, { state: 'accepted' }, now);
  return { dispute: accepted.dispute, events: [...escalated, ...accepted.events] };
}

/** The /v1/disputes record of a dispute: the alternative listing's fields. */
export function disputeRecord(entry: SessionDispute, session: Session) {
  const { dispute } = entry;
  return {
    id: dispute.dispute_id,
    processor: dispute.processor,
    charge_id: session.id,
    amount: dispute.amount,
    currency: dispute.currency,
    reason: dispute.reason,
    state: String(dispute.state),
    due_by: dispute.due_by,
    created_at: dispute.created_at,
    updated_at: entry.updated_at ?? dispute.created_at,
  };
}
