// What Schemathesis (npm run conformance) found, each as the exact request it sent first, then the
// answer the documents require.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

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

// Schemathesis with no narrowing (st run --checks all): where the document and the sandbox disagreed.
describe('an empty list filter is the empty list: no filter', () => {
  it.each(['status', 'kind'])('GET /payments/v1/payment_sessions?%s= answers the unfiltered list', async (name) => {
    const { status, body } = await s.get(`/payments/v1/payment_sessions?${name}=`);
    expect(status).toBe(200);
    await s.createSession();
    await s.createSession({ kind: 'one_time_payment' });
    const filtered = await s.get(`/payments/v1/payment_sessions?${name}=`);
    const unfiltered = await s.get('/payments/v1/payment_sessions');
    expect({ before: body.pagination.count, after: filtered.body.pagination.count }).toEqual({ before: 0, after: 2 });
    expect(filtered.body).toEqual(unfiltered.body);
  });

  it('a list with an empty member is still refused', async () => {
    const { status, body } = await s.get('/payments/v1/payment_sessions?status=captured,');
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
  });
});

describe('the eligibility path is a UUID, as the document now says', () => {
  it('GET /api/v1/eligibility/provision_request/0 answers ValidationError, and the document calls "0" invalid', async () => {
    const { status, body } = await s.get('/api/v1/eligibility/provision_request/0');
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'ValidationError' });
    expect(body.message).toContain('provision_token_request_id');
    const contract = (await import('../../generated/openapi.json', { with: { type: 'json' } })).default as any;
    expect(contract.components.parameters.ProvisionTokenRequestId.schema).toMatchObject({ type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$', 'x-inferred-bounds': ['pattern'] });
    expect(contract.components.parameters.ProvisionTokenRequestId.schema.format).toBeUndefined();
  });

  it('a UUID that names no request answers 404, as before', async () => {
    const { status, body } = await s.get('/api/v1/eligibility/provision_request/00000000-0000-4000-8000-000000000000');
    expect({ status, error: body.error }).toEqual({ status: 404, error: 'NotFound' });
  });
});

describe('page_size is at most 1000 on every list, as the document now says', () => {
  it.each([
    '/api/v1/payment_tokens?page_size=1001',
    '/api/v1/product_catalog/items/list?page_size=1001',
    '/payments/v1/payment_sessions?page_size=1001',
  ])('GET %s answers the list\'s 400', async (url) => {
    const { status, body } = await s.get(url);
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
    expect(body.message).toContain('page_size');
    expect((await s.get(url.replace('1001', '1000'))).status).toBe(200);
  });

  it('the document declares the bound, marked inferred, on every list that has a page_size', async () => {
    const contract = (await import('../../generated/openapi.json', { with: { type: 'json' } })).default as any;
    const lists = Object.values<any>(contract.paths).flatMap((item) => Object.values<any>(item))
      .filter((operation) => (operation.parameters ?? []).some((p: any) => p.$ref === '#/components/parameters/PageSize'))
      .map((operation) => operation.operationId);
    expect(lists.sort()).toEqual(['listCatalogItems', 'listPaymentSessions', 'listPaymentTokens']);
    expect(contract.components.parameters.PageSize.schema).toMatchObject({ minimum: 1, maximum: 1000, 'x-inferred-bounds': ['minimum', 'maximum'] });
  });
});

describe('the checkout method\'s body is an object, as the document says', () => {
  it('POST /api/v1/product_catalog/service_checkout_method with [null, null] is refused with its 400', async () => {
    const { status, body } = await s.post('/api/v1/product_catalog/service_checkout_method', [null, null]);
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
  });

  it.each([
    ['a string', '"x"'],
    ['a number', '0'],
    ['null', 'null'],
    ['malformed JSON', '{"a":'],
  ])('refuses %s', async (_, raw) => {
    const { status, body } = await s.call('POST', '/api/v1/product_catalog/service_checkout_method', { raw });
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
  });

  it('answers an object, with any fields, and no body at all', async () => {
    expect((await s.post('/api/v1/product_catalog/service_checkout_method', {})).status).toBe(200);
    expect((await s.post('/api/v1/product_catalog/service_checkout_method', { sku: 'BPM-200', any: [1] })).status).toBe(200);
    expect((await s.post('/api/v1/product_catalog/service_checkout_method')).status).toBe(200);
  });
});

describe('a JSON null is a body, and no object', () => {
  it('POST /payments/v1/payment_session/{id}/void with the body null is refused with void\'s 400, and the hold stays', async () => {
    const id = await s.authorized();
    const { status, body } = await s.call('POST', `/payments/v1/payment_session/${id}/void`, { raw: 'null' });
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'MissingField' });
    expect((await s.detail(id)).body.status).toBe('authorized');
    // No body at all is still no body: the void goes through.
    expect((await s.post(`/payments/v1/payment_session/${id}/void`)).status).toBe(200);
  });
});
