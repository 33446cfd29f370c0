// What Schemathesis (npm run conformance) found, each as the exact request it sent first, then the
// answer the documents require.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionRequest, testSandbox, type TestSandbox } from '../support/sandbox.js';

let s: TestSandbox;
beforeEach(() => { s = testSandbox(); });
afterEach(() => s.close());

describe('an empty query value is not an absent one', () => {
  it.each([
    ['/api/v1/payment_tokens?lmn_expires_before=', 'lmn_expires_before'],
    ['/api/v1/product_catalog/items/list?updated_after=', 'updated_after'],
    ['/payments/v1/payment_sessions?created_on_start=', 'created_on_start'],
    ['/payments/v1/payment_sessions?page_size=', 'page_size'],
    ['/sandbox/v1/outbox?event_type=', 'event_type'],
    ['/sandbox/v1/webhook_deliveries?after=', 'after'],
  ])('GET %s is refused: an empty string is no date, number or enum value', async (url, parameter) => {
    const { status, body } = await s.get(url);
    expect({ status, named: String(body.message).includes(parameter) }).toEqual({ status: 400, named: true });
  });

  it('is still absent where the schema admits an empty string (a name to search for)', async () => {
    const { status, body } = await s.get('/api/v1/payment_tokens?email=&name=');
    expect(status).toBe(200);
    expect(body.pagination.count).toBe(0);
  });
});

describe('a page number is an int64, as the document declares', () => {
  it.each([
    '/api/v1/product_catalog/items/list?page=45401512533572736',
    '/payments/v1/payment_sessions?page=45401512533572736',
    '/api/v1/payment_tokens?page=9223372036854775807',
  ])('GET %s answers an empty page, not a refusal', async (url) => {
    const { status, body } = await s.get(url);
    expect(status).toBe(200);
    expect(body.data ?? body.payment_sessions ?? body.payment_tokens).toEqual([]);
  });

  it('past int64 it is refused', async () => {
    const { status, body } = await s.get('/api/v1/payment_tokens?page=9223372036854775808');
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
  });
});

describe('the helpers\' document says which webhook endpoint URLs the sandbox takes', () => {
  it('POST /sandbox/v1/webhook_endpoints with url "0" is refused, and the document no longer calls "0" valid', async () => {
    const { status, body } = await s.post('/sandbox/v1/webhook_endpoints', { event_types: ['*'], mode: 'legacy', secret: 'whsec_conformance', url: '0' });
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequest' });
    const { components } = (await import('../../generated/sandbox.json', { with: { type: 'json' } })).default as any;
    const url = components.schemas.WebhookEndpointRequest.properties.url;
    const pattern = new RegExp(url.pattern, 'u');
    expect(url.format).toBe('uri');
    expect(['0', 'ftp://hooks.example/x', 'https://user:pw@hooks.example/x'].filter((u) => pattern.test(u))).toEqual([]);
    expect(['https://hooks.example/webhooks', 'HTTP://127.0.0.1:9000'].every((u) => pattern.test(u))).toBe(true);
  });
});

describe('a __proto__ or constructor key is an unknown field like any other: dropped, not refused', () => {
  it('POST /api/v1/payment_tokens/{payment_token}/update with a __proto__ key answers as without it', async () => {
    // The exact request: an update whose body the documents admit (its object is open).
    const raw = '{"__proto__": {"x": 1}, "constructor": {"prototype": {"y": 2}}, "update_card_info": true}';
    const { status, body } = await s.call('POST', '/api/v1/payment_tokens/%402dT%C2%BB/update', { raw });
    expect({ status, error: body.error }).toEqual({ status: 404, error: 'NotFound' });
    expect(({} as any).x).toBeUndefined();
  });

  it('a session created with one is created, and the key is nowhere', async () => {
    const request = JSON.stringify(sessionRequest()).replace(/^\{/, '{"__proto__": {"admin": true}, ');
    const { status, body } = await s.call('POST', '/payments/v1/create_payment_session', { raw: request });
    expect(status).toBe(200);
    expect(JSON.stringify((await s.detail(body.id)).body)).not.toContain('admin');
    expect(({} as any).admin).toBeUndefined();
  });
});
