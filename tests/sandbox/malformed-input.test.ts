// Bad input gets a clear error in the contract's shape and the operation's own code: never a 500,
// never a stack trace, and nothing is written.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBody, rawExchange, statusLine } from '../support/raw-http.js';
import { sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

const json = { 'content-type': 'application/json' };
const sessionsCount = async () => (await s.get('/payments/v1/payment_sessions')).body.pagination.count as number;

describe('malformed requests', () => {
  it.each([
    [
      'malformed JSON',
      '/payments/v1/create_payment_session',
      '{"total_amount": 7799,',
      'InvalidRequestParameter',
      /not valid JSON/,
    ],
    ['an empty body', '/payments/v1/create_payment_session', '', 'MissingRequiredParameter', /body is required/],
    ['a JSON array', '/payments/v1/create_payment_session', '[]', 'InvalidRequestParameter', /object/],
    [
      'only a __proto__ key, which is dropped',
      '/payments/v1/create_payment_session',
      '{"__proto__": {"admin": true}}',
      'MissingRequiredParameter',
      /required/,
    ],
    ['malformed JSON on capture', '/payments/v1/payment_session/x/capture', '{', 'MissingField', /not valid JSON/],
    ['malformed JSON on refund', '/payments/v1/refund', 'nope', 'MissingField', /not valid JSON/],
  ])('%s answers 400 with the operation code', async (_case, url, raw, error, message) => {
    const { status, body } = await s.call('POST', url, { raw, headers: json });
    expect({ status, error: body.error }).toEqual({ status: 400, error });
    expect(body.message).toMatch(message);
    expect(JSON.stringify(body)).not.toMatch(/at \w+ \(|node_modules/);
    expect(await sessionsCount()).toBe(0);
  });

  it('answers wrong types with the field named', async () => {
    const { body } = await s.post('/payments/v1/create_payment_session', sessionRequest({ customer_name: 42 }));
    expect(body).toEqual({ error: 'InvalidRequestParameter', message: 'customer_name must be a string.' });
    const capture = await s.post('/payments/v1/payment_session/x/capture', { total_amount: '100' });
    expect(capture.body.error).toBe('TotalAmountInvalid');
  });

  it('accepts unknown fields, which the real service may take, and ignores them', async () => {
    const id = await s.authorized();
    const { status, body } = await s.post(`/payments/v1/payment_session/${id}/capture`, {
      total_amount: 100,
      amount: 100,
    });
    expect(status).toBe(200);
    expect((await s.detail(id)).body.capture_amount).toBe(100);
    expect(body.id).toMatch(/^cap_/);
  });

  it('answers a body above 256 KiB without reading it', async () => {
    const huge = JSON.stringify(sessionRequest({ metadata: 'x'.repeat(300 * 1024) }));
    const { status, body } = await s.call('POST', '/payments/v1/create_payment_session', { raw: huge, headers: json });
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
    expect(body.message).toContain('256 KiB');
    expect(await sessionsCount()).toBe(0);
  });

  it('answers a body that is not JSON', async () => {
    const { status, body } = await s.call('POST', '/payments/v1/create_payment_session', {
      raw: 'total_amount=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect({ status, body }).toEqual({
      status: 400,
      body: { error: 'InvalidRequestParameter', message: 'Send the request body as application/json.' },
    });
  });

  it('answers an unknown route with 404 NotFound and a wrong method with 405 MethodNotAllowed', async () => {
    expect((await s.get('/payments/v1/nothing')).body.error).toBe('NotFound');
    const wrong = await s.call('DELETE', '/payments/v1/create_payment_session');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
    expect((await s.call('PUT', '/sandbox/v1/clock')).status).toBe(405);
  });
});

describe('request lines HTTP/1.1 refuses', () => {
  it('GET * answers 400 MalformedRequest, not the index page', async () => {
    const { text } = await rawExchange(s.app, 'GET * HTTP/1.1\r\nHost: 127.0.0.1:4931\r\nConnection: close\r\n\r\n');
    expect(statusLine(text)).toBe('HTTP/1.1 400 Bad Request');
    expect(jsonBody(text)).toEqual({
      error: 'MalformedRequest',
      message: 'The request target * is for OPTIONS only: name a path.',
    });
  });

  it('GET /health HTTP/2.0 answers 400 MalformedRequest', async () => {
    const { text } = await rawExchange(
      s.app,
      'GET /health HTTP/2.0\r\nHost: 127.0.0.1:4931\r\nConnection: close\r\n\r\n',
    );
    expect(statusLine(text)).toBe('HTTP/1.1 400 Bad Request');
    expect(jsonBody(text).message).toContain('HTTP/1.1');
  });

  it('HTTP/1.0 without a Host is served', async () => {
    const { text } = await rawExchange(s.app, 'GET /health HTTP/1.0\r\n\r\n');
    expect(statusLine(text)).toMatch(/^HTTP\/1\.1 200/);
  });

  it("a body that stalls is cut after a minute (the server's request timeout), not held open without end", () => {
    expect(s.app.server.requestTimeout).toBe(60_000);
  });
});

describe('a URL the router cannot read', () => {
  it('answers URLs the router cannot read, and over-long ids, with the contract 404', async () => {
    for (const path of ['/payments/v1/payment_session/%ZZ', `/payments/v1/payment_session/${'a'.repeat(2000)}`]) {
      const { status, body } = await s.get(path);
      expect({ status, error: body.error }).toEqual({ status: 404, error: 'NotFound' });
    }
  });

  it.each([
    '/api/v1/payment_tokens/provision_request/%2e%2e',
    '/api/v1/payment_tokens/',
    '/payments/v1/payment_session/',
    '/payments/v1/payment_session/x/%2e%2e',
  ])('answers 404 NotFound, not an undeclared 400, for an empty path id: GET %s', async (url) => {
    const reply = await s.get(url);
    expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 404, error: 'NotFound' });
  });
});
