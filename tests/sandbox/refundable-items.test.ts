// What each order item has left to refund: a refund's item_details name their items by item_id and
// refund them first, never more than they have left; a lost dispute takes its amount out of the items
// too, and the session it took money from stays Disputed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noCharges, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

const refund = (id: string, amount: number, extra = {}) =>
  s.post('/payments/v1/refund', {
    payment_id: id,
    amount,
    idempotency_key: `rf-${amount}-${Math.random()}`,
    reason: 'customer_request',
    ...extra,
  });

describe("a refund's item_details", () => {
  it('refunds the named items first, and refuses more than they have left', async () => {
    const id = await s.capturedOneTime();
    const thermometer = (await s.detail(id)).body.order_items[1].item_id;
    expect((await refund(id, 2501, { item_details: [{ item_id: thermometer }] })).body.error).toBe('AmountInvalid');
    expect((await refund(id, 1250, { item_details: [{ item_id: thermometer }] })).status).toBe(200);
    expect((await s.detail(id)).body.order_items.map((i: any) => i.total_refundable)).toEqual([4499, 1250]);
    expect((await refund(id, 10, { item_details: [{ item_id: 'nope' }] })).body.error).toBe('MissingField');
  });
});

describe("a refund's item_details name their item by item_id, optional in the contract (the entry shape is undocumented)", () => {
  it('an entry with a sku and no item_id answers MissingField, naming item_id', async () => {
    const id = await s.capturedOneTime();
    const reply = await s.post('/payments/v1/refund', {
      payment_id: id,
      amount: 100,
      idempotency_key: 'rf-sku',
      reason: 'customer_request',
      item_details: [{ sku: 'BPM-200', quantity: 1 }],
    });
    expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 400, error: 'MissingField' });
    expect(reply.body.message).toBe(
      "item_details[0] names no item_id: give the item_id of one of the payment's order_items.",
    );
  });

  it('an entry naming an order item by its item_id refunds it; one naming no item answers MissingField that says so', async () => {
    const id = await s.capturedOneTime();
    const ok = await s.post('/payments/v1/refund', {
      payment_id: id,
      amount: 100,
      idempotency_key: 'rf-item',
      reason: 'customer_request',
      item_details: [{ item_id: 'line-1', sku: 'BPM-200' }],
    });
    expect(ok.status).toBe(200);
    const unknown = await s.post('/payments/v1/refund', {
      payment_id: id,
      amount: 100,
      idempotency_key: 'rf-unknown',
      reason: 'customer_request',
      item_details: [{ item_id: 'BPM-200' }],
    });
    expect(unknown.body).toEqual({
      error: 'MissingField',
      message: expect.stringContaining('"BPM-200" names no order item of this payment'),
    });
  });
});

describe('lost disputes', () => {
  it('take their amount out of the items too, and a session a lost dispute took money from stays Disputed, refunded or not', async () => {
    const id = await s.authorized({
      total_amount: 1000,
      amount_details: noCharges,
      order_items: [
        { name: 'A', quantity: 1, price: 500, amount_details: noCharges },
        { name: 'B', quantity: 1, price: 500, amount_details: noCharges },
      ],
    });
    await s.post(`${s.session(id)}/capture`, { total_amount: 700 });
    const dispute = (await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, { amount: 200 })).body;
    await s.post(`/sandbox/v1/disputes/${dispute.dispute_id}/resolve`, { outcome: 'lost' });
    expect((await s.detail(id)).body.order_items.map((i: any) => i.total_refundable)).toEqual([300, 200]);
    await refund(id, 100);
    await refund(id, 400);
    const detail = (await s.detail(id)).body;
    expect(detail.order_items.map((i: any) => [i.total_refundable, i.quantity_refundable])).toEqual([
      [0, 0],
      [0, 0],
    ]);
    expect(detail.status_summary).toBe('Disputed');
  });
});
