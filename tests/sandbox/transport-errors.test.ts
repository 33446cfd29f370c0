// What the HTTP layer answers before any route, each in the contract's error shape: headers over the
// limit, a request line that is not HTTP, a request without Host, an Expect the sandbox cannot meet,
// CONNECT; and every body it writes is a SandboxError of the helpers' document.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBody, rawExchange as rawHttp, statusLine } from '../support/raw-http.js';
import { testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

const rawExchange = (request: string) => rawHttp(s.app, request);

describe('transport errors', () => {
  it('headers over the limit answer 431 in the contract shape, and close the connection', async () => {
    const { text, error } = await rawExchange(
      `GET /payments/v1/payment_sessions HTTP/1.1\r\nHost: x\r\nx-service-api-key: sandbox-dev-key\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(error).toBeUndefined();
    expect(statusLine(text)).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(text).toMatch(/\r\nConnection: close\r\n/i);
    // Answered before the request's Origin is read: the default policy (this machine's pages) sends no CORS header.
    expect(text).not.toMatch(/Access-Control-Allow-Origin/i);
    expect(jsonBody(text)).toEqual({
      error: 'RequestHeaderFieldsTooLarge',
      message: expect.stringContaining('16 KiB'),
    });
  });

  it('a request line that is not HTTP answers 400 in the contract shape', async () => {
    const { text } = await rawExchange('HELLO\r\n\r\n');
    expect(statusLine(text)).toBe('HTTP/1.1 400 Bad Request');
    expect(jsonBody(text).error).toBe('MalformedRequest');
  });
});

describe('requests HTTP allows and the sandbox cannot serve', () => {
  it('a request without Host answers MalformedRequest, not an empty 400', async () => {
    const { text } = await rawExchange('GET /sandbox/v1/clock HTTP/1.1\r\nx-service-api-key: sandbox-dev-key\r\n\r\n');
    expect(statusLine(text)).toBe('HTTP/1.1 400 Bad Request');
    expect(jsonBody(text).error).toBe('MalformedRequest');
  });

  it('an Expect the sandbox cannot meet answers 417 in the contract shape', async () => {
    const { text } = await rawExchange(
      'GET /payments/v1/payment_sessions HTTP/1.1\r\nHost: x\r\nx-service-api-key: sandbox-dev-key\r\nExpect: 200-ok\r\n\r\n',
    );
    expect(statusLine(text)).toBe('HTTP/1.1 417 Expectation Failed');
    expect(jsonBody(text).error).toBe('MalformedRequest');
  });

  it('CONNECT answers 405 in the contract shape instead of a dropped connection', async () => {
    const { text } = await rawExchange('CONNECT 127.0.0.1:4010 HTTP/1.1\r\nHost: 127.0.0.1:4010\r\n\r\n');
    expect(statusLine(text)).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(jsonBody(text).error).toBe('MethodNotAllowed');
  });
});

describe('transport errors are declared', () => {
  it('every body the parser-level handler writes validates against SandboxError', async () => {
    const { SANDBOX_FILE, SchemaValidators, loadDocument } = await import('../../src/sandbox/http/document.js');
    const { TRANSPORT_ERRORS } = await import('../../src/sandbox/http/transport-errors.js');
    const validate = new SchemaValidators(loadDocument(SANDBOX_FILE)).at('#/components/schemas/SandboxError');
    for (const { error, message } of Object.values(TRANSPORT_ERRORS))
      expect(validate({ error, message }), error).toBe(true);
  });
});
