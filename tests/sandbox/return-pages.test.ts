// The return pages over HTTP: GET /return/success and /return/failure find a session or a provision
// token request by its id in any channel, say what happened from its state, refuse a malformed or
// unknown id with a page of their own (never an API error, never a 500), escape what they echo, and
// are hardened like the hosted pages (a strict policy, never framed, never readable by another
// origin). The browser test (tests/browser/return-pages.test.ts) ends real checkouts on them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OTHER_KEY, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

const get = (url: string, headers: Record<string, string> = {}) => s.app.inject({ method: 'GET', url, headers });
const textOf = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
const titleOf = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1]?.replace(/&#39;/g, "'");
const shown = (html: string) => ({
  title: titleOf(html),
  id: /<code id="(?:session|request)-id">([^<]*)</.exec(html)?.[1],
  status: /<code id="status">([^<]*)</.exec(html)?.[1],
});
const createToken = async () =>
  (
    await s.post('/api/v1/payment_tokens/create', {
      success_url: 'http://127.0.0.1:4010/return/success',
      failure_url: 'http://127.0.0.1:4010/return/failure',
    })
  ).body.provision_token_request_id as string;

describe('the return pages', () => {
  it("show a session's id, status and total, and say what happened from its status, whichever page was reached", async () => {
    const authorized = await s.authorized();
    const pending = await s.createSession();
    const captured = await s.capturedOneTime();
    const ok = await get(`/return/success?payment_session_id=${authorized}`);
    expect(ok.statusCode).toBe(200);
    expect(shown(ok.body)).toEqual({ title: 'The payment is authorized', id: authorized, status: 'authorized' });
    expect(textOf(ok.body)).toContain('Total $77.99');
    expect(ok.body).toContain("stands in for your store's <code>success_url</code>. No real payment is made.");
    // The customer left for failure_url: the session is still pending, and the page says so.
    const left = await get(`/return/failure?payment_session_id=${pending}`);
    expect(shown(left.body)).toEqual({ title: 'The payment was not made', id: pending, status: 'pending' });
    expect(left.body).toContain("stands in for your store's <code>failure_url</code>");
    // The state decides, not the path: a captured session shown on the failure page is still captured.
    expect(shown((await get(`/return/failure?payment_session_id=${captured}`)).body)).toMatchObject({
      title: 'The payment is captured',
      status: 'captured',
    });
  });

  it('follow the session as it moves: processing after the helper, rejected after a declined review', async () => {
    const id = await s.createSession();
    await s.complete(id);
    expect(shown((await get(`/return/success?payment_session_id=${id}`)).body)).toMatchObject({
      title: 'The payment is submitted',
      status: 'processing',
    });
    await s.review(id, 'decline');
    expect(shown((await get(`/return/success?payment_session_id=${id}`)).body)).toMatchObject({
      title: 'The payment was rejected',
      status: 'rejected',
    });
  });

  it('find a session of any channel, as a redirect_url does, since a customer carries no key', async () => {
    const theirs = await s.createSession({}, { key: OTHER_KEY });
    expect(shown((await get(`/return/success?payment_session_id=${theirs}`)).body)).toMatchObject({
      id: theirs,
      status: 'pending',
    });
  });

  it('show a provision token request by provision_token_request_id, or by the hosted page the browser comes from', async () => {
    const request = await createToken();
    const waiting = await get(`/return/failure?provision_token_request_id=${request}`);
    expect(shown(waiting.body)).toEqual({
      title: 'The setup is not finished',
      id: request,
      status: 'awaiting_customer',
    });
    await s.post(`/sandbox/v1/provision_requests/${request}/complete`, { letter: 'approved' });
    // A setup's success_url has no template: the Referer of its hosted page names the request.
    const fromPage = await get('/return/success', { referer: `http://127.0.0.1:4010/checkout/setup/${request}` });
    expect(shown(fromPage.body)).toEqual({ title: 'The card is saved', id: request, status: 'provisioned' });
    expect(fromPage.body).toContain('No real card is saved.');
    // The same for a session's checkout page, when a success_url carries no id.
    const session = await s.authorized();
    expect(
      shown((await get('/return/success', { referer: `http://127.0.0.1:4010/checkout/${session}` })).body),
    ).toMatchObject({ id: session, status: 'authorized' });
    // An explicit id wins over the Referer.
    expect(
      shown(
        (
          await get(`/return/success?payment_session_id=${session}`, {
            referer: `http://127.0.0.1:4010/checkout/setup/${request}`,
          })
        ).body,
      ),
    ).toMatchObject({ id: session });
  });

  it('explain themselves when opened with no id, and give the URL to copy', async () => {
    for (const referer of [
      undefined,
      'http://127.0.0.1:4010/docs/',
      'not a url',
      'http://127.0.0.1:4010/checkout/a/b',
    ]) {
      const reply = await get('/return/success', referer === undefined ? {} : { referer });
      expect([reply.statusCode, titleOf(reply.body)]).toEqual([200, "The sandbox's success page"]);
      expect(reply.body).toContain('http://127.0.0.1:4010/return/success?payment_session_id={{payment_session_id}}');
    }
  });

  it.each([
    ['not a UUID', '?payment_session_id=42'],
    ['empty', '?payment_session_id='],
    [
      'given twice',
      '?payment_session_id=3f1c2a9e-8b7d-4c55-9e21-6a0d4b7c9f10&payment_session_id=3f1c2a9e-8b7d-4c55-9e21-6a0d4b7c9f10',
    ],
    ['too long', `?provision_token_request_id=${'a'.repeat(5000)}`],
    ['a path of the Referer', ''],
  ])('answer an id that is %s with a 400 page, not an API error', async (_case, query) => {
    const reply = await get(
      `/return/failure${query}`,
      query === '' ? { referer: 'http://127.0.0.1:4010/checkout/..%2F..%2Fetc' } : {},
    );
    expect([reply.statusCode, String(reply.headers['content-type']), titleOf(reply.body)]).toEqual([
      400,
      'text/html; charset=utf-8',
      'This is not an id',
    ]);
  });

  it('answer an id that names nothing here with a 404 page, and escape what they echo', async () => {
    const unknown = await get('/return/success?payment_session_id=3f1c2a9e-8b7d-4c55-9e21-6a0d4b7c9f10');
    expect([unknown.statusCode, titleOf(unknown.body)]).toEqual([404, 'No such payment session']);
    expect(unknown.body).toContain('3f1c2a9e-8b7d-4c55-9e21-6a0d4b7c9f10');
    const request = await get('/return/success?provision_token_request_id=3f1c2a9e-8b7d-4c55-9e21-6a0d4b7c9f10');
    expect([request.statusCode, titleOf(request.body)]).toEqual([404, 'No such provision token request']);
    const hostile = await get(`/return/success?payment_session_id=${encodeURIComponent('<script>alert(1)</script>')}`);
    expect(hostile.statusCode).toBe(400);
    expect(hostile.body).not.toContain('<script>');
  });

  it('are hardened as the hosted pages are: a strict policy, never framed, never cached, no CORS even for a page of this machine', async () => {
    const id = await s.createSession();
    for (const url of [
      `/return/success?payment_session_id=${id}`,
      '/return/failure?payment_session_id=x',
      '/return/success',
    ]) {
      const reply = await get(url, { origin: 'http://localhost:5173' });
      const policy = String(reply.headers['content-security-policy']);
      expect(policy).toMatch(
        /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/,
      );
      expect(reply.headers).toMatchObject({
        'x-frame-options': 'DENY',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'same-origin',
      });
      expect(reply.headers['access-control-allow-origin']).toBeUndefined();
      // The one style is the one the policy allows.
      expect(reply.body.match(/<style>/g)).toHaveLength(1);
      expect(reply.body).not.toMatch(/<script|<form|<iframe/);
    }
    // The API itself still answers that page (the default --cors-origin), so the removal is the pages' own.
    expect(
      (await s.get('/payments/v1/payment_sessions', { headers: { origin: 'http://localhost:5173' } })).headers[
        'access-control-allow-origin'
      ],
    ).toBe('http://localhost:5173');
  });

  it('change nothing, and take no other method', async () => {
    const id = await s.createSession();
    await get(`/return/success?payment_session_id=${id}`);
    expect((await s.detail(id)).body.status).toBe('pending');
    const post = await s.app.inject({ method: 'POST', url: `/return/success?payment_session_id=${id}` });
    expect(post.statusCode).toBe(404);
  });
});
