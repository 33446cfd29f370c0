// Disputes opened and resolved on a captured session (sandbox helpers), in the contract's
// canonical shape, with the webhook each move fires.
import { takeFromItems } from './allocation.js';
import { helperRefusal } from './errors.js';
import { refundable } from './refunds.js';
import type { Dispute, DomainEvent, Session } from './types.js';

export type DisputeOutcome = 'won' | 'lost' | 'accepted' | 'expired';

const RESPONSE_WINDOW_MS = 14 * 24 * 60 * 60 * 1000;

export function openDispute(session: Session, fields: { id: string; amount?: number; reason?: string; now: string }): { dispute: Dispute; events: DomainEvent[] } {
  if (session.status !== 'captured') throw helperRefusal('InvalidState', `Only a captured session can be disputed; this one is ${session.status}.`);
  // A dispute claims money the customer paid and still has with the merchant: the capture, less
  // refunds and lost disputes, less what the session's other open disputes already claim.
  const claimed = session.disputes.filter((d) => d.open).reduce((sum, d) => sum + d.dispute.amount, 0);
  const disputable = refundable(session) - claimed;
  if (disputable <= 0) throw helperRefusal('InvalidState', 'Nothing is left to dispute: refunds and other disputes already cover the capture.');
  const amount = fields.amount ?? disputable;
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > disputable) {
    throw helperRefusal('InvalidRequest', `amount must be between 1 and ${disputable}: the capture less refunds, lost disputes and open disputes.`);
  }
  const dispute: Dispute = {
    dispute_id: fields.id,
    processor_dispute_id: `sbx_${fields.id.slice(0, 8)}`,
    processor: 'SANDBOX',
    state: 'needs_response',
    phase: 'dispute',
    reason: fields.reason ?? 'fraudulent',
    network_reason_code: '10.4',
    amount,
    currency: 'USD',
    due_by: new Date(Date.parse(fields.now) + RESPONSE_WINDOW_MS).toISOString(),
    created_at: fields.now,
    counters: [],
    metadata: {},
    evidence_requirements: { merchant_explanation: 'Explain why the charge is valid.', compelling: [], supporting: [], other: [] },
    payment: { order_id: session.id },
  };
  session.disputes.push({ dispute, open: true });
  return { dispute, events: [{ event_type: 'dispute.created', data: dispute }] };
}

export function resolveDispute(session: Session, disputeId: string, outcome: DisputeOutcome, now: string): { dispute: Dispute; events: DomainEvent[] } {
  const entry = session.disputes.find((d) => d.dispute.dispute_id === disputeId);
  if (!entry) throw helperRefusal('InvalidState', `No dispute ${disputeId} on this session.`);
  if (!entry.open) throw helperRefusal('InvalidState', `The dispute is already resolved (${entry.dispute.state}).`);
  entry.open = false;
  entry.dispute = { ...entry.dispute, state: outcome, outcome, resolved_at: now };
  // A lost (or accepted) dispute takes its amount out of what the items can still refund.
  if (outcome === 'lost' || outcome === 'accepted') takeFromItems(session.items, entry.dispute.amount, 'disputed');
  // dispute.closed fires once; a re-sync of a terminal dispute does not re-fire.
  return { dispute: entry.dispute, events: [{ event_type: 'dispute.closed', data: entry.dispute }] };
}
