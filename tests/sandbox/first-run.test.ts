// What a new user meets first: a clean start (the reset helper), a browser page on another origin
// (CORS), and the sandbox's address opened in a browser (the index page).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { allowedOrigin } from '../../src/sandbox/http/cors.js';
import { repoRoot } from '../../testkit/contract.js';
import { OTHER_KEY, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

describe('reset', () => {
  it("deletes everything of the caller's channel, and nothing of another", async () => {
    const mine = await s.capturedOneTime({ idempotency_key: 'order-1' });
    await s.createSession({ tokenize: true });
    await s.post('/sandbox/v1/clock/advance', { seconds: 60 });
    await s.post('/sandbox/v1/faults', { operation_id: 'createRefund', status: 500 });
    await s.call('PUT', '/sandbox/v1/features', { body: { tokenization: false } });
    const theirs = await s.createSession({}, { key: OTHER_KEY });
    const reply = await s.post('/sandbox/v1/reset');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ channel: 'dev', payment_sessions: 2, payment_tokens: 1 });
    expect(reply.body.outbox_events).toBeGreaterThan(0);
    expect((await s.detail(mine)).status).toBe(404);
    expect((await s.get('/payments/v1/payment_sessions')).body.pagination.count).toBe(0);
    expect(await s.outbox()).toEqual([]);
    expect((await s.get('/sandbox/v1/clock')).body.offset_seconds).toBe(0);
    // The same idempotency key starts a new session; the fault is gone.
    expect(await s.createSession({ idempotency_key: 'order-1' })).not.toBe(mine);
    const captured = await s.capturedOneTime();
    const refund = await s.post('/payments/v1/refund', {
      payment_id: captured,
      amount: 100,
      idempotency_key: 'after-reset',
      reason: 'customer_request',
    });
    expect(refund.status).toBe(200);
    expect((await s.get('/sandbox/v1/features')).body).toEqual({ authorization: true, tokenization: true });
    expect((await s.get(`/payments/v1/payment_session/${theirs}`, { key: OTHER_KEY })).status).toBe(200);
  });

  it('resets every channel through SQL, leaving the database file a database', async () => {
    await s.createSession();
    await s.createSession({}, { key: OTHER_KEY });
    expect(s.store.transaction(() => s.store.reset.all()).payment_sessions).toBe(2);
    expect(s.store.db.prepare('SELECT COUNT(*) FROM payment_sessions').pluck().get()).toBe(0);
    expect(s.store.db.prepare('SELECT SUM(n) FROM session_counts').pluck().get()).toBe(0);
  });
});

describe('CORS', () => {
  it("answers a preflight before the key check, with the API's request headers and the path's methods", async () => {
    const reply = await s.call('OPTIONS', '/payments/v1/create_payment_session', {
      key: null,
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-service-api-key',
      },
      undocumented: true,
    });
    expect(reply.status).toBe(204);
    expect(reply.headers).toMatchObject({
      'access-control-allow-origin': 'http://localhost:5173',
      'access-control-allow-headers': 'authorization, content-type, x-service-api-key',
      'access-control-allow-methods': 'POST',
      vary: 'Origin',
    });
  });

  it('allows the headers the documents declare, not whatever a keyless preflight asks for', async () => {
    const reply = await s.call('OPTIONS', '/payments/v1/payment_sessions', {
      key: null,
      headers: {
        origin: 'http://evil.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-forwarded-host,authorization,x-service-api-key',
      },
      undocumented: true,
    });
    expect(reply.status).toBe(204);
    expect(reply.headers['access-control-allow-headers']).toBe('authorization, content-type, x-service-api-key');
  });

  it("allows each path's own methods: DELETE and PUT of the helpers too", async () => {
    const preflight = (path: string, method: string) =>
      s.call('OPTIONS', path, {
        key: null,
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': method },
        undocumented: true,
      });
    expect(
      (await preflight('/sandbox/v1/webhook_endpoints/wep_1', 'DELETE')).headers['access-control-allow-methods'],
    ).toBe('DELETE');
    expect((await preflight('/sandbox/v1/features', 'PUT')).headers['access-control-allow-methods']).toBe('GET, PUT');
  });

  it('allows, for every operation of both documents, its method on its path', async () => {
    for (const file of ['openapi.json', 'sandbox.json']) {
      const doc = JSON.parse(readFileSync(path.join(repoRoot, 'generated', file), 'utf8')) as {
        paths: Record<string, Record<string, unknown>>;
      };
      for (const [template, item] of Object.entries(doc.paths)) {
        for (const method of Object.keys(item)
          .filter((key) => ['get', 'put', 'post', 'delete', 'patch'].includes(key))
          .map((m) => m.toUpperCase())) {
          const url = template.replace(/\{[^}]+\}/g, 'id_1');
          const reply = await s.call('OPTIONS', url, {
            key: null,
            headers: { origin: 'http://localhost:5173', 'access-control-request-method': method },
            undocumented: true,
          });
          expect(
            {
              status: reply.status,
              allowed: String(reply.headers['access-control-allow-methods']).split(', ').includes(method),
            },
            `${method} ${template}`,
          ).toEqual({ status: 204, allowed: true });
        }
      }
    }
  });

  it('lets the page of the --cors-origin origin, and no other, delete a webhook endpoint', async () => {
    const open = buildSandbox({ store: sqliteBackend(s.store), corsOrigin: 'https://shop.example' });
    try {
      const preflight = (origin: string) =>
        open.inject({
          method: 'OPTIONS',
          url: '/sandbox/v1/webhook_endpoints/wep_1',
          headers: {
            origin,
            'access-control-request-method': 'DELETE',
            'access-control-request-headers': 'x-service-api-key',
          },
        });
      // What a browser checks: the origin is its own, and DELETE and the key's header are allowed.
      const allowed = (reply: Awaited<ReturnType<typeof preflight>>, origin: string) =>
        reply.statusCode === 204 &&
        reply.headers['access-control-allow-origin'] === origin &&
        String(reply.headers['access-control-allow-methods']).split(', ').includes('DELETE') &&
        String(reply.headers['access-control-allow-headers']).includes('x-service-api-key');
      expect(allowed(await preflight('https://shop.example'), 'https://shop.example')).toBe(true);
      expect(allowed(await preflight('https://evil.example'), 'https://evil.example')).toBe(false);
      expect(allowed(await preflight('http://localhost:5173'), 'http://localhost:5173')).toBe(false);
    } finally {
      await open.close();
    }
    // The default (this machine's pages): a loopback page may, another site's may not.
    const fromLoopback = await s.call('OPTIONS', '/sandbox/v1/webhook_endpoints/wep_1', {
      key: null,
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'DELETE' },
      undocumented: true,
    });
    expect(fromLoopback.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    const fromElsewhere = await s.call('OPTIONS', '/sandbox/v1/webhook_endpoints/wep_1', {
      key: null,
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'DELETE' },
      undocumented: true,
    });
    expect(fromElsewhere.headers).not.toHaveProperty('access-control-allow-origin');
  });

  it('sends CORS headers on answers, errors included, and still needs the key', async () => {
    const ok = await s.get('/payments/v1/payment_sessions', { headers: { origin: 'http://localhost:5173' } });
    expect(ok.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    const refused = await s.get('/payments/v1/payment_sessions', {
      key: null,
      headers: { origin: 'http://127.0.0.1:3000' },
    });
    expect({ status: refused.status, origin: refused.headers['access-control-allow-origin'] }).toEqual({
      status: 401,
      origin: 'http://127.0.0.1:3000',
    });
  });

  it('lets no page of another site drive the sandbox with the published keys, unless --cors-origin opens it', async () => {
    // A page on http://evil.example could preflight, then complete another channel's checkout
    // (POST …/complete_checkout with sandbox-other-key) and read the sessions: every answer said
    // Access-Control-Allow-Origin: *.
    const id = await s.createSession({}, { key: OTHER_KEY });
    const evil = { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' };
    const preflight = await s.call('OPTIONS', `/sandbox/v1/payment_sessions/${id}/complete_checkout`, {
      key: null,
      headers: {
        ...evil,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-service-api-key',
      },
      undocumented: true,
    });
    expect(preflight.headers).not.toHaveProperty('access-control-allow-origin');
    const listed = await s.get('/payments/v1/payment_sessions', { key: OTHER_KEY, headers: evil });
    expect(listed.headers).not.toHaveProperty('access-control-allow-origin');
    for (const origin of [
      'http://localhost.evil.example',
      'http://127.0.0.1.evil.example',
      'null',
      'http://[::1].evil.example',
    ]) {
      expect(
        (await s.get('/payments/v1/payment_sessions', { headers: { origin } })).headers,
        origin,
      ).not.toHaveProperty('access-control-allow-origin');
    }
    for (const origin of ['http://localhost', 'https://localhost:8443', 'http://127.0.0.2:5173', 'http://[::1]:3000']) {
      expect(
        (await s.get('/payments/v1/payment_sessions', { headers: { origin } })).headers['access-control-allow-origin'],
      ).toBe(origin);
    }
    // Opened on purpose: one partner origin, or any.
    for (const [policy, expected] of [
      ['https://shop.example', 'https://shop.example'],
      ['*', '*'],
    ] as const) {
      const open = buildSandbox({ store: sqliteBackend(s.store), corsOrigin: policy });
      const reply = await open.inject({
        method: 'GET',
        url: '/payments/v1/payment_sessions',
        headers: { 'x-service-api-key': 'sandbox-dev-key', ...evil },
      });
      expect(reply.headers['access-control-allow-origin']).toBe(expected);
      await open.close();
    }
  });

  it("answers no preflight on a path that is not the API's", async () => {
    const reply = await s.call('OPTIONS', '/nope', {
      key: null,
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' },
    });
    expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 404, error: 'NotFound' });
  });

  it('an OPTIONS that is no preflight is a method like any other', async () => {
    expect((await s.call('OPTIONS', '/payments/v1/payment_sessions', { key: null })).status).toBe(401);
    expect((await s.call('OPTIONS', '/payments/v1/payment_sessions')).status).toBe(405);
  });

  it('refuses a --cors-origin that cannot be a header, at start', async () => {
    const { buildSandbox } = await import('../../src/sandbox/http/app.js');
    for (const origin of [
      'http://a.example\nX-Evil: 1',
      'http://ü.example',
      'not an origin',
      'http://a.example/path',
    ]) {
      expect(() => buildSandbox({ store: sqliteBackend(s.store), corsOrigin: origin })).toThrow(/--cors-origin/);
    }
    expect(() => buildSandbox({ store: sqliteBackend(s.store), corsOrigin: 'http://localhost:5173' })).not.toThrow();
  });
});

describe('an origin no browser sends', () => {
  it('a preflight from http://127.999.1.1 gets no Access-Control-Allow-Origin', async () => {
    const reply = await s.app.inject({
      method: 'OPTIONS',
      url: '/payments/v1/create_payment_session',
      headers: { origin: 'http://127.999.1.1', 'access-control-request-method': 'POST' },
    });
    expect(reply.statusCode).toBe(204);
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });

  it.each([
    ['http://127.0.0.1:65536', undefined],
    ['http://127.0.0.1:0099', undefined],
    ['http://127.1', undefined],
    ['HTTP://LOCALHOST:5173', undefined],
    ['http://127.0.0.1:65535', 'http://127.0.0.1:65535'],
    ['https://127.255.255.255', 'https://127.255.255.255'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
    ['http://localhost:5173', 'http://localhost:5173'],
    ['http://128.0.0.1', undefined],
    ['http://localhost.evil.example', undefined],
    ['ws://localhost:5173', undefined],
    ['null', undefined],
  ])('the loopback policy answers the Origin %s with %s', (origin, allowed) => {
    expect(allowedOrigin('loopback', origin)).toBe(allowed);
  });
});

describe('the documents', () => {
  it('are served without a key: the contract in OpenAPI 3.1, and its 3.0.3 companion for tools that read only 3.0', async () => {
    const served = async (url: string) => {
      const reply = await s.call('GET', url, { key: null, undocumented: true });
      return {
        status: reply.status,
        type: String(reply.headers['content-type']),
        openapi: typeof reply.body === 'string' ? reply.body.split('\n')[0] : reply.body.openapi,
      };
    };
    expect(await served('/openapi.json')).toEqual({
      status: 200,
      type: expect.stringContaining('application/json'),
      openapi: '3.1.0',
    });
    expect(await served('/openapi-3.0.json')).toEqual({
      status: 200,
      type: expect.stringContaining('application/json'),
      openapi: '3.0.3',
    });
    expect(await served('/openapi-3.0.yaml')).toEqual({
      status: 200,
      type: expect.stringContaining('application/yaml'),
      openapi: 'openapi: 3.0.3',
    });
  });
});

describe('the index page', () => {
  it("links the documents and names no session: it needs no key, so it must not lead to any channel's checkout", async () => {
    const empty = await s.call('GET', '/', { key: null });
    expect(empty.status).toBe(200);
    expect(String(empty.headers['content-type'])).toContain('text/html');
    expect(empty.body).toContain('href="/openapi.json"');
    expect(empty.body).toContain('href="/openapi-3.0.json"');
    // The reproduction: a session of another channel, then `curl -s $S/` with no key.
    const theirs = await s.createSession({}, { key: OTHER_KEY });
    const mine = await s.createSession();
    const index = await s.call('GET', '/', { key: null });
    expect(index.body).not.toContain('/checkout/');
    expect(index.body).not.toContain(theirs);
    expect(index.body).not.toContain(mine);
    // It runs nothing, loads nothing but its one inline style, and may not be framed.
    expect(index.headers).toMatchObject({
      'content-security-policy': expect.stringMatching(
        /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/,
      ),
      'x-frame-options': 'DENY',
    });
    expect(index.body).not.toMatch(/<script|<link|<img|<form/);
    // It leads to the dashboard and to the return pages, with the URL to give create payment session.
    expect(index.body).toContain('href="/dashboard/"');
    expect(index.body).toContain('href="/return/success"');
    expect(index.body).toContain('href="/return/failure"');
    expect(index.body).toContain('http://127.0.0.1:4010/return/success?payment_session_id={{payment_session_id}}');
    // It names no key, not even the published ones: a sandbox with keys of its own must not show them.
    expect(index.body).not.toContain('sandbox-dev-key');
  });
});
