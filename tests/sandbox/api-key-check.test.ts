// The API key is checked on the route the request matches, not on the URL's spelling: an encoded path
// or an absolute-form request line without a key answers 401 and changes nothing, every route of the
// contract and the helpers refuses a missing, empty or unknown key, and a method the documents do not
// name needs the key before it answers 405. Pages for people and the documents need none.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBody, rawExchange as rawHttp, statusLine } from '../support/raw-http.js';
import { OTHER_KEY, sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

const rowsIn = (channel: string) =>
  s.store.db.prepare('SELECT COUNT(*) FROM payment_sessions WHERE channel = ?').pluck().get(channel) as number;
const clockOf = async (key?: string) =>
  (await s.get('/sandbox/v1/clock', key ? { key } : {})).body.offset_seconds as number;

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
    const { text } = await rawExchange(
      'GET http://127.0.0.1:4010/payments/v1/payment_sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    expect(statusLine(text)).toBe('HTTP/1.1 401 Unauthorized');
    expect(jsonBody(text).error).toBe('Unauthorized');
  });

  it.each([
    ['an unknown key', { key: 'nope' }],
    ['an empty key', { key: '' }],
    ['no key', { key: null }],
  ])('every route of the contract and the helpers refuses %s with 401', async (_case, options) => {
    for (const [method, url] of [
      ['GET', '/payments/v1/payment_sessions'],
      ['GET', '/payments/v1/payment_session/x'],
      ['POST', '/payments/v1/refund'],
      ['GET', '/api/v1/payment_tokens'],
      ['GET', '/v1/disputes'],
      ['GET', '/sandbox/v1/outbox'],
      ['PUT', '/sandbox/v1/features'],
      ['DELETE', '/payments/v1/refund'],
      ['GET', '/%61pi/v1/disputes/x'],
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

describe('a method the documents do not name', () => {
  it.each(['QUERY', 'TRACE', 'PROPFIND', 'PURGE', 'M-SEARCH'])(
    '%s on a path of the documents needs the key, then answers 405',
    async (method) => {
      expect((await s.call(method, '/sandbox/v1/clock', { key: null })).status).toBe(401);
      const reply = await s.call(method, '/payments/v1/payment_sessions');
      expect({ status: reply.status, error: reply.body.error, allow: reply.headers.allow }).toEqual({
        status: 405,
        error: 'MethodNotAllowed',
        allow: 'GET',
      });
    },
  );
});
