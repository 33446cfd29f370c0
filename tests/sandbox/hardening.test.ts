// The holes that probing found, each pinned by the exact request that opened it: auth decided by
// the matched route (not the URL's spelling), a clock per channel, no 500 from deep nesting, no
// negative capturable amount, transport errors in the contract's shape, and 501 whatever the body.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { DEFAULT_API_KEYS, registerAuth } from '../../src/sandbox/http/auth.js';
import { BODY_LIMIT_BYTES, registerJsonParser } from '../../src/sandbox/http/body-parsing.js';
import { CONTRACT_FILE, loadDocument, SchemaValidators } from '../../src/sandbox/http/document.js';
import { codesOf } from '../../src/sandbox/http/error-codes.js';
import { registerErrorPath } from '../../src/sandbox/http/errors.js';
import { registerOperations } from '../../src/sandbox/http/operations.js';
import { randomIds } from '../../src/sandbox/ids.js';
import { createStore, openDatabase } from '../../src/sandbox/store/index.js';
import { jsonBody, rawExchange as rawHttp, statusLine } from '../support/raw-http.js';
import { noCharges, OTHER_KEY, sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => { s = testSandbox(); });
afterEach(() => s.close());

const rowsIn = (channel: string) => s.store.db.prepare('SELECT COUNT(*) FROM payment_sessions WHERE channel = ?').pluck().get(channel) as number;
const clockOf = async (key?: string) => (await s.get('/sandbox/v1/clock', key ? { key } : {})).body.offset_seconds as number;

const rawExchange = (request: string) => rawHttp(s.app, request);

describe('auth is decided by the matched route', () => {
  it('POST /%73andbox/v1/clock/advance without a key answers 401 and moves no clock', async () => {
    const reply = await s.call('POST', '/%73andbox/v1/clock/advance', { key: null, body: { seconds: 3600 } });
    expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 401, error: 'Unauthorized' });
    expect(await clockOf()).toBe(0);
    expect(await clockOf(OTHER_KEY)).toBe(0);
  });

  it('POST /%70ayments/v1/create_payment_session without a key answers 401 and stores nothing, in no channel', async () => {
    const reply = await s.call('POST', '/%70ayments/v1/create_payment_session', { key: null, body: sessionRequest() });
    expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 401, error: 'Unauthorized' });
    expect(s.store.db.prepare('SELECT COUNT(*) FROM payment_sessions').pluck().get()).toBe(0);
  });

  it('an encoded path with a key reaches the same operation', async () => {
    const reply = await s.call('POST', '/%70ayments/v1/create_payment_session', { body: sessionRequest() });
    expect(reply.status).toBe(200);
    expect(rowsIn('dev')).toBe(1);
  });

  it('an absolute-form request line without a key answers 401', async () => {
    const { text } = await rawExchange('GET http://127.0.0.1:4010/payments/v1/payment_sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(statusLine(text)).toBe('HTTP/1.1 401 Unauthorized');
    expect(jsonBody(text).error).toBe('Unauthorized');
  });

  it.each([
    ['an unknown key', { key: 'nope' }],
    ['an empty key', { key: '' }],
    ['no key', { key: null }],
  ])('every route of the contract and the helpers refuses %s with 401', async (_case, options) => {
    for (const [method, url] of [
      ['GET', '/payments/v1/payment_sessions'], ['GET', '/payments/v1/payment_session/x'], ['POST', '/payments/v1/refund'],
      ['GET', '/api/v1/payment_tokens'], ['GET', '/v1/disputes'], ['GET', '/sandbox/v1/outbox'], ['PUT', '/sandbox/v1/features'],
      ['DELETE', '/payments/v1/refund'], ['GET', '/%61pi/v1/disputes/x'],
    ] as const) {
      const reply = await s.call(method, url, options);
      expect({ url, status: reply.status }).toEqual({ url, status: 401 });
    }
  });

  it('pages for people and the documents need no key', async () => {
    for (const url of ['/health', '/openapi.json', '/openapi-3.0.yaml', '/sandbox/openapi.yaml']) {
      expect((await s.call('GET', url, { key: null })).status).toBe(200);
    }
  });

  it('a wrong method is refused by the router too, however the path is spelled', async () => {
    const reply = await s.call('DELETE', '/%70ayments/v1/create_payment_session');
    expect({ status: reply.status, allow: reply.headers.allow }).toEqual({ status: 405, allow: 'POST' });
  });
});

describe('the clock is per channel', () => {
  it('advancing one channel leaves another channel\'s holds alone', async () => {
    const mine = await s.authorized();
    const theirs = await s.createSession({ kind: 'authorization' }, { key: OTHER_KEY });
    await s.post(`/sandbox/v1/payment_sessions/${theirs}/complete_checkout`, {}, { key: OTHER_KEY });
    await s.post('/sandbox/v1/clock/advance', { seconds: 7 * 24 * 3600 });
    expect(await clockOf()).toBe(7 * 24 * 3600);
    expect(await clockOf(OTHER_KEY)).toBe(0);
    expect((await s.post(`${s.session(mine)}/capture`, { total_amount: 100 })).body.error).toBe('SessionExpired');
    expect((await s.post(`${s.session(theirs)}/capture`, { total_amount: 100 }, { key: OTHER_KEY })).status).toBe(200);
  });
});

describe('deep nesting', () => {
  const deep = (levels: number, leaf: unknown = 1): unknown => {
    let value = leaf;
    for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
    return value;
  };

  it.each([
    ['survey_config', (v: unknown) => ({ survey_config: v }), 'InvalidRequestParameter'],
    ['test_config', (v: unknown) => ({ test_config: v }), 'InvalidRequestParameter'],
    ['an extra key under amount_details', (v: unknown) => ({ amount_details: { total_additional_charges: 800, total_discounts: 0, extra: v } }), 'InvalidRequestParameter'],
    ['an array in order_items', (v: unknown) => ({ order_items: [...sessionRequest().order_items, v] }), 'OrderItemsInvalid'],
  ])('4,100 levels in %s answer 400 before anything is stored', async (_case, place, error) => {
    const reply = await s.post('/payments/v1/create_payment_session', sessionRequest(place(deep(4100)) as Record<string, unknown>));
    expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 400, error });
    expect(reply.body.message).toContain('deeper than 64 levels');
    expect(rowsIn('dev')).toBe(0);
  });

  it('accepts 60 levels where the contract leaves a field open', async () => {
    // survey_config is an object whose fields are not documented (its type is inferred): open below.
    const reply = await s.post('/payments/v1/create_payment_session', sessionRequest({ survey_config: { a: deep(59) } }));
    expect(reply.status).toBe(200);
  });

  it('refuses deep nesting on the other operations with their own code', async () => {
    const id = await s.authorized();
    const reply = await s.post(`${s.session(id)}/capture`, { total_amount: 100, extra: deep(200) });
    expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 400, error: 'MissingField' });
    const put = await s.call('PUT', '/sandbox/v1/features', { body: deep(100) });
    expect({ status: put.status, error: put.body.error }).toEqual({ status: 400, error: 'InvalidRequest' });
  });
});

describe('capturable amounts', () => {
  it('an item whose discount exceeds its price has 0 to capture, never a negative amount', async () => {
    // Session-level charges (+300) balance an item's discount (−300) that is larger than its price.
    const id = await s.authorized({
      total_amount: 1100,
      amount_details: { total_additional_charges: 300, total_discounts: 0 },
      order_items: [
        { name: 'Sample', quantity: 1, price: 100, amount_details: { total_additional_charges: 0, total_discounts: -300 } },
        { name: 'Monitor', quantity: 1, price: 1000, amount_details: noCharges },
      ],
    });
    const items = (await s.detail(id)).body.order_items;
    expect(items.map((i: any) => [i.total_capturable, i.quantity_capturable])).toEqual([[0, 1], [1000, 1]]);
  });
});

describe('transport errors', () => {
  it('headers over the limit answer 431 in the contract shape, and close the connection', async () => {
    const { text, error } = await rawExchange(`GET /payments/v1/payment_sessions HTTP/1.1\r\nHost: x\r\nx-service-api-key: sandbox-dev-key\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(error).toBeUndefined();
    expect(statusLine(text)).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(text).toMatch(/\r\nConnection: close\r\n/i);
    // Answered before the request's Origin is read: the default policy (this machine's pages) sends no CORS header.
    expect(text).not.toMatch(/Access-Control-Allow-Origin/i);
    expect(jsonBody(text)).toEqual({ error: 'RequestHeaderFieldsTooLarge', message: expect.stringContaining('16 KiB') });
  });

  it('a request line that is not HTTP answers 400 in the contract shape', async () => {
    const { text } = await rawExchange('HELLO\r\n\r\n');
    expect(statusLine(text)).toBe('HTTP/1.1 400 Bad Request');
    expect(jsonBody(text).error).toBe('MalformedRequest');
  });
});

describe('an operation without a handler', () => {
  // Every operation of both documents has a handler now. The 501 path stays for an operation the
  // contract gains before the sandbox does: the contract's routes, registered without handlers,
  // answer 501 to any body, read or not.
  async function handlerless() {
    const store = createStore(openDatabase(':memory:'));
    const app = Fastify({ bodyLimit: BODY_LIMIT_BYTES });
    registerErrorPath(app);
    registerJsonParser(app);
    registerAuth(app, DEFAULT_API_KEYS);
    registerOperations(app, {
      validators: new SchemaValidators(loadDocument(CONTRACT_FILE)), handlers: {}, codesFor: codesOf, store, ids: randomIds, publicUrl: () => 'http://127.0.0.1',
    });
    await app.ready();
    return app;
  }
  it.each([
    ['a valid body', { payload: JSON.stringify({ success_url: 'https://a.example', failure_url: 'https://a.example' }), headers: { 'content-type': 'application/json' } }],
    ['an empty Content-Type', { payload: '{"x":1}', headers: { 'content-type': '' } }],
    ['a body over the size limit', { payload: JSON.stringify({ x: 'y'.repeat(300 * 1024) }), headers: { 'content-type': 'application/json' } }],
    ['malformed JSON', { payload: '{', headers: { 'content-type': 'application/json' } }],
    ['a form body', { payload: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
  ])('answers 501 NotImplemented for %s', async (_case, options) => {
    const app = await handlerless();
    const reply = await app.inject({ method: 'POST', url: '/api/v1/payment_tokens/create', headers: { ...options.headers, 'x-service-api-key': 'sandbox-dev-key' }, payload: options.payload });
    expect({ status: reply.statusCode, error: reply.json().error }).toEqual({ status: 501, error: 'NotImplemented' });
    await app.close();
  });
});

describe('rules the reference states, kept exactly', () => {
  it('rule 4: a retry whose ignored fields break the schema still returns the original session', async () => {
    const first = await s.post('/payments/v1/create_payment_session', sessionRequest({ idempotency_key: 'k-rule4' }));
    const retry = await s.post('/payments/v1/create_payment_session', sessionRequest({ idempotency_key: 'k-rule4', customer_state: 'California', metadata: { a: 1 } }));
    expect({ status: retry.status, id: retry.body.id }).toEqual({ status: 200, id: first.body.id });
    expect((await s.detail(first.body.id)).body.metadata).toBe('{"order_id":"A-1001"}');
    expect(rowsIn('dev')).toBe(1);
  });

  it('rule 4 does not excuse a bad ignored field without an original, nor a bad compared field', async () => {
    const fresh = await s.post('/payments/v1/create_payment_session', sessionRequest({ idempotency_key: 'k-new', metadata: { a: 1 } }));
    expect({ status: fresh.status, error: fresh.body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
    await s.post('/payments/v1/create_payment_session', sessionRequest({ idempotency_key: 'k-cmp' }));
    const compared = await s.post('/payments/v1/create_payment_session', sessionRequest({ idempotency_key: 'k-cmp', customer_email: 'not an email' }));
    expect({ status: compared.status, error: compared.body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
  });

  it('status_summary is Disputed, not Refunded, when an accepted chargeback took the whole amount without a refund', async () => {
    const id = await s.capturedOneTime();
    const dispute = (await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, {})).body;
    expect((await s.detail(id)).body.status_summary).toBe('Disputed');
    expect((await s.post(`/v1/disputes/${dispute.dispute_id}/accept`, {})).status).toBe(200);
    expect((await s.detail(id)).body).toMatchObject({ status: 'captured', status_summary: 'Disputed' });
    const listed = await s.get('/payments/v1/payment_sessions?summarize_refunds=true');
    expect(listed.body.payment_sessions[0]).toMatchObject({ id, status_summary: 'Disputed', refund_amount: 0 });
  });

  it('status_summary stays Disputed after a lost dispute, also beside a refund; Refunded when refunds alone took it all', async () => {
    const disputed = await s.capturedOneTime(); // 7799
    await s.post('/payments/v1/refund', { payment_id: disputed, amount: 799, idempotency_key: 'rf-part', reason: 'customer_request' });
    const lost = (await s.post(`/sandbox/v1/payment_sessions/${disputed}/disputes`, { amount: 1000 })).body;
    await s.post(`/sandbox/v1/disputes/${lost.dispute_id}/resolve`, { outcome: 'lost' });
    expect((await s.detail(disputed)).body.status_summary).toBe('Disputed');
    const won = await s.capturedOneTime({ idempotency_key: 'won-one' });
    const wonDispute = (await s.post(`/sandbox/v1/payment_sessions/${won}/disputes`, {})).body;
    await s.post(`/sandbox/v1/disputes/${wonDispute.dispute_id}/resolve`, { outcome: 'won' });
    expect((await s.detail(won)).body.status_summary).toBe('Captured');
    const refunded = await s.capturedOneTime({ idempotency_key: 'refunded-one' });
    await s.post('/payments/v1/refund', { payment_id: refunded, amount: 7799, idempotency_key: 'rf-all', reason: 'customer_request' });
    expect((await s.detail(refunded)).body.status_summary).toBe('Refunded');
  });

  it('a dispute cannot claim more than the capture less refunds and other open disputes', async () => {
    const id = await s.capturedOneTime(); // 7799 captured
    await s.post('/payments/v1/refund', { payment_id: id, amount: 799, idempotency_key: 'rf', reason: 'customer_request' });
    const tooMuch = await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, { amount: 7001 });
    expect({ status: tooMuch.status, error: tooMuch.body.error }).toEqual({ status: 400, error: 'InvalidRequest' });
    expect((await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, { amount: 4000 })).status).toBe(200);
    const second = await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, {});
    expect(second.body.amount).toBe(3000);
    const none = await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, { amount: 1 });
    expect({ status: none.status, error: none.body.error }).toEqual({ status: 400, error: 'InvalidState' });
  });
});

describe('transport errors are declared', () => {
  it('every body the parser-level handler writes validates against SandboxError', async () => {
    const { SANDBOX_FILE, SchemaValidators, loadDocument } = await import('../../src/sandbox/http/document.js');
    const { TRANSPORT_ERRORS } = await import('../../src/sandbox/http/transport-errors.js');
    const validate = new SchemaValidators(loadDocument(SANDBOX_FILE)).at('#/components/schemas/SandboxError');
    for (const { error, message } of Object.values(TRANSPORT_ERRORS)) expect(validate({ error, message }), error).toBe(true);
  });
});

describe('what a second probe found', () => {
  it.each(['QUERY', 'TRACE', 'PROPFIND', 'PURGE', 'M-SEARCH'])('%s on a path of the documents needs the key, then answers 405', async (method) => {
    expect((await s.call(method, '/sandbox/v1/clock', { key: null })).status).toBe(401);
    const reply = await s.call(method, '/payments/v1/payment_sessions');
    expect({ status: reply.status, error: reply.body.error, allow: reply.headers.allow }).toEqual({ status: 405, error: 'MethodNotAllowed', allow: 'GET' });
  });

  it('a request without Host answers MalformedRequest, not an empty 400', async () => {
    const { text } = await rawExchange('GET /sandbox/v1/clock HTTP/1.1\r\nx-service-api-key: sandbox-dev-key\r\n\r\n');
    expect(statusLine(text)).toBe('HTTP/1.1 400 Bad Request');
    expect(jsonBody(text).error).toBe('MalformedRequest');
  });

  it('an Expect the sandbox cannot meet answers 417 in the contract shape', async () => {
    const { text } = await rawExchange('GET /payments/v1/payment_sessions HTTP/1.1\r\nHost: x\r\nx-service-api-key: sandbox-dev-key\r\nExpect: 200-ok\r\n\r\n');
    expect(statusLine(text)).toBe('HTTP/1.1 417 Expectation Failed');
    expect(jsonBody(text).error).toBe('MalformedRequest');
  });

  it('CONNECT answers 405 in the contract shape instead of a dropped connection', async () => {
    const { text } = await rawExchange('CONNECT 127.0.0.1:4010 HTTP/1.1\r\nHost: 127.0.0.1:4010\r\n\r\n');
    expect(statusLine(text)).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(jsonBody(text).error).toBe('MethodNotAllowed');
  });

  it('cancel ignores a body whose Content-Type fastify cannot parse', async () => {
    const id = await s.createSession();
    const reply = await s.call('POST', `${s.session(id)}/cancel`, { raw: 'x', headers: { 'content-type': 'application/json, text/plain' } });
    expect({ status: reply.status, state: reply.body.status }).toEqual({ status: 200, state: 'canceled' });
  });

  it('a compressed body is refused, not read as if it were plain', async () => {
    const reply = await s.call('POST', '/sandbox/v1/clock/advance', { raw: '{"seconds":1}', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 400, error: 'InvalidRequest' });
    expect(reply.body.message).toContain('Content-Encoding gzip');
    expect(await clockOf()).toBe(0);
  });

  it('the clock stops at the end of year 9999, however long real time runs', async () => {
    const { clockRepository } = await import('../../src/sandbox/store/clock.js');
    const { factCache } = await import('../../src/sandbox/store/fact-cache.js');
    let real = Date.parse('9999-12-31T23:59:00Z');
    const clock = clockRepository(s.store.db, factCache(s.store.db), () => real);
    clock.advance('dev', 30);
    real += 10 * 60_000;
    expect(clock.now('dev')).toBe('9999-12-31T23:59:59.999Z');
  });
});

describe('what a third probe found', () => {
  it('a search holding a NUL answers 200, not a 500 from the search index', async () => {
    await s.createSession();
    for (const search of ['ab%00', 'jan%00e', '%00abc']) {
      const reply = await s.get(`/payments/v1/payment_sessions?search=${search}`);
      expect({ search, status: reply.status, count: reply.body.pagination.count }).toEqual({ search, status: 200, count: 0 });
    }
  });

  it('a date-time whose offset carries it past year 9999 still compares as the instant it is', async () => {
    await s.createSession();
    const count = async (query: string) => (await s.get(`/payments/v1/payment_sessions?${query}`)).body.pagination.count;
    expect(await count('created_on_end=9999-12-31T23:59:59-01:00')).toBe(1);
    expect(await count('created_on_start=9999-12-31T23:59:59-01:00')).toBe(0);
    expect(await count('created_on_start=0000-01-01T00:00:00%2B01:00')).toBe(1);
  });

  it('refuses a --cors-origin that cannot be a header, at start', async () => {
    const { buildSandbox } = await import('../../src/sandbox/http/app.js');
    for (const origin of ['http://a.example\nX-Evil: 1', 'http://ü.example', 'not an origin', 'http://a.example/path']) {
      expect(() => buildSandbox({ store: s.store, corsOrigin: origin })).toThrow(/--cors-origin/);
    }
    expect(() => buildSandbox({ store: s.store, corsOrigin: 'http://localhost:5173' })).not.toThrow();
  });

  it('resets every channel through SQL, leaving the database file a database', async () => {
    await s.createSession();
    await s.createSession({}, { key: OTHER_KEY });
    expect(s.store.transaction(() => s.store.reset.all()).payment_sessions).toBe(2);
    expect(s.store.db.prepare('SELECT COUNT(*) FROM payment_sessions').pluck().get()).toBe(0);
    expect(s.store.db.prepare('SELECT SUM(n) FROM session_counts').pluck().get()).toBe(0);
  });
});

describe('found by fuzzing the token and catalog operations', () => {
  it('delete payment token reads no body: malformed JSON or another content type does not stop it', async () => {
    const token = async (email: string) => {
      const { body } = await s.post('/api/v1/payment_tokens/create', { success_url: 'https://a.example', failure_url: 'https://a.example', customer_email: email });
      return (await s.post(`/sandbox/v1/provision_requests/${body.provision_token_request_id}/complete`, { skus: [] })).body.payment_token as string;
    };
    const first = await token('one@example.com');
    expect((await s.call('POST', `/api/v1/payment_tokens/${first}/delete`, { raw: '}}%', headers: { 'content-type': 'application/json' } })).status).toBe(200);
    const second = await token('two@example.com');
    expect((await s.call('POST', `/api/v1/payment_tokens/${second}/delete`, { raw: '{}', headers: { 'content-type': 'application/merge-patch+json' } })).status).toBe(200);
    expect((await s.get(`/api/v1/payment_tokens/${second}`)).status).toBe(404);
  });

  it.each(['/api/v1/payment_tokens/provision_request/%2e%2e', '/api/v1/payment_tokens/', '/payments/v1/payment_session/', '/payments/v1/payment_session/x/%2e%2e'])(
    'answers 404 NotFound, not an undeclared 400, for an empty path id: GET %s', async (url) => {
      const reply = await s.get(url);
      expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 404, error: 'NotFound' });
    });
});
