// Bad input gets a clear error in the contract's shape and the operation's own code: never a 500,
// never a stack trace, and nothing is written.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => { s = testSandbox(); });
afterEach(() => s.close());

const json = { 'content-type': 'application/json' };
const sessionsCount = async () => (await s.get('/payments/v1/payment_sessions')).body.pagination.count as number;

describe('malformed requests', () => {
  it.each([
    ['malformed JSON', '/payments/v1/create_payment_session', '{"total_amount": 7799,', 'InvalidRequestParameter', /not valid JSON/],
    ['an empty body', '/payments/v1/create_payment_session', '', 'MissingRequiredParameter', /body is required/],
    ['a JSON array', '/payments/v1/create_payment_session', '[]', 'InvalidRequestParameter', /object/],
    ['only a __proto__ key, which is dropped', '/payments/v1/create_payment_session', '{"__proto__": {"admin": true}}', 'MissingRequiredParameter', /required/],
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
    const { status, body } = await s.post(`/payments/v1/payment_session/${id}/capture`, { total_amount: 100, amount: 100 });
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
    const { status, body } = await s.call('POST', '/payments/v1/create_payment_session', { raw: 'total_amount=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect({ status, body }).toEqual({ status: 400, body: { error: 'InvalidRequestParameter', message: 'Send the request body as application/json.' } });
  });

  it('answers an unknown route with 404 NotFound and a wrong method with 405 MethodNotAllowed', async () => {
    expect((await s.get('/payments/v1/nothing')).body.error).toBe('NotFound');
    const wrong = await s.call('DELETE', '/payments/v1/create_payment_session');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
    expect((await s.call('PUT', '/sandbox/v1/clock')).status).toBe(405);
  });
});
