// How a session is shown, called directly: status_summary of a free trial, the refundable units of
// items that carry no money of their own, the optional fields present exactly when they apply
// (never as a key holding undefined), the capture failure's details, authorized_on by kind, and
// which list flags leave the default item.
import { describe, expect, it } from 'vitest';
import { newSession } from '../../src/sandbox/domain/create-session.js';
import { openDispute, resolveDispute } from '../../src/sandbox/domain/disputes.js';
import { refund } from '../../src/sandbox/domain/refunds.js';
import { capture, completeCheckout, HOLD_VALIDITY_MS, review } from '../../src/sandbox/domain/sessions.js';
import type { CreateSessionRequest, Session } from '../../src/sandbox/domain/types.js';
import {
  amountFields,
  hasDefaultListFlags,
  sessionItems,
  statusSummary,
  toDetail,
  toListItem,
} from '../../src/sandbox/domain/views.js';
import { noCharges, sessionRequest } from '../../testkit/sandbox.js';

const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 12, minute)).toISOString();
const SESSION_ID = 'c0ffee00-1111-4222-8333-444455556666';

function pendingSession(overrides: Record<string, unknown> = {}, fields: { userBusinessId?: string } = {}): Session {
  let n = 0;
  return newSession({
    id: SESSION_ID,
    channel: 'dev',
    request: sessionRequest(overrides) as CreateSessionRequest,
    now: at(0),
    newId: () => `item${++n}`,
    ...fields,
  });
}

function capturedOneTime(overrides: Record<string, unknown> = {}): Session {
  const session = pendingSession(overrides);
  completeCheckout(session, at(1));
  review(session, 'accept', at(2));
  return session;
}

function authorized(overrides: Record<string, unknown> = {}): Session {
  const session = pendingSession({ kind: 'authorization', ...overrides });
  completeCheckout(session, at(1));
  return session;
}

/** A free trial: nothing to pay now, one item whose discount takes its whole price. */
const freeTrial = {
  total_amount: 0,
  amount_details: noCharges,
  order_items: [
    {
      name: 'Trial kit',
      sku: 'TRIAL-1',
      item_id: 'trial',
      quantity: 1,
      price: 500,
      amount_details: { total_additional_charges: 0, total_discounts: -500 },
    },
  ],
};

describe('status_summary', () => {
  it('a captured free trial is Captured: nothing was refunded or lost, though nothing is left to refund', () => {
    const session = capturedOneTime(freeTrial);
    expect({ status: session.status, capture_amount: session.capture_amount }).toEqual({
      status: 'captured',
      capture_amount: 0,
    });
    expect(statusSummary(session)).toBe('Captured');
  });

  // sessionRequest() captures 7799.
  const refunded = (session: Session, amount: number) => {
    refund(
      session,
      { amount, idempotency_key: `rf-${amount}`, reason: 'customer_request' },
      at(3),
      () => `rf${amount}`,
    );
    return session;
  };
  const disputed = (session: Session, outcome: 'won' | 'lost' | 'accepted' | undefined, amount?: number) => {
    openDispute(session, { id: 'dp1', now: at(4), ...(amount !== undefined ? { amount } : {}) });
    if (outcome) resolveDispute(session, 'dp1', outcome, at(5));
    return session;
  };

  it.each([
    ['an open dispute', 'Disputed', (s: Session) => disputed(s, undefined)],
    ['a dispute lost on the whole amount', 'Disputed', (s: Session) => disputed(s, 'lost')],
    ['a chargeback accepted on the whole amount, no refund', 'Disputed', (s: Session) => disputed(s, 'accepted')],
    ['a dispute lost on part, beside a refund', 'Disputed', (s: Session) => disputed(refunded(s, 799), 'lost', 1000)],
    ['a dispute won', 'Captured', (s: Session) => disputed(s, 'won')],
    [
      'a dispute won, beside a partial refund',
      'Partially Refunded',
      (s: Session) => disputed(refunded(s, 799), 'won', 1000),
    ],
    ['refunds of the whole amount', 'Refunded', (s: Session) => refunded(s, 7799)],
    ['a partial refund', 'Partially Refunded', (s: Session) => refunded(s, 1)],
  ] as const)('a captured session with %s is %s', (_name, expected, change) => {
    expect(statusSummary(change(capturedOneTime()))).toBe(expected);
  });
});

describe('the order items of a captured session', () => {
  it('an item whose discount takes its whole price has no unit to refund', () => {
    const [item] = sessionItems(capturedOneTime(freeTrial));
    expect(item).toStrictEqual({
      item_id: 'trial',
      name: 'Trial kit',
      sku: 'TRIAL-1',
      price: 500,
      quantity: 1,
      total_refundable: 0,
      quantity_refundable: 0,
    });
  });

  it('an item whose discounts exceed its price captured nothing, so has no unit to refund', () => {
    const session = capturedOneTime({
      total_amount: 1800,
      amount_details: noCharges,
      order_items: [
        {
          name: 'Bundle gift',
          item_id: 'gift',
          quantity: 2,
          price: 300,
          amount_details: { total_additional_charges: 0, total_discounts: -700 },
        },
        { name: 'Monitor', item_id: 'monitor', quantity: 1, price: 1900, amount_details: noCharges },
      ],
    });
    expect(
      sessionItems(session).map((item) => [item.item_id, item.total_refundable, item.quantity_refundable]),
    ).toEqual([
      ['gift', 0, 0],
      ['monitor', 1800, 1],
    ]);
  });

  it('an item given without a sku has no sku key at all', () => {
    const session = capturedOneTime({
      order_items: [{ name: 'Gauze', item_id: 'gauze', quantity: 3, price: 233, amount_details: noCharges }],
      total_amount: 699,
      amount_details: noCharges,
    });
    expect(sessionItems(session)).toStrictEqual([
      { item_id: 'gauze', name: 'Gauze', price: 233, quantity: 3, total_refundable: 699, quantity_refundable: 3 },
    ]);
  });
});

describe('the detail record', () => {
  it('a pending session without a customer id or metadata carries no such keys, and no capture amounts or captured_on', () => {
    const session = pendingSession({ kind: 'authorization' });
    delete session.request.metadata;
    const detail = toDetail(session);
    expect(Object.keys(detail).sort()).toEqual([
      'capture_failed_amount_collected',
      'capture_failed_details',
      'capture_failed_on',
      'created_at',
      'id',
      'kind',
      'order_items',
      'service_fee',
      'status',
      'status_summary',
      'total_amount',
    ]);
  });

  it('an authorization carries authorize_amount once the hold is placed, and no capture_amount until captured', () => {
    expect(amountFields(authorized())).toStrictEqual({ authorize_amount: 7799 });
  });

  it('a capture that failed on an expired hold says so, with when', () => {
    const session = authorized();
    const late = new Date(Date.parse(at(1)) + HOLD_VALIDITY_MS + 60_000).toISOString();
    capture(session, 7799, undefined, late, () => 'cap-1');
    expect(toDetail(session)).toMatchObject({
      status: 'authorization_expired',
      status_summary: 'Expired',
      capture_failed_on: late,
      capture_failed_details: 'The hold expired and re-authorization failed.',
      capture_failed_amount_collected: null,
    });
  });
});

describe('the list item', () => {
  it('authorized_on of an authorization is when its hold was placed, before and after its capture', () => {
    const session = authorized();
    expect(toListItem(session, {}).authorized_on).toBe(at(1));
    capture(session, 5000, undefined, at(30), () => 'cap-1');
    expect(toListItem(session, {})).toMatchObject({ authorized_on: at(1), captured_on: at(30) });
  });

  it('a one-time payment not yet captured has no authorized_on key; include_metadata adds no metadata key when there is none', () => {
    const session = pendingSession();
    delete session.request.metadata;
    completeCheckout(session, at(1));
    const item = toListItem(session, { include_metadata: true });
    expect(Object.keys(item)).not.toContain('authorized_on');
    expect(Object.keys(item)).not.toContain('metadata');
  });
});

describe('the default list flags', () => {
  it('hold for no flags, and for refunds and disputes asked for explicitly', () => {
    expect(hasDefaultListFlags({})).toBe(true);
    expect(hasDefaultListFlags({ include_refunds: true, include_disputes: true })).toBe(true);
  });

  it('do not hold once any flag adds to or takes from the default item', () => {
    for (const flags of [
      { include_metadata: true },
      { include_order_items: true },
      { summarize_refunds: true },
      { include_service_fee: true },
      { include_refunds: false },
      { include_disputes: false },
    ])
      expect({ flags, default: hasDefaultListFlags(flags) }).toEqual({ flags, default: false });
  });
});
