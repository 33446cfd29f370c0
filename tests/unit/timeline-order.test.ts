// The timeline's amounts and its order (domain/timeline.ts): an amount is a whole, non-negative
// number of cents or none; the record's steps carry no state, dispute or webhook; times compare as
// instants, and a stray format compares as text, also where a page's span bounds the record.
import { describe, expect, it } from 'vitest';
import { eventEntry, recordEntries, timelinePage, type SessionEvent } from '../../src/sandbox/domain/timeline.js';
import type { Session } from '../../src/sandbox/domain/types.js';

const refund = (refund_id: string, created_at: string, amount = 100) => ({
  refund_id,
  idempotency_key: refund_id,
  amount,
  reason: 'customer_request',
  created_at,
});
const sessionAt = (created_at: string, refunds: ReturnType<typeof refund>[] = []) =>
  ({ id: 'ps_1', created_at, total_amount: 5000, refunds }) as unknown as Session;

let next = 0;
const event = (event_type: string, created_at: string, data: Record<string, unknown> = {}): SessionEvent => ({
  id: String(++next),
  event_type,
  webhook_delivery_id: `dlv_${next}`,
  created_at,
  delivered_at: null,
  data,
});
const at = '2026-11-20T10:00:00.000Z';

describe('timeline amounts', () => {
  it('keeps a whole, non-negative amount, zero included', () => {
    expect(eventEntry(event('dispute.created', at, { amount: 0 })).amount).toBe(0);
    expect(eventEntry(event('dispute.created', at, { amount: 1234 })).amount).toBe(1234);
    expect(eventEntry(event('payment_session_complete', at, { status: 'captured', capture_amount: 0 })).amount).toBe(0);
  });

  it.each([
    ['a negative amount', -5],
    ['a fraction of a cent', 1.5],
    ['a negative fraction', -0.5],
    ['an amount beyond safe integers', 2 ** 53],
    ['an amount as text', '100'],
    ['no amount', undefined],
  ])('gives no amount for %s', (_name, amount) => {
    expect(eventEntry(event('dispute.updated', at, { amount })).amount).toBeNull();
    expect(
      eventEntry(event('payment_session_complete', at, { status: 'captured', capture_amount: amount })).amount,
    ).toBeNull();
  });
});

describe('the record steps', () => {
  it('carry no state, dispute or webhook', () => {
    const entries = recordEntries(sessionAt(at, [refund('ref_1', '2026-11-20T11:00:00.000Z', 200)]));
    expect(entries).toEqual([
      { at, step: 'created', amount: 5000, refund_id: null, state: null, dispute_id: null, webhook: null },
      {
        at: '2026-11-20T11:00:00.000Z',
        step: 'refunded',
        amount: 200,
        refund_id: 'ref_1',
        state: null,
        dispute_id: null,
        webhook: null,
      },
    ]);
  });
});

describe('time order', () => {
  it('orders times as instants, not as they are spelled', () => {
    // As text, "10:00:00.500Z" sorts before "10:00:00Z"; as instants it is half a second later.
    const entries = recordEntries(
      sessionAt('2026-11-20T10:00:00.500Z', [
        refund('ref_1', '2026-11-20T10:00:00Z'),
        refund('ref_2', '2026-11-20T10:00:01Z'),
      ]),
    );
    expect(entries.map((e) => e.refund_id ?? e.step)).toEqual(['ref_1', 'created', 'ref_2']);
  });

  it('orders stray formats as text', () => {
    const entries = recordEntries(sessionAt('stray-b', [refund('ref_c', 'stray-c'), refund('ref_a', 'stray-a')]));
    expect(entries.map((e) => e.at)).toEqual(['stray-a', 'stray-b', 'stray-c']);
  });

  it('keeps steps at the same stray time in the order the record lists them', () => {
    const entries = recordEntries(
      sessionAt('stray-a', [refund('ref_1', 'stray-b'), refund('ref_2', 'stray-b'), refund('ref_3', 'stray-b')]),
    );
    expect(entries.map((e) => e.refund_id ?? e.step)).toEqual(['created', 'ref_1', 'ref_2', 'ref_3']);
  });

  it('compares a time with a stray format as text', () => {
    const session = sessionAt(at);
    // "2026-…" sorts before "stray" as text: the creation is within a page through it, and not after it.
    expect(timelinePage(session, [], { through: 'stray' }).map((e) => e.step)).toEqual(['created']);
    expect(timelinePage(session, [], { after: 'stray' })).toEqual([]);
    expect(timelinePage(session, [], { after: '0-stray' }).map((e) => e.step)).toEqual(['created']);
    // And the other way round: a step at a stray time against a well-formed bound.
    const stray = sessionAt('stray');
    expect(timelinePage(stray, [], { after: at }).map((e) => e.step)).toEqual(['created']);
    expect(timelinePage(stray, [], { through: at })).toEqual([]);
  });

  it('leaves a step at the stray time a page starts after to the page before', () => {
    const session = sessionAt('stray-a', [refund('ref_1', 'stray-b')]);
    expect(timelinePage(session, [], { after: 'stray-a' }).map((e) => e.refund_id)).toEqual(['ref_1']);
    expect(timelinePage(session, [], { through: 'stray-a' }).map((e) => e.step)).toEqual(['created']);
  });
});
