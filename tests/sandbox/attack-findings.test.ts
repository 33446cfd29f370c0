// What a hostile-input pass found, each pinned by the exact request that got through: a foreign
// host in an absolute-form target or a second Host header, a port no Host can have, a transfer
// coding or a charset the sandbox would not decode, control characters in a redirect URL, an
// origin no browser sends taken for this machine's, and request lines HTTP/1.1 refuses.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allowedOrigin } from '../../src/sandbox/http/cors.js';
import { jsonBody, rawExchange, statusLine } from '../support/raw-http.js';
import { sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => { s = testSandbox(); });
afterEach(() => s.close());

const sessionsStored = () => s.store.db.prepare('SELECT COUNT(*) FROM payment_sessions').pluck().get() as number;
const KEY_LINE = 'x-service-api-key: sandbox-dev-key\r\n';

describe('the host a request is for', () => {
  it('GET http://evil.example/payments/v1/payment_sessions with Host 127.0.0.1 answers 403: an absolute-form target names the host, not Host', async () => {
    const { text } = await rawExchange(s.app, `GET http://evil.example/payments/v1/payment_sessions HTTP/1.1\r\nHost: 127.0.0.1:4931\r\n${KEY_LINE}Connection: close\r\n\r\n`);
    expect(statusLine(text)).toBe('HTTP/1.1 403 Forbidden');
    expect(jsonBody(text)).toEqual({ error: 'Forbidden', message: expect.stringContaining('"evil.example"') });
  });

  it.each(['https://evil.example:443/health', 'http://evil.example', 'http://user@127.0.0.1/health'])('refuses the absolute-form target %s too', async (target) => {
    const { text } = await rawExchange(s.app, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(statusLine(text)).toBe('HTTP/1.1 403 Forbidden');
  });

  it('answers an absolute-form target that names the sandbox, whatever Host says', async () => {
    const { text } = await rawExchange(s.app, `GET http://localhost:4010/payments/v1/payment_sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n${KEY_LINE}Connection: close\r\n\r\n`);
    expect(statusLine(text)).toBe('HTTP/1.1 200 OK');
  });

  it.each([['127.0.0.1', 'evil.example'], ['evil.example', '127.0.0.1'], ['127.0.0.1', '127.0.0.1']])('two Host headers (%s, then %s) answer 400 MalformedRequest, whichever comes first', async (first, second) => {
    const { text } = await rawExchange(s.app, `GET /payments/v1/payment_sessions HTTP/1.1\r\nHost: ${first}\r\nHost: ${second}\r\n${KEY_LINE}Connection: close\r\n\r\n`);
    expect(statusLine(text)).toBe('HTTP/1.1 400 Bad Request');
    expect(jsonBody(text)).toEqual({ error: 'MalformedRequest', message: 'A request has one Host header, not several (RFC 9112, 3.2).' });
  });

  it.each(['127.0.0.1:99999', 'localhost:65536'])('Host %s, a port no address has, answers 403', async (host) => {
    expect((await s.app.inject({ method: 'GET', url: '/health', headers: { host } })).statusCode).toBe(403);
  });

  it('Host 127.0.0.1:65535, the last port, is served', async () => {
    expect((await s.app.inject({ method: 'GET', url: '/health', headers: { host: '127.0.0.1:65535' } })).statusCode).toBe(200);
  });
});

describe('a body the sandbox would not read as sent', () => {
  const body = JSON.stringify(sessionRequest({ idempotency_key: 'te-gzip' }));

  it('Transfer-Encoding: gzip, chunked answers 501 NotImplemented, and no session is created', async () => {
    const { text } = await rawExchange(s.app, `POST /payments/v1/create_payment_session HTTP/1.1\r\nHost: 127.0.0.1:4931\r\n${KEY_LINE}content-type: application/json\r\ntransfer-encoding: gzip, chunked\r\nConnection: close\r\n\r\n${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`);
    expect(statusLine(text)).toBe('HTTP/1.1 501 Not Implemented');
    expect(jsonBody(text)).toEqual({ error: 'NotImplemented', message: expect.stringContaining('no transfer coding but chunked') });
    expect(sessionsStored()).toBe(0);
  });

  it('a chunked body alone is read', async () => {
    const { text } = await rawExchange(s.app, `POST /payments/v1/create_payment_session HTTP/1.1\r\nHost: 127.0.0.1\r\n${KEY_LINE}content-type: application/json\r\ntransfer-encoding: chunked\r\nConnection: close\r\n\r\n${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`);
    expect(statusLine(text)).toBe('HTTP/1.1 200 OK');
    expect(sessionsStored()).toBe(1);
  });

  it.each(['utf-16', 'latin1', 'ISO-8859-1', '"utf-16le"'])('content-type application/json; charset=%s answers 400 naming the charset, and stores nothing', async (charset) => {
    const reply = await s.call('POST', '/payments/v1/create_payment_session', { raw: body, headers: { 'content-type': `application/json; charset=${charset}` } });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: 'InvalidRequestParameter', message: `The sandbox reads JSON as UTF-8: send charset=utf-8 or no charset, not charset=${charset.replace(/"/g, '').toLowerCase()}.` });
    expect(sessionsStored()).toBe(0);
  });

  it.each(['utf-8', 'UTF-8', 'utf8', '"utf-8"'])('charset=%s is UTF-8, and read', async (charset) => {
    const reply = await s.call('POST', '/payments/v1/create_payment_session', { raw: body, headers: { 'content-type': `application/json; charset=${charset}` } });
    expect(reply.status).toBe(200);
  });
});

describe('a redirect URL with a control character', () => {
  it('success_url "https://shop.example/\\r\\nX-Injected: 1" answers 400 InvalidRequestParameter: the URL parser would drop the CR LF and send the customer elsewhere', async () => {
    const reply = await s.post('/payments/v1/create_payment_session', sessionRequest({ idempotency_key: 'crlf-1', success_url: 'https://shop.example/\r\nX-Injected: 1' }));
    expect(reply.body).toEqual({ error: 'InvalidRequestParameter', message: 'success_url is not a valid URL.' });
    expect(sessionsStored()).toBe(0);
  });

  it.each(['https://shop.example/a\tb', 'https://shop.example/\u0000', 'https://shop.example/\u007f'])('failure_url %j too, and create payment token refuses it as well', async (url) => {
    expect((await s.post('/payments/v1/create_payment_session', sessionRequest({ failure_url: url }))).body.error).toBe('InvalidRequestParameter');
    const token = await s.post('/api/v1/payment_tokens/create', { success_url: 'https://shop.example/ok', failure_url: url });
    expect(token.body).toEqual({ error: 'ValidationError', message: 'failure_url is not a valid URL: an absolute http or https URL is required.' });
  });

  it('a space, which the parser encodes rather than drops, is kept as before', async () => {
    expect((await s.post('/payments/v1/create_payment_session', sessionRequest({ success_url: 'https://shop.example/thank you' }))).status).toBe(200);
  });
});

describe('an origin no browser sends', () => {
  it('a preflight from http://127.999.1.1 gets no Access-Control-Allow-Origin', async () => {
    const reply = await s.app.inject({ method: 'OPTIONS', url: '/payments/v1/create_payment_session', headers: { origin: 'http://127.999.1.1', 'access-control-request-method': 'POST' } });
    expect(reply.statusCode).toBe(204);
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });

  it.each([
    ['http://127.0.0.1:65536', undefined], ['http://127.0.0.1:0099', undefined], ['http://127.1', undefined], ['HTTP://LOCALHOST:5173', undefined],
    ['http://127.0.0.1:65535', 'http://127.0.0.1:65535'], ['https://127.255.255.255', 'https://127.255.255.255'], ['http://[::1]:8080', 'http://[::1]:8080'], ['http://localhost:5173', 'http://localhost:5173'],
    ['http://128.0.0.1', undefined], ['http://localhost.evil.example', undefined], ['ws://localhost:5173', undefined], ['null', undefined],
  ])('the loopback policy answers the Origin %s with %s', (origin, allowed) => {
    expect(allowedOrigin('loopback', origin)).toBe(allowed);
  });
});

describe('request lines HTTP/1.1 refuses', () => {
  it('GET * answers 400 MalformedRequest, not the index page', async () => {
    const { text } = await rawExchange(s.app, 'GET * HTTP/1.1\r\nHost: 127.0.0.1:4931\r\nConnection: close\r\n\r\n');
    expect(statusLine(text)).toBe('HTTP/1.1 400 Bad Request');
    expect(jsonBody(text)).toEqual({ error: 'MalformedRequest', message: 'The request target * is for OPTIONS only: name a path.' });
  });

  it('GET /health HTTP/2.0 answers 400 MalformedRequest', async () => {
    const { text } = await rawExchange(s.app, 'GET /health HTTP/2.0\r\nHost: 127.0.0.1:4931\r\nConnection: close\r\n\r\n');
    expect(statusLine(text)).toBe('HTTP/1.1 400 Bad Request');
    expect(jsonBody(text).message).toContain('HTTP/1.1');
  });

  it('HTTP/1.0 without a Host is still served', async () => {
    const { text } = await rawExchange(s.app, 'GET /health HTTP/1.0\r\n\r\n');
    expect(statusLine(text)).toMatch(/^HTTP\/1\.1 200/);
  });

  it('a body that stalls is cut after a minute (the server\'s request timeout), not held open without end', () => {
    expect(s.app.server.requestTimeout).toBe(60_000);
  });
});
