// The dispute state machine called directly: what each move refuses and the message that names
// why, the amounts a new dispute may claim, what an escalation and a closing write on the dispute,
// and older documents whose disputes carry no kind (chargebacks).
import { describe, expect, it } from 'vitest';
import {
  acceptDispute,
  dropInquiry,
  escalateInquiry,
  openDispute,
  resolveDispute,
  submitEvidence,
  syncDispute,
} from '../../src/sandbox/domain/disputes.js';
import type { Session } from '../../src/sandbox/domain/types.js';
import { sessionItems } from '../../src/sandbox/domain/views.js';
import { at, capturedSession, pendingSession } from '../support/domain-sessions.js';
import { thrown } from '../support/thrown.js';

const FOURTEEN_DAYS_MS = 14 * 24 * 60 * 60 * 1000;

/** The refusal's code and message, as a helper's 400 answers them. */
function refusal(run: () => unknown) {
  const error = thrown(run) as { code?: string; message?: string };
  return { code: error.code, message: error.message };
}

const refundableOfItems = (session: Session) =>
  sessionItems(session).reduce((sum, item) => sum + item.total_refundable!, 0);

describe('opening a dispute', () => {
  it('refuses a session that is not captured, naming its status', () => {
    expect(refusal(() => openDispute(pendingSession(), { id: 'dp-1', now: at(3) }))).toEqual({
      code: 'InvalidState',
      message: 'Only a captured session can be disputed; this one is pending.',
    });
  });

  it('refuses a chargeback already closed when first seen: only an inquiry can be', () => {
    const session = capturedSession();
    for (const kind of [undefined, 'chargeback' as const]) {
      expect(
        refusal(() => openDispute(session, { id: 'dp-1', now: at(3), alreadyClosed: true, ...(kind ? { kind } : {}) })),
      ).toEqual({
        code: 'InvalidRequest',
        message: 'Only an inquiry can be closed before it is first seen.',
      });
    }
    expect(session.disputes).toEqual([]);
  });

  it('an inquiry already closed when first seen is resolved at that moment, and fires nothing', () => {
    const session = capturedSession();
    const { dispute, events } = openDispute(session, { id: 'dp-1', kind: 'inquiry', now: at(3), alreadyClosed: true });
    expect(dispute).toMatchObject({ state: 'closed', phase: 'inquiry', resolved_at: at(3) });
    expect(dispute).not.toHaveProperty('outcome');
    expect(events).toEqual([]);
  });

  it('claims at least 1 cent and at most what is left, naming the bounds when refused', () => {
    const message = 'amount must be between 1 and 7799: the capture less refunds, lost disputes and open disputes.';
    for (const amount of [0, -5, 1.5, 7800, Number.NaN]) {
      const session = capturedSession();
      expect({ amount, refused: refusal(() => openDispute(session, { id: 'dp-1', amount, now: at(3) })) }).toEqual({
        amount,
        refused: { code: 'InvalidRequest', message },
      });
      expect(session.disputes).toEqual([]);
    }
    for (const amount of [1, 2, 7799]) {
      expect(openDispute(capturedSession(), { id: 'dp-1', amount, now: at(3) }).dispute.amount).toBe(amount);
    }
  });

  it('refuses a dispute when open disputes already claim the whole capture, saying so', () => {
    const session = capturedSession();
    openDispute(session, { id: 'dp-1', now: at(3) });
    expect(refusal(() => openDispute(session, { id: 'dp-2', amount: 1, now: at(4) }))).toEqual({
      code: 'InvalidState',
      message: 'Nothing is left to dispute: refunds and other disputes already cover the capture.',
    });
  });
});

describe('moving a dispute', () => {
  it('names the dispute a move cannot find', () => {
    const session = capturedSession();
    for (const move of [
      () => syncDispute(session, 'dp-none', { state: 'under_review' }, at(5)),
      () => submitEvidence(session, 'dp-none', at(5)),
      () => escalateInquiry(session, 'dp-none', at(5)),
      () => dropInquiry(session, 'dp-none', at(5)),
      () => acceptDispute(session, 'dp-none', at(5)),
    ])
      expect(refusal(move)).toEqual({ code: 'InvalidState', message: 'No dispute dp-none on this session.' });
  });

  it('a terminal dispute re-synced with another phase is refused, not silently kept', () => {
    const session = capturedSession();
    openDispute(session, { id: 'dp-1', now: at(3) });
    resolveDispute(session, 'dp-1', 'won', at(4));
    expect(refusal(() => syncDispute(session, 'dp-1', { phase: 'pre_arbitration' }, at(5)))).toEqual({
      code: 'InvalidState',
      message: 'The dispute is already won; a terminal dispute does not change.',
    });
    expect(syncDispute(session, 'dp-1', { state: 'won', phase: 'dispute' }, at(6)).events).toEqual([]);
  });

  it('an inquiry synced to a new state in its own phase is updated, not escalated', () => {
    const session = capturedSession();
    openDispute(session, { id: 'dp-1', kind: 'inquiry', now: at(3) });
    const { dispute, events } = syncDispute(session, 'dp-1', { state: 'under_review' }, at(4));
    expect(dispute).toMatchObject({ state: 'under_review', phase: 'inquiry' });
    expect(events.map((e) => e.event_type)).toEqual(['dispute.updated']);
    expect(session.disputes[0]).toMatchObject({ kind: 'inquiry', open: true });
  });

  it('an outcome for an inquiry, and closed for a chargeback, are refused with the rule that forbids each', () => {
    const session = capturedSession();
    openDispute(session, { id: 'dp-inquiry', kind: 'inquiry', amount: 100, now: at(3) });
    openDispute(session, { id: 'dp-chargeback', amount: 100, now: at(3) });
    expect(refusal(() => syncDispute(session, 'dp-inquiry', { state: 'lost' }, at(4)))).toEqual({
      code: 'InvalidState',
      message: 'An inquiry ends closed (dropped) or escalates to a chargeback; it is not lost.',
    });
    expect(refusal(() => syncDispute(session, 'dp-chargeback', { state: 'closed' }, at(4)))).toEqual({
      code: 'InvalidState',
      message: 'A chargeback ends won, lost, accepted or expired; only an inquiry is closed.',
    });
  });

  it('an accepted dispute takes its amount from what the items can still refund, as a lost one does', () => {
    // The items hold 6999 of the 7799 captured; the other 800 are the session's own charges.
    for (const state of ['accepted', 'lost']) {
      const session = capturedSession();
      openDispute(session, { id: 'dp-1', amount: 2000, now: at(3) });
      syncDispute(session, 'dp-1', { state }, at(4));
      expect({ state, left: refundableOfItems(session) }).toEqual({ state, left: 6999 - 2000 });
    }
    const won = capturedSession();
    openDispute(won, { id: 'dp-1', amount: 2000, now: at(3) });
    syncDispute(won, 'dp-1', { state: 'won' }, at(4));
    expect(refundableOfItems(won)).toBe(6999);
  });

  it('resolve refuses an open inquiry, saying how an inquiry ends instead', () => {
    const session = capturedSession();
    openDispute(session, { id: 'dp-1', kind: 'inquiry', now: at(3) });
    for (const outcome of ['won', 'lost', 'accepted', 'expired'] as const) {
      expect(refusal(() => resolveDispute(session, 'dp-1', outcome, at(4)))).toEqual({
        code: 'InvalidState',
        message: 'An inquiry is not resolved: escalate it to a chargeback, or drop it.',
      });
    }
    expect(session.disputes[0]!.dispute.state).toBe('needs_response');
  });

  it('evidence for a terminal dispute is refused: it is no longer taken', () => {
    const session = capturedSession();
    openDispute(session, { id: 'dp-1', now: at(3) });
    resolveDispute(session, 'dp-1', 'expired', at(4));
    expect(refusal(() => submitEvidence(session, 'dp-1', at(5)))).toEqual({
      code: 'InvalidState',
      message: 'The dispute is already expired; evidence is no longer taken.',
    });
  });

  it('only an open inquiry escalates, and its new response window is 14 days from the escalation', () => {
    const session = capturedSession();
    openDispute(session, { id: 'dp-chargeback', amount: 100, now: at(3) });
    openDispute(session, { id: 'dp-inquiry', kind: 'inquiry', amount: 100, now: at(3) });
    expect(refusal(() => escalateInquiry(session, 'dp-chargeback', at(4)))).toEqual({
      code: 'InvalidState',
      message: 'Only an open inquiry escalates to a chargeback.',
    });
    const { dispute } = escalateInquiry(session, 'dp-inquiry', at(10));
    expect(dispute).toMatchObject({
      state: 'needs_response',
      phase: 'dispute',
      due_by: new Date(Date.parse(at(10)) + FOURTEEN_DAYS_MS).toISOString(),
    });
  });

  it('drop refuses a chargeback: a chargeback is resolved instead', () => {
    const session = capturedSession();
    openDispute(session, { id: 'dp-1', now: at(3) });
    expect(refusal(() => dropInquiry(session, 'dp-1', at(4)))).toEqual({
      code: 'InvalidState',
      message: 'Only an inquiry is dropped; a chargeback is resolved.',
    });
    expect(session.disputes[0]!.dispute.state).toBe('needs_response');
  });
});

describe('a dispute stored without a kind (an older document)', () => {
  /** A captured session with an open dispute whose entry predates kinds. */
  function withLegacyDispute(): Session {
    const session = capturedSession();
    openDispute(session, { id: 'dp-1', amount: 1000, now: at(3) });
    delete session.disputes[0]!.kind;
    return session;
  }

  it('is a chargeback: resolved with an outcome, never dropped, closed or escalated', () => {
    const session = withLegacyDispute();
    expect(refusal(() => dropInquiry(session, 'dp-1', at(4))).code).toBe('InvalidState');
    expect(refusal(() => escalateInquiry(session, 'dp-1', at(4))).code).toBe('InvalidState');
    expect(refusal(() => syncDispute(session, 'dp-1', { state: 'closed' }, at(4))).message).toBe(
      'A chargeback ends won, lost, accepted or expired; only an inquiry is closed.',
    );
    const { dispute, events } = resolveDispute(session, 'dp-1', 'lost', at(5));
    expect(dispute).toMatchObject({ state: 'lost', outcome: 'lost' });
    expect(events.map((e) => e.event_type)).toEqual(['dispute.closed']);
  });

  it('is accepted without an escalation', () => {
    const session = withLegacyDispute();
    expect(acceptDispute(session, 'dp-1', at(4)).events.map((e) => e.event_type)).toEqual(['dispute.closed']);
  });
});
