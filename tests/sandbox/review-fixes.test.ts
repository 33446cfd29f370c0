// Cases a review of the sandbox against the reference turned up; each pins the behaviour it fixed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noCharges, sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => { s = testSandbox(); });
afterEach(() => s.close());

const refund = (id: string, amount: number, extra = {}) =>
  s.post('/payments/v1/refund', { payment_id: id, amount, idempotency_key: `rf-${amount}-${Math.random()}`, reason: 'customer_request', ...extra });

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
    const items = (await s.get('/payments/v1/payment_sessions')).body.payment_sessions as Array<Record<string, unknown>>;
    const byId = Object.fromEntries(items.map((i) => [i.id, i]));
    expect(byId[processing]!.authorized_on).toBeUndefined();
    expect(byId[captured]!.authorized_on).toBe(byId[captured]!.captured_on);
    expect(byId[captured]!.service_fee).toBeUndefined();
  });
});

describe('lost disputes', () => {
  it('take their amount out of the items too, and a session a lost dispute took money from stays Disputed, refunded or not', async () => {
    const id = await s.authorized({ total_amount: 1000, amount_details: noCharges, order_items: [
      { name: 'A', quantity: 1, price: 500, amount_details: noCharges }, { name: 'B', quantity: 1, price: 500, amount_details: noCharges }] });
    await s.post(`${s.session(id)}/capture`, { total_amount: 700 });
    const dispute = (await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, { amount: 200 })).body;
    await s.post(`/sandbox/v1/disputes/${dispute.dispute_id}/resolve`, { outcome: 'lost' });
    expect((await s.detail(id)).body.order_items.map((i: any) => i.total_refundable)).toEqual([300, 200]);
    await refund(id, 100);
    await refund(id, 400);
    const detail = (await s.detail(id)).body;
    expect(detail.order_items.map((i: any) => [i.total_refundable, i.quantity_refundable])).toEqual([[0, 0], [0, 0]]);
    expect(detail.status_summary).toBe('Disputed');
  });
});

describe('item_details', () => {
  it('refunds the named items first, and refuses more than they have left', async () => {
    const id = await s.capturedOneTime();
    const thermometer = (await s.detail(id)).body.order_items[1].item_id;
    expect((await refund(id, 2501, { item_details: [{ item_id: thermometer }] })).body.error).toBe('AmountInvalid');
    expect((await refund(id, 1250, { item_details: [{ item_id: thermometer }] })).status).toBe(200);
    expect((await s.detail(id)).body.order_items.map((i: any) => i.total_refundable)).toEqual([4499, 1250]);
    expect((await refund(id, 10, { item_details: [{ item_id: 'nope' }] })).body.error).toBe('MissingField');
  });
});

describe('customer identity with a payment token', () => {
  it("is the token's user, not the request's customer_email and customer_name", async () => {
    const issuer = await s.createSession({ tokenize: true, customer_email: 'token.owner@example.com', customer_name: 'Tia Owner' });
    const token = (await s.get(`/sandbox/v1/payment_sessions/${issuer}`)).body.issued_payment_token;
    await s.complete(issuer);
    const charge = (await s.post('/payments/v1/create_payment_session', sessionRequest({ payment_token: token, customer_email: 'someone.else@example.com', customer_name: 'Else' }))).body.id;
    const search = async (q: string) => (await s.get(`/payments/v1/payment_sessions?search=${q}`)).body.payment_sessions.map((p: any) => p.id);
    expect(await search('someone.else')).toEqual([]);
    expect(await search('token.owner')).toEqual(expect.arrayContaining([charge, issuer]));
  });
});

describe('hosted pages', () => {
  it('a create-session 422 leads to a page about the token', async () => {
    const issuer = await s.createSession({ tokenize: true });
    const token = (await s.get(`/sandbox/v1/payment_sessions/${issuer}`)).body.issued_payment_token;
    await s.complete(issuer);
    await s.post(`/sandbox/v1/payment_tokens/${token}/require_action`, { next_action: 'TakeHealthSurvey' });
    const { body } = await s.post('/payments/v1/create_payment_session', sessionRequest({ payment_token: token }));
    const page = await s.call('GET', new URL(body.redirect_url).pathname);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Health survey');
  });

  it('a canceled checkout shows a timed-out page linking back to failure_url', async () => {
    const id = await s.createSession();
    await s.post(`${s.session(id)}/cancel`, {});
    const page = await s.call('GET', `/checkout/${id}`);
    expect(page.body).toContain('timed out');
    expect(page.body).toContain(`href="https://shop.example/orders/${id}/failed"`);
  });
});

describe('bodies, URLs and bounds', () => {
  it('takes an empty JSON body as no body where the body is optional (void)', async () => {
    const id = await s.authorized();
    const reply = await s.call('POST', `${s.session(id)}/void`, { raw: '', headers: { 'content-type': 'application/json' } });
    expect(reply.status).toBe(200);
  });

  it('lets cancel ignore any body, whatever its content type or size', async () => {
    const id = await s.createSession();
    const form = await s.call('POST', `${s.session(id)}/cancel`, { raw: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(200);
    const huge = await s.call('POST', `${s.session(id)}/cancel`, { raw: 'x'.repeat(300 * 1024), headers: { 'content-type': 'text/plain' } });
    expect(huge.status).toBe(200);
  });

  it('answers URLs the router cannot read, and over-long ids, with the contract 404', async () => {
    for (const path of ['/payments/v1/payment_session/%ZZ', `/payments/v1/payment_session/${'a'.repeat(2000)}`]) {
      const { status, body } = await s.get(path);
      expect({ status, error: body.error }).toEqual({ status: 404, error: 'NotFound' });
    }
  });

  it('refuses amounts beyond 2^53 rather than rounding them', async () => {
    const big = 9007199254740993;
    const { body } = await s.post('/payments/v1/create_payment_session', sessionRequest({ total_amount: big, amount_details: noCharges, order_items: [{ name: 'X', quantity: 1, price: big, amount_details: noCharges }] }));
    expect(body.error).toBe('OrderItemsInvalid');
  });

  it('refuses a page_size above 1000 and pages beyond 2^53', async () => {
    for (const query of ['page_size=1001', 'page=99999999999999999999']) {
      const { status, body } = await s.get(`/payments/v1/payment_sessions?${query}`, { undocumented: true });
      expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
    }
  });

  it('builds redirect_url from the public URL, never from the Host header', async () => {
    // Host: evil.example gave http://evil.example/checkout/…: any client chose where the customer went.
    // Such a name is refused now (allowed-hosts.ts); a name the sandbox answers to is not used either.
    for (const host of ['evil.example', 'evil.example:8443', 'evil.example"><x']) {
      expect((await s.post('/payments/v1/create_payment_session', sessionRequest(), { headers: { host }, undocumented: true })).status).toBe(403);
    }
    for (const host of ['127.0.0.1:9999', 'localhost:8443', '[::1]:1']) {
      const { body } = await s.post('/payments/v1/create_payment_session', sessionRequest(), { headers: { host } });
      expect(body.redirect_url).toMatch(/^http:\/\/127\.0\.0\.1:4010\/checkout\/[0-9a-f-]{36}$/);
    }
    const token = await s.post('/api/v1/payment_tokens/create', { success_url: 'https://a.example/ok', failure_url: 'https://a.example/ko' }, { headers: { host: 'localhost:8443' } });
    expect(token.body.redirect_url).toMatch(/^http:\/\/127\.0\.0\.1:4010\/checkout\/setup\//);
  });

  it('explains conditional rules in the message', async () => {
    const trial = sessionRequest({ total_amount: 0, amount_details: noCharges, tokenize: false, display_next_bill_info: { total_amount: 1, date: '2026-12-21' }, order_items: [{ name: 'T', quantity: 1, price: 0, amount_details: noCharges }] });
    expect((await s.post('/payments/v1/create_payment_session', trial)).body).toEqual({ error: 'InvalidRequestParameter', message: 'tokenize must be true for a free trial (display_next_bill_info).' });
    expect((await s.post('/payments/v1/create_payment_session', sessionRequest({ tokenize: true, payment_token: 'p' }))).body.message).toBe('tokenize must be false when payment_token is given.');
  });
});

describe('helpers', () => {
  it('refuse to move the clock more than 10 years at once', async () => {
    const { status, body } = await s.post('/sandbox/v1/clock/advance', { seconds: 1e12 });
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequest' });
  });
});
