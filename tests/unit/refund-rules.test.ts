// Refunds called directly: what a refund refuses and the message that names why, the amounts it
// accepts, and item_details that name the items a refund is taken from.
import { describe, expect, it } from 'vitest';
import { openDispute } from '../../src/sandbox/domain/disputes.js';
import { refund, type RefundRequest } from '../../src/sandbox/domain/refunds.js';
import type { Session } from '../../src/sandbox/domain/types.js';
import { sessionItems } from '../../src/sandbox/domain/views.js';
import { at, capturedSession, pendingSession } from '../support/domain-sessions.js';
import { thrown } from '../support/thrown.js';

const request = (amount: number, more: Partial<RefundRequest> = {}): RefundRequest => ({
  amount,
  idempotency_key: `rk-${amount}`,
  reason: 'requested_by_customer' as RefundRequest['reason'],
  ...more,
});
const run = (session: Session, req: RefundRequest) => refund(session, req, at(5), () => 'r1');

function refusal(go: () => unknown) {
  const error = thrown(go) as { code?: string; message?: string };
  return { code: error.code, message: error.message };
}

describe('what a refund refuses', () => {
  it('a payment with nothing captured', () => {
    expect(refusal(() => run(pendingSession(), request(100)))).toEqual({
      code: 'NoSessionCaptures',
      message: 'Nothing has been captured on this payment yet.',
    });
  });

  it('a payment with a pending dispute', () => {
    const session = capturedSession();
    openDispute(session, { id: 'dp-1', now: at(3) });
    expect(refusal(() => run(session, request(100)))).toEqual({
      code: 'ChargeDisputed',
      message: 'A pending dispute blocks refunds until it is resolved.',
    });
  });

  it('an amount of 0 or less, or more than remains, naming what remains', () => {
    for (const amount of [0, -100, 7800, 1.5]) {
      expect(refusal(() => run(capturedSession(), request(amount)))).toEqual({
        code: 'AmountInvalid',
        message: `amount must be greater than 0 and at most the remaining refundable amount, 7799; got ${amount}.`,
      });
    }
  });

  it('item_details naming an item the payment does not have, by its position', () => {
    expect(
      refusal(() =>
        run(capturedSession(), request(100, { item_details: [{ item_id: 'line-1' }, { item_id: 'nope' }] })),
      ),
    ).toEqual({
      code: 'MissingField',
      message:
        'item_details[1].item_id "nope" names no order item of this payment: give the item_id of one of its order_items.',
    });
  });

  it('more than the named items have left, naming what they have', () => {
    const session = capturedSession();
    const left = sessionItems(session)[0]!.total_refundable!;
    expect(refusal(() => run(session, request(left + 1, { item_details: [{ item_id: 'line-1' }] })))).toEqual({
      code: 'AmountInvalid',
      message: `amount ${left + 1} is more than the items named in item_details have left to refund, ${left}.`,
    });
  });
});

describe('what a refund accepts', () => {
  it('exactly what the first named item has left, taken from it', () => {
    const session = capturedSession();
    const left = sessionItems(session)[0]!.total_refundable!;
    expect(run(session, request(left, { item_details: [{ item_id: 'line-1' }] }))).toMatchObject({
      refund_id: 'rf_r1',
      amount: left,
    });
    expect(sessionItems(session)[0]!.total_refundable).toBe(0);
  });

  it('the whole remaining amount', () => {
    expect(run(capturedSession(), request(7799))).toMatchObject({ amount: 7799 });
  });
});
