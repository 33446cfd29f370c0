// The last fidelity doubts of the sandbox: each test's first request is the reproduction, and it
// gets the answer the reference gives, or, where the reference is silent, the sandbox's stated
// choice (openapi/sandbox.yaml).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => { s = testSandbox(); });
afterEach(() => s.close());

describe('a cancel that cannot be done leads somewhere', () => {
  it('a one-time payment under review: wait for the webhook, then refund; the void it does not suggest answers ImmediateCapture', async () => {
    const id = await s.createSession();
    await s.complete(id);
    const cancel = await s.post(`${s.session(id)}/cancel`, {});
    expect({ status: cancel.status, error: cancel.body.error }).toEqual({ status: 400, error: 'SessionAuthorized' });
    expect(cancel.body.message).toContain('wait for the payment_session_complete webhook, then refund it if it was captured');
    expect(cancel.body.message).not.toMatch(/void/i);
    expect((await s.post(`${s.session(id)}/void`, {})).body.error).toBe('ImmediateCapture');
  });

  it('an authorization whose hold is placed: void it, which then works', async () => {
    const id = await s.authorized();
    const cancel = await s.post(`${s.session(id)}/cancel`, {});
    expect(cancel.body).toMatchObject({ error: 'SessionAuthorized', message: expect.stringContaining('void the authorization') });
    expect((await s.post(`${s.session(id)}/void`, {})).status).toBe(200);
  });
});

describe('an email is checked the same way on every create', () => {
  const token = (body: Record<string, unknown>) => s.post('/api/v1/payment_tokens/create', {
    success_url: 'https://shop.example/ok', failure_url: 'https://shop.example/ko', idempotency_key: 'tok-email', ...body,
  });

  it('create payment token refuses "not-an-email" with ValidationError, as create payment session refuses it', async () => {
    const refused = await token({ customer_email: 'not-an-email' });
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: 'ValidationError' });
    expect(refused.body.message).toContain('customer_email');
    const session = await s.post('/payments/v1/create_payment_session', sessionRequest({ customer_email: 'not-an-email' }));
    expect({ status: session.status, error: session.body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
  });

  it('accepts the emails create payment session accepts', async () => {
    expect((await token({ customer_email: 'Jane.Doe+tokens@example.com' })).status).toBe(200);
  });
});

describe('a retry that changes the body under the same key (the sandbox\'s stated choice: the first result)', () => {
  it('a capture retried with another amount answers 200 with the first capture, and captures nothing more', async () => {
    const id = await s.authorized();
    const first = await s.post(`${s.session(id)}/capture`, { total_amount: 3000, idempotency_key: 'cap-1' });
    const retry = await s.post(`${s.session(id)}/capture`, { total_amount: 5000, idempotency_key: 'cap-1' });
    expect({ status: retry.status, body: retry.body }).toEqual({ status: 200, body: first.body });
    expect((await s.detail(id)).body.capture_amount).toBe(3000);
  });

  it('a refund retried with another amount and reason answers 200 with the first refund, and refunds nothing more', async () => {
    const id = await s.capturedOneTime();
    const first = await s.post('/payments/v1/refund', { payment_id: id, amount: 1000, idempotency_key: 'rf-1', reason: 'customer_request' });
    const retry = await s.post('/payments/v1/refund', { payment_id: id, amount: 2500, idempotency_key: 'rf-1', reason: 'duplicate_payment' });
    expect({ status: retry.status, body: retry.body }).toEqual({ status: 200, body: first.body });
    const listed = await s.get(`/payments/v1/payment_sessions?search=${id}&summarize_refunds=true`);
    expect(listed.body.payment_sessions[0].refund_amount).toBe(1000);
  });

  it('the contract marks both as inferred', async () => {
    const { contract } = await import('../../testkit/contract.js');
    const schemas = contract.components.schemas as Record<string, { properties: Record<string, Record<string, string>> }>;
    expect(schemas.CapturePaymentSessionRequest!.properties.idempotency_key!['x-undocumented']).toMatch(/another total_amount/);
    expect(schemas.CreateRefundRequest!.properties.idempotency_key!['x-undocumented']).toMatch(/another amount or reason/);
  });
});

describe('a refund\'s item_details name their item by item_id, optional in the contract (the entry shape is undocumented)', () => {
  it('an entry with a sku and no item_id answers MissingField, naming item_id', async () => {
    const id = await s.capturedOneTime();
    const reply = await s.post('/payments/v1/refund', { payment_id: id, amount: 100, idempotency_key: 'rf-sku', reason: 'customer_request', item_details: [{ sku: 'BPM-200', quantity: 1 }] });
    expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 400, error: 'MissingField' });
    expect(reply.body.message).toBe("item_details[0] names no item_id: give the item_id of one of the payment's order_items.");
  });

  it('an entry naming an order item by its item_id refunds it; one naming no item answers MissingField that says so', async () => {
    const id = await s.capturedOneTime();
    const ok = await s.post('/payments/v1/refund', { payment_id: id, amount: 100, idempotency_key: 'rf-item', reason: 'customer_request', item_details: [{ item_id: 'line-1', sku: 'BPM-200' }] });
    expect(ok.status).toBe(200);
    const unknown = await s.post('/payments/v1/refund', { payment_id: id, amount: 100, idempotency_key: 'rf-unknown', reason: 'customer_request', item_details: [{ item_id: 'BPM-200' }] });
    expect(unknown.body).toEqual({ error: 'MissingField', message: expect.stringContaining('"BPM-200" names no order item of this payment') });
  });
});

describe('a body that is not UTF-8 is refused, never folded into U+FFFD', () => {
  /** A create whose idempotency_key holds these raw bytes, sent as they are. */
  const createWithKeyBytes = (key: Buffer) => {
    const [before, after] = JSON.stringify(sessionRequest({ idempotency_key: 'KEY' })).split('KEY') as [string, string];
    return s.app.inject({
      method: 'POST', url: '/payments/v1/create_payment_session',
      headers: { 'x-service-api-key': 'sandbox-dev-key', 'content-type': 'application/json' },
      payload: Buffer.concat([Buffer.from(before), key, Buffer.from(after)]),
    });
  };

  it('the keys 0xFF, 0xFE and a literal U+FFFD no longer return one session: the first two are refused, the third is a key of its own', async () => {
    const ff = await createWithKeyBytes(Buffer.from([0x6b, 0xff]));
    expect({ status: ff.statusCode, error: ff.json().error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
    expect(ff.json().message).toMatch(/not valid UTF-8 \(byte 0xff at offset \d+\)/);
    const fe = await createWithKeyBytes(Buffer.from([0x6b, 0xfe]));
    expect({ status: fe.statusCode, error: fe.json().error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
    const replacement = await createWithKeyBytes(Buffer.from('k\uFFFD'));
    expect(replacement.statusCode).toBe(200);
    const again = await createWithKeyBytes(Buffer.from('k\uFFFD'));
    expect(again.json().id).toBe(replacement.json().id);
    expect((await s.get('/payments/v1/payment_sessions')).body.pagination.count).toBe(1);
  });

  it.each([
    ['a cut sequence', [0x6b, 0xc3]],
    ['an overlong slash', [0xc0, 0xaf]],
    ['a surrogate encoded as UTF-8', [0xed, 0xa0, 0x80]],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ])('refuses %s with the operation\'s own code, on every operation that reads a body', async (_name, bytes) => {
    expect((await createWithKeyBytes(Buffer.from(bytes))).json().error).toBe('InvalidRequestParameter');
    const token = await s.app.inject({
      method: 'POST', url: '/api/v1/payment_tokens/create', headers: { 'x-service-api-key': 'sandbox-dev-key', 'content-type': 'application/json' },
      payload: Buffer.concat([Buffer.from('{"success_url":"https://s.example/ok","failure_url":"https://s.example/ko","customer_name":"'), Buffer.from(bytes), Buffer.from('"}')]),
    });
    expect({ status: token.statusCode, error: token.json().error }).toEqual({ status: 400, error: 'ValidationError' });
  });

  it('takes every character written as UTF-8, four-byte ones included', async () => {
    expect((await createWithKeyBytes(Buffer.from('ключ-🔑-é'))).statusCode).toBe(200);
  });
});
