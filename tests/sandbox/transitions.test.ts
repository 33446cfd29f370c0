// Every transition of the session-status table, with the error codes of capture, void, cancel and
// refund, the webhooks each move queues, and status_summary.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noCharges, OTHER_KEY, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

const HOLD_SECONDS = 6.95 * 24 * 60 * 60;
const capture = (id: string, body: unknown) => s.post(`${s.session(id)}/capture`, body);
const voidHold = (id: string, body: unknown = {}) => s.post(`${s.session(id)}/void`, body);
const cancel = (id: string) => s.post(`${s.session(id)}/cancel`, {});
const refund = (id: string, amount: number, key = `rf-${amount}-${Math.random()}`, extra = {}) =>
  s.post('/payments/v1/refund', { payment_id: id, amount, idempotency_key: key, reason: 'customer_request', ...extra });
const completions = async (id: string) =>
  (await s.outbox('payment_session_complete'))
    .filter((e) => e.payload.data.payment_id === id)
    .map((e) => e.payload.data.status);
const expectError = (reply: { status: number; body: any }, status: number, error: string) =>
  expect({ status: reply.status, error: reply.body.error }).toEqual({ status, error });

describe('one_time_payment', () => {
  it('pending → processing → captured, with payment_session_complete at the end of the flow and at the capture', async () => {
    const id = await s.createSession();
    expect((await s.detail(id)).body).toMatchObject({ status: 'pending', capture_amount: 0, authorize_amount: 0 });
    expect((await s.complete(id)).body.status).toBe('processing');
    expect((await s.detail(id)).body).toMatchObject({
      status: 'processing',
      status_summary: 'Incomplete',
      capture_amount: 0,
      authorize_amount: 0,
    });
    expect(await completions(id)).toEqual(['processing']);
    expect((await s.review(id, 'accept')).body.status).toBe('captured');
    const detail = (await s.detail(id)).body;
    expect(detail).toMatchObject({
      status: 'captured',
      status_summary: 'Captured',
      capture_amount: 7799,
      metadata: '{"order_id":"A-1001"}',
    });
    expect(detail.order_items[0]).toMatchObject({ total_refundable: 4499, quantity_refundable: 1 });
    expect(detail.order_items[0].total_capturable).toBeUndefined();
    expect(detail.authorize_amount).toBe(7799);
    const [, event] = (await s.outbox('payment_session_complete')).map((e) => e.payload);
    expect(event).toMatchObject({
      event_type: 'payment_session_complete',
      webhook_delivery_id: expect.stringMatching(/^dlv_/),
      data: { payment_id: id, status: 'captured', capture_amount: 7799, metadata: '{"order_id":"A-1001"}' },
    });
  });

  it('processing → rejected when the review declines, with a webhook', async () => {
    const id = await s.createSession();
    await s.complete(id);
    expect((await s.review(id, 'decline')).body.status).toBe('rejected');
    expect(await completions(id)).toEqual(['processing', 'rejected']);
    expect((await s.detail(id)).body).toMatchObject({ capture_amount: 0, authorize_amount: 0 });
  });

  it('stays pending when the survey finds the customer ineligible, and reports the end of the flow', async () => {
    const id = await s.createSession();
    expect((await s.complete(id, false)).body.status).toBe('pending');
    expect(await completions(id)).toEqual(['pending']);
  });

  it('capture and void answer ImmediateCapture', async () => {
    const id = await s.capturedOneTime();
    expectError(await capture(id, { total_amount: 100 }), 400, 'ImmediateCapture');
    expectError(await voidHold(id), 400, 'ImmediateCapture');
  });
});

describe('authorization', () => {
  it('pending → authorized: the hold, with capturable amounts and a webhook', async () => {
    const id = await s.authorized();
    const detail = (await s.detail(id)).body;
    expect(detail).toMatchObject({ status: 'authorized', status_summary: 'Authorized' });
    expect(detail.capture_amount).toBeUndefined();
    expect(detail.order_items[1]).toMatchObject({ total_capturable: 2500, quantity_capturable: 2 });
    expect(detail.order_items[1].total_refundable).toBeUndefined();
    expect(await completions(id)).toEqual(['authorized']);
  });

  it('authorized → captured, in part: Partially Captured, refundable up to the capture', async () => {
    const id = await s.authorized();
    const { body } = await capture(id, { total_amount: 5000, idempotency_key: 'cap-1' });
    expect(body.id).toMatch(/^cap_/);
    const detail = (await s.detail(id)).body;
    expect(detail).toMatchObject({ status: 'captured', status_summary: 'Partially Captured', capture_amount: 5000 });
    expect(detail.order_items.map((i: any) => i.total_refundable)).toEqual([4499, 501]);
    expect(await completions(id)).toEqual(['authorized', 'captured']);
  });

  it('is idempotent per key: the same key returns the same capture id, never SessionCaptured', async () => {
    const id = await s.authorized();
    const first = await capture(id, { total_amount: 5000, idempotency_key: 'cap-1' });
    const again = await capture(id, { total_amount: 5000, idempotency_key: 'cap-1' });
    expect(again.body).toEqual(first.body);
    expectError(await capture(id, { total_amount: 100, idempotency_key: 'cap-2' }), 400, 'SessionCaptured');
    expectError(await capture(id, { total_amount: 100 }), 400, 'SessionCaptured');
    expect(await completions(id)).toEqual(['authorized', 'captured']);
  });

  it('authorized → authorization_voided, idempotent per key', async () => {
    const id = await s.authorized();
    const first = await voidHold(id, { idempotency_key: 'void-1' });
    expect(first.body.id).toMatch(/^void_/);
    expect((await voidHold(id, { idempotency_key: 'void-1' })).body).toEqual(first.body);
    expect((await voidHold(id)).body).toEqual(first.body);
    expect((await s.detail(id)).body).toMatchObject({ status: 'authorization_voided', status_summary: 'Voided' });
    expect(await completions(id)).toEqual(['authorized', 'authorization_voided']);
    expectError(await capture(id, { total_amount: 100 }), 400, 'SessionVoided');
  });

  it('authorized → authorization_expired on a capture after 6.95 days (re-authorization fails)', async () => {
    const id = await s.authorized();
    await s.post('/sandbox/v1/clock/advance', { seconds: Math.ceil(HOLD_SECONDS) - 60 });
    const stillValid = await s.authorized();
    await s.post('/sandbox/v1/clock/advance', { seconds: 120 });
    expectError(await capture(id, { total_amount: 100, idempotency_key: 'late' }), 400, 'SessionExpired');
    const detail = (await s.detail(id)).body;
    expect(detail).toMatchObject({
      status: 'authorization_expired',
      status_summary: 'Expired',
      capture_failed_details: expect.any(String),
    });
    expect(detail.capture_failed_on).not.toBeNull();
    expect(await completions(id)).toEqual(['authorized', 'authorization_expired']);
    expectError(await capture(id, { total_amount: 100 }), 400, 'SessionExpired');
    expect((await capture(stillValid, { total_amount: 100 })).status).toBe(200);
  });

  it('capture answers TotalAmountInvalid above the original total, at 0 and below', async () => {
    const id = await s.authorized();
    for (const amount of [7800, 0, -1])
      expectError(await capture(id, { total_amount: amount }), 400, 'TotalAmountInvalid');
    expect((await capture(id, { total_amount: 7799 })).status).toBe(200);
  });

  it('a capture or void refused before anything is attempted queues no payment_session_complete (the sandbox\'s reading of "success or failure")', async () => {
    const id = await s.authorized();
    for (const amount of [7800, 0]) expectError(await capture(id, { total_amount: amount }), 400, 'TotalAmountInvalid');
    expectError(await capture(id, { idempotency_key: 'k' }), 400, 'MissingField');
    expect(await completions(id)).toEqual(['authorized']);
    expect((await capture(id, { total_amount: 7799 })).status).toBe(200);
    expectError(await capture(id, { total_amount: 100, idempotency_key: 'another' }), 400, 'SessionCaptured');
    expectError(await voidHold(id), 400, 'SessionCaptured');
    expect(await completions(id)).toEqual(['authorized', 'captured']);
  });

  it('capture answers SessionPending before checkout, MissingField without an amount, PaymentSessionDoesNotExist for an unknown id', async () => {
    const id = await s.createSession({ kind: 'authorization' });
    expectError(await capture(id, { total_amount: 100 }), 400, 'SessionPending');
    expectError(await capture(id, { idempotency_key: 'k' }), 400, 'MissingField');
    expectError(
      await capture('00000000-0000-4000-8000-000000000000', { total_amount: 100 }),
      400,
      'PaymentSessionDoesNotExist',
    );
  });

  it('void answers SessionPending before checkout, SessionCaptured after a capture, and the other codes', async () => {
    const pending = await s.createSession({ kind: 'authorization' });
    expectError(await voidHold(pending), 400, 'SessionPending');
    const captured = await s.authorized();
    await capture(captured, { total_amount: 100 });
    expectError(await voidHold(captured), 400, 'SessionCaptured');
    expectError(await voidHold('00000000-0000-4000-8000-000000000000'), 400, 'PaymentSessionDoesNotExist');
    expectError(await s.post('/payments/v1/payment_session/%20/void', {}), 400, 'PaymentSessionDoesNotExist');
    expectError(await voidHold(pending, { idempotency_key: 5 }), 400, 'MissingField');
  });

  it('capture and void of a canceled authorization answer SessionPending (no hold was ever placed) and change nothing', async () => {
    const id = await s.createSession({ kind: 'authorization' });
    await cancel(id);
    const captured = await capture(id, { total_amount: 100, idempotency_key: 'cap-canceled' });
    expect({ status: captured.status, body: captured.body }).toEqual({
      status: 400,
      body: { error: 'SessionPending', message: 'The customer has not finished checkout: no hold exists yet.' },
    });
    const voided = await voidHold(id, { idempotency_key: 'void-canceled' });
    expect({ status: voided.status, body: voided.body }).toEqual({
      status: 400,
      body: { error: 'SessionPending', message: 'No hold exists yet.' },
    });
    expect((await s.detail(id)).body.status).toBe('canceled');
    expect(await completions(id)).toEqual(['canceled']);
  });

  it('a void of an expired hold answers a void id and changes nothing', async () => {
    const id = await s.authorized();
    await s.post('/sandbox/v1/clock/advance', { seconds: Math.ceil(HOLD_SECONDS) + 1 });
    await capture(id, { total_amount: 100 });
    expect((await voidHold(id)).body.id).toMatch(/^void_/);
    expect((await s.detail(id)).body.status).toBe('authorization_expired');
  });
});

describe('capturable amounts', () => {
  it('an item whose discount exceeds its price has 0 to capture, never a negative amount', async () => {
    // Session-level charges (+300) balance an item's discount (−300) that is larger than its price.
    const id = await s.authorized({
      total_amount: 1100,
      amount_details: { total_additional_charges: 300, total_discounts: 0 },
      order_items: [
        {
          name: 'Sample',
          quantity: 1,
          price: 100,
          amount_details: { total_additional_charges: 0, total_discounts: -300 },
        },
        { name: 'Monitor', quantity: 1, price: 1000, amount_details: noCharges },
      ],
    });
    const items = (await s.detail(id)).body.order_items;
    expect(items.map((i: any) => [i.total_capturable, i.quantity_capturable])).toEqual([
      [0, 1],
      [1000, 1],
    ]);
  });
});

describe('amounts on the detail record', () => {
  it('an authorization carries authorize_amount once the hold is placed, capture_amount once captured', async () => {
    const id = await s.createSession({ kind: 'authorization' });
    expect((await s.detail(id)).body.authorize_amount).toBeUndefined();
    await s.complete(id);
    const held = (await s.detail(id)).body;
    expect(held).toMatchObject({ authorize_amount: 7799, service_fee: '0.00' });
    expect(held.capture_amount).toBeUndefined();
  });

  it('a one-time payment lists authorized_on only with captured_on, and equal to it', async () => {
    const processing = await s.createSession();
    await s.complete(processing);
    const captured = await s.capturedOneTime();
    const items = (await s.get('/payments/v1/payment_sessions')).body.payment_sessions as Array<
      Record<string, unknown>
    >;
    const byId = Object.fromEntries(items.map((i) => [i.id, i]));
    expect(byId[processing]!.authorized_on).toBeUndefined();
    expect(byId[captured]!.authorized_on).toBe(byId[captured]!.captured_on);
    expect(byId[captured]!.service_fee).toBeUndefined();
  });
});

describe('cancel', () => {
  it('pending → canceled, repeatable, with exactly one payment_session_complete', async () => {
    const id = await s.createSession();
    const first = await cancel(id);
    expect(first.body.order_items).toHaveLength(2);
    expect(first.body.order_items[1].sku).toBe('TH-10');
    const again = await cancel(id);
    expect(again.body).toEqual(first.body);
    await cancel(id);
    expect(await completions(id)).toEqual(['canceled']);
    expect((await s.detail(id)).body).toMatchObject({ status: 'canceled', status_summary: 'Incomplete' });
  });

  it('payment_session_complete.created_at is when the cancel happened, on the channel clock, not when the session was created', async () => {
    const id = await s.createSession();
    await s.post('/sandbox/v1/clock/advance', { seconds: 3600 });
    const before = (await s.get('/sandbox/v1/clock')).body.now as string;
    await cancel(id);
    const after = (await s.get('/sandbox/v1/clock')).body.now as string;
    const [event] = (await s.outbox('payment_session_complete')).filter((e) => e.payload.data.payment_id === id);
    const createdAt = event!.payload.data.created_at as string;
    expect(Date.parse(createdAt)).toBeGreaterThanOrEqual(Date.parse(before));
    expect(Date.parse(createdAt)).toBeLessThanOrEqual(Date.parse(after));
    expect(Date.parse(createdAt) - Date.parse((await s.detail(id)).body.created_at)).toBeGreaterThanOrEqual(
      3600 * 1000,
    );
  });

  it('returns order items with sku only where the partner gave one', async () => {
    const id = await s.createSession({
      order_items: [
        {
          name: 'Gift wrap',
          quantity: 1,
          price: 300,
          amount_details: { total_additional_charges: 0, total_discounts: 0 },
        },
      ],
      total_amount: 1100,
    });
    expect((await cancel(id)).body.order_items[0].sku).toBeUndefined();
  });

  it('answers SessionAuthorized once a card was entered, SessionCaptured once captured, InvalidPaymentId for an unknown id', async () => {
    expectError(await cancel(await s.authorized()), 400, 'SessionAuthorized');
    const processing = await s.createSession();
    await s.complete(processing);
    expectError(await cancel(processing), 400, 'SessionAuthorized');
    expectError(await cancel(await s.capturedOneTime()), 400, 'SessionCaptured');
    expectError(await cancel('00000000-0000-4000-8000-000000000000'), 400, 'InvalidPaymentId');
  });

  it('ignores a body, since it takes no fields', async () => {
    const id = await s.createSession();
    expect(
      (
        await s.post(`${s.session(id)}/cancel`, undefined, {
          raw: '{not json',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(200);
  });
});

describe('a cancel that cannot be done leads somewhere', () => {
  it('a one-time payment under review: wait for the webhook, then refund; the void it does not suggest answers ImmediateCapture', async () => {
    const id = await s.createSession();
    await s.complete(id);
    const cancel = await s.post(`${s.session(id)}/cancel`, {});
    expect({ status: cancel.status, error: cancel.body.error }).toEqual({ status: 400, error: 'SessionAuthorized' });
    expect(cancel.body.message).toContain(
      'wait for the payment_session_complete webhook, then refund it if it was captured',
    );
    expect(cancel.body.message).not.toMatch(/void/i);
    expect((await s.post(`${s.session(id)}/void`, {})).body.error).toBe('ImmediateCapture');
  });

  it('an authorization whose hold is placed: void it, which then works', async () => {
    const id = await s.authorized();
    const cancel = await s.post(`${s.session(id)}/cancel`, {});
    expect(cancel.body).toMatchObject({
      error: 'SessionAuthorized',
      message: expect.stringContaining('void the authorization'),
    });
    expect((await s.post(`${s.session(id)}/void`, {})).status).toBe(200);
  });
});

describe('refund', () => {
  it('refunds in part, tracked per session and per item, then in full', async () => {
    const id = await s.capturedOneTime();
    const first = await refund(id, 1250, 'rf-1', {
      item_details: [{ item_id: (await s.detail(id)).body.order_items[1].item_id, quantity: 1 }],
    });
    expect(first.body.refund_id).toMatch(/^rf_/);
    let detail = (await s.detail(id)).body;
    expect(detail.status_summary).toBe('Partially Refunded');
    expect(detail.order_items[1]).toMatchObject({ total_refundable: 1250, quantity_refundable: 1 });
    expect(detail.order_items[0]).toMatchObject({ total_refundable: 4499, quantity_refundable: 1 });
    expect((await refund(id, 1250, 'rf-1')).body).toEqual(first.body); // same key, same refund
    expectError(await refund(id, 6550), 400, 'AmountInvalid');
    expect((await refund(id, 6549, 'rf-2')).status).toBe(200);
    detail = (await s.detail(id)).body;
    expect(detail.status_summary).toBe('Refunded');
    expect(detail.order_items.map((i: any) => i.total_refundable)).toEqual([0, 0]);
    expectError(await refund(id, 1), 400, 'AmountInvalid');
  });

  it('answers AmountInvalid for 0 and negative amounts, MissingField without reason, InvalidPaymentId for an unknown payment', async () => {
    const id = await s.capturedOneTime();
    expectError(await refund(id, 0), 400, 'AmountInvalid');
    expectError(await refund(id, -10), 400, 'AmountInvalid');
    expectError(
      await s.post('/payments/v1/refund', { payment_id: id, amount: 100, idempotency_key: 'x' }),
      400,
      'MissingField',
    );
    expectError(await refund('00000000-0000-4000-8000-000000000000', 100), 400, 'InvalidPaymentId');
  });

  it('answers NoSessionCaptures before anything was captured', async () => {
    expectError(await refund(await s.createSession(), 100), 400, 'NoSessionCaptures');
    expectError(await refund(await s.authorized(), 100), 400, 'NoSessionCaptures');
  });

  it('answers ChargeDisputed while a dispute is open; a lost dispute then reduces what is refundable', async () => {
    const id = await s.capturedOneTime();
    const dispute = (await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, { amount: 2000 })).body;
    expect(dispute).toMatchObject({ state: 'needs_response', amount: 2000, payment: { order_id: id } });
    expect((await s.detail(id)).body.status_summary).toBe('Disputed');
    expectError(await refund(id, 100), 400, 'ChargeDisputed');
    const closed = await s.post(`/sandbox/v1/disputes/${dispute.dispute_id}/resolve`, { outcome: 'lost' });
    expect(closed.body).toMatchObject({ state: 'lost', outcome: 'lost', resolved_at: expect.any(String) });
    expectError(await refund(id, 5800), 400, 'AmountInvalid');
    expect((await refund(id, 5799)).status).toBe(200);
    expect((await s.outbox()).map((e) => e.event_type).filter((t) => t.startsWith('dispute.'))).toEqual([
      'dispute.created',
      'dispute.closed',
    ]);
    expectError(
      await s.post(`/sandbox/v1/disputes/${dispute.dispute_id}/resolve`, { outcome: 'won' }),
      400,
      'InvalidState',
    );
  });

  it('a won dispute leaves the refundable amount whole', async () => {
    const id = await s.capturedOneTime();
    const dispute = (await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, {})).body;
    await s.post(`/sandbox/v1/disputes/${dispute.dispute_id}/resolve`, { outcome: 'won' });
    expect((await refund(id, 7799)).status).toBe(200);
  });
});

describe('injected faults: ServerError where the contract lists it', () => {
  it.each([
    ['capturePaymentSession', 400, (id: string) => capture(id, { total_amount: 100 })],
    ['voidPaymentSession', 400, (id: string) => voidHold(id)],
    ['cancelPaymentSession', 400, (id: string) => cancel(id)],
    ['createRefund', 500, (id: string) => refund(id, 100)],
    ['retrievePaymentSession', 500, (id: string) => s.detail(id)],
  ] as const)('%s answers ServerError (%i) before touching any state', async (operationId, status, call) => {
    const id = await s.authorized();
    await s.post('/sandbox/v1/faults', { operation_id: operationId, status: 400, count: 1 });
    expectError(await call(id), status, 'ServerError');
    expect((await s.detail(id)).body.status).toBe('authorized');
  });
});

describe('sales channels and keys', () => {
  it('answers 401 without a key or with an unknown one', async () => {
    expect((await s.get('/payments/v1/payment_sessions', { key: null })).status).toBe(401);
    expect((await s.get('/payments/v1/payment_sessions', { key: 'nope' })).body.error).toBe('Unauthorized');
  });

  it("answers 404 for another channel's session, and keeps it out of the list", async () => {
    const id = await s.createSession();
    expectError(await s.detail(id).then(() => s.get(s.session(id), { key: OTHER_KEY })), 404, 'NotFound');
    expectError(
      await s.post(`${s.session(id)}/capture`, { total_amount: 1 }, { key: OTHER_KEY }),
      400,
      'PaymentSessionDoesNotExist',
    );
    expect((await s.get('/payments/v1/payment_sessions', { key: OTHER_KEY })).body.pagination.count).toBe(0);
  });

  it('answers 501 NotImplemented, which every operation may, through the fault helper', async () => {
    await s.post('/sandbox/v1/faults', { operation_id: 'listDisputes', status: 501, count: 2 });
    expectError(await s.get('/v1/disputes'), 501, 'NotImplemented');
    expectError(await s.get('/v1/disputes'), 501, 'NotImplemented');
    expect((await s.get('/v1/disputes')).status).toBe(200);
  });
});
