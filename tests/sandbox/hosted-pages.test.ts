// The hosted pages over HTTP, for what a browser does not show: each found by attacking them, each
// sent here as the exact request first.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testSandbox, type TestSandbox } from '../support/sandbox.js';

let s: TestSandbox;
beforeEach(() => { s = testSandbox(); });
afterEach(() => s.close());

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const paid = { state: 'CA', eligibility: 'eligible', card_number: '4242424242424242', card_expiry: '12/34', card_cvc: '123', confirm: '1' };
const submit = (id: string, body: string, type = 'application/x-www-form-urlencoded', headers: Record<string, string> = {}) =>
  s.app.inject({ method: 'POST', url: `/checkout/${id}`, headers: { 'content-type': type, ...headers }, payload: body });

describe('hosted pages, found by attack', () => {
  it('redirects to a success_url with non-ASCII text percent-encoded, not a 500 after the charge', async () => {
    const id = await s.createSession({ success_url: 'https://shop.example/注文/{{payment_session_id}}?q=café' });
    const reply = await submit(id, form(paid));
    expect(reply.statusCode).toBe(303);
    expect(reply.headers.location).toBe(`https://shop.example/%E6%B3%A8%E6%96%87/${id}?q=caf%C3%A9`);
  });

  it('takes a form and only a form: JSON, text and multipart answer 415 and pay nothing', async () => {
    const id = await s.createSession();
    for (const [type, body] of [['application/json', JSON.stringify(paid)], ['text/plain', 'x'], ['multipart/form-data; boundary=x', '--x--']] as const) {
      expect((await submit(id, body, type)).statusCode).toBe(415);
    }
    expect((await s.detail(id)).body.status).toBe('pending');
  });

  it('answers a form over 16 KiB with 413, not 500', async () => {
    const id = await s.createSession();
    expect((await submit(id, form({ ...paid, filler: 'x'.repeat(20_000) }))).statusCode).toBe(413);
  });

  it('refuses a state that is a built-in object name', async () => {
    const id = await s.createSession();
    const reply = await submit(id, form({ ...paid, state: '__proto__' }));
    expect(reply.statusCode).toBe(400);
    expect(reply.body).toContain('Choose your state of residence.');
    expect((await s.detail(id)).body.status).toBe('pending');
  });

  it('builds its form action from the route, never from an absolute request line', async () => {
    const id = await s.createSession();
    const reply = await s.app.inject({ method: 'GET', url: `http://evil.example/checkout/${id}` });
    expect(reply.body).toContain(`action="/checkout/${id}"`);
    expect(reply.body).not.toContain('evil.example');
  });

  it('a rejected session\'s page is closed and links failure_url', async () => {
    const id = await s.createSession();
    await s.complete(id);
    await s.review(id, 'decline');
    const reply = await s.app.inject({ method: 'GET', url: `/checkout/${id}` });
    expect(reply.body).toContain('This checkout is closed');
    expect(reply.body).toContain(`/orders/${id}/failed`);
  });

  it('pages are not cached, send no referrer, and cannot be framed except in iframe mode', async () => {
    const id = await s.createSession();
    const page = await s.app.inject({ method: 'GET', url: `/checkout/${id}` });
    expect(page.headers).toMatchObject({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'content-security-policy': "frame-ancestors 'none'" });
    const framed = await s.app.inject({ method: 'GET', url: `/checkout/${id}?mode=iframe` });
    expect(framed.headers).not.toHaveProperty('content-security-policy');
  });

  it('a token page prefills the state from customer_state and refuses an unknown clinician decision', async () => {
    const { body } = await s.post('/api/v1/payment_tokens/create', { success_url: 'https://a.example/ok', failure_url: 'https://a.example/ko', customer_state: 'ny' });
    const id = body.provision_token_request_id as string;
    expect((await s.app.inject({ method: 'GET', url: `/checkout/setup/${id}` })).body).toContain('<option value="NY" selected>New York</option>');
    const reply = await s.app.inject({ method: 'POST', url: `/checkout/setup/${id}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form({ ...paid, letter: 'bogus', action: 'finish' }) });
    expect(reply.statusCode).toBe(400);
    expect((await s.get(`/sandbox/v1/provision_requests/${id}`)).body.status).toBe('awaiting_customer');
  });
});
