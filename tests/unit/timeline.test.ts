// A payment session's timeline (domain/timeline.ts): each webhook event named by what it reports,
// the record's own steps (creation, refunds) merged in time, and a page holding the record's steps
// of its own span only.
import { describe, expect, it } from 'vitest';
import { eventEntry, recordEntries, timelinePage, type SessionEvent } from '../../src/sandbox/domain/timeline.js';
import type { Session } from '../../src/sandbox/domain/types.js';

const session = {
  id: 'ps_1',
  created_at: '2026-11-20T10:00:00.000Z',
  total_amount: 5000,
  refunds: [
    {
      refund_id: 'ref_2',
      idempotency_key: 'b',
      amount: 300,
      reason: 'customer_request',
      created_at: '2026-11-20T12:00:00.000Z',
    },
    {
      refund_id: 'ref_1',
      idempotency_key: 'a',
      amount: 200,
      reason: 'customer_request',
      created_at: '2026-11-20T11:00:00.000Z',
    },
  ],
} as unknown as Session;

let next = 0;
const event = (event_type: string, created_at: string, data: Record<string, unknown> = {}): SessionEvent => ({
  id: String(++next),
  event_type,
  webhook_delivery_id: `dlv_${next}`,
  created_at,
  delivered_at: null,
  data,
});

describe('timeline entries', () => {
  it('names each payment_session_complete by the status it reports, with the capture as its amount', () => {
    const steps = [
      'processing',
      'pending',
      'authorized',
      'captured',
      'rejected',
      'canceled',
      'authorization_voided',
      'authorization_expired',
    ].map((status) =>
      eventEntry(event('payment_session_complete', session.created_at, { status, capture_amount: 4000 })),
    );
    expect(steps.map((s) => s.step)).toEqual([
      'checkout_completed',
      'checkout_ineligible',
      'authorized',
      'captured',
      'rejected',
      'canceled',
      'voided',
      'expired',
    ]);
    expect(steps.map((s) => s.amount)).toEqual([null, null, null, 4000, null, null, null, null]);
    expect(steps.map((s) => s.state)).toEqual([
      'processing',
      'pending',
      'authorized',
      'captured',
      'rejected',
      'canceled',
      'authorization_voided',
      'authorization_expired',
    ]);
  });

  it('names dispute events, with the disputed amount, the dispute and its state', () => {
    const entry = eventEntry(
      event('dispute.closed', session.created_at, { dispute_id: 'dp_1', state: 'lost', amount: 5000 }),
    );
    expect(entry).toMatchObject({ step: 'dispute_closed', dispute_id: 'dp_1', state: 'lost', amount: 5000 });
    expect(
      ['dispute.created', 'dispute.updated', 'dispute.evidence_submitted'].map(
        (type) => eventEntry(event(type, session.created_at)).step,
      ),
    ).toEqual(['dispute_opened', 'dispute_updated', 'dispute_evidence_submitted']);
  });

  it('keeps the webhook it fired, and calls an event or a status it does not know an event, as sent', () => {
    const fired = event('payment_session_complete', session.created_at, { status: 'added_later' });
    expect(eventEntry(fired)).toMatchObject({
      step: 'event',
      state: 'added_later',
      webhook: {
        event_id: fired.id,
        event_type: 'payment_session_complete',
        webhook_delivery_id: fired.webhook_delivery_id,
        delivered_at: null,
      },
    });
    expect(eventEntry(event('added_later', session.created_at)).step).toBe('event');
    expect(eventEntry(event('payment_token.updated', session.created_at)).step).toBe('token_issued');
  });

  it('gives the record its creation and its refunds in time order, without a webhook', () => {
    expect(recordEntries(session).map((e) => [e.step, e.amount, e.refund_id, e.webhook])).toEqual([
      ['created', 5000, null, null],
      ['refunded', 200, 'ref_1', null],
      ['refunded', 300, 'ref_2', null],
    ]);
  });
});

describe('a timeline page', () => {
  const authorized = event('payment_session_complete', '2026-11-20T10:00:00.000Z', { status: 'authorized' });
  const captured = event('payment_session_complete', '2026-11-20T11:00:00.000Z', {
    status: 'captured',
    capture_amount: 5000,
  });

  it('merges in time, the record first at the same instant', () => {
    expect(timelinePage(session, [authorized, captured], {}).map((e) => e.step)).toEqual([
      'created',
      'authorized',
      'refunded',
      'captured',
      'refunded',
    ]);
  });

  it('holds the record steps of its own span only, so that no step shows twice across pages', () => {
    const first = timelinePage(session, [authorized], { through: authorized.created_at });
    const second = timelinePage(session, [captured], { after: authorized.created_at });
    expect(first.map((e) => e.step)).toEqual(['created', 'authorized']);
    expect(second.map((e) => e.step)).toEqual(['refunded', 'captured', 'refunded']);
  });
});
