// The query of a list, read as its document declares it: an empty value is a value (refused where the
// schema refuses an empty string, the empty list where the parameter is a list), a page number is an
// int64, and page_size is at most 1000 on every list; a search may hold a NUL, and a date-time is the
// instant it names, whatever its offset. Each test sends its exact request first.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
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

  it('a list with an empty member is refused', async () => {
    const { status, body } = await s.get('/payments/v1/payment_sessions?status=captured,');
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
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

describe('page_size is at most 1000 on every list, as the document says', () => {
  it.each([
    '/api/v1/payment_tokens?page_size=1001',
    '/api/v1/product_catalog/items/list?page_size=1001',
    '/payments/v1/payment_sessions?page_size=1001',
  ])("GET %s answers the list's 400", async (url) => {
    const { status, body } = await s.get(url);
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
    expect(body.message).toContain('page_size');
    expect((await s.get(url.replace('1001', '1000'))).status).toBe(200);
  });

  it('the document declares the bound, marked inferred, on every list that has a page_size', async () => {
    const contract = (await import('../../generated/openapi.json', { with: { type: 'json' } })).default as any;
    const lists = Object.values<any>(contract.paths)
      .flatMap((item) => Object.values<any>(item))
      .filter((operation) =>
        (operation.parameters ?? []).some((p: any) => p.$ref === '#/components/parameters/PageSize'),
      )
      .map((operation) => operation.operationId);
    expect(lists.sort()).toEqual(['listCatalogItems', 'listPaymentSessions', 'listPaymentTokens']);
    expect(contract.components.parameters.PageSize.schema).toMatchObject({
      minimum: 1,
      maximum: 1000,
      'x-inferred-bounds': ['minimum', 'maximum'],
    });
  });

  it('refuses a page_size above 1000 and a page past int64 on the session list', async () => {
    for (const query of ['page_size=1001', 'page=99999999999999999999']) {
      const { status, body } = await s.get(`/payments/v1/payment_sessions?${query}`, { undocumented: true });
      expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
    }
  });
});

describe('a search or a date-time at the edge of what the list reads', () => {
  it('a search holding a NUL answers 200, not a 500 from the search index', async () => {
    await s.createSession();
    for (const search of ['ab%00', 'jan%00e', '%00abc']) {
      const reply = await s.get(`/payments/v1/payment_sessions?search=${search}`);
      expect({ search, status: reply.status, count: reply.body.pagination.count }).toEqual({
        search,
        status: 200,
        count: 0,
      });
    }
  });

  it('a date-time whose offset carries it past year 9999 still compares as the instant it is', async () => {
    await s.createSession();
    const count = async (query: string) =>
      (await s.get(`/payments/v1/payment_sessions?${query}`)).body.pagination.count;
    expect(await count('created_on_end=9999-12-31T23:59:59-01:00')).toBe(1);
    expect(await count('created_on_start=9999-12-31T23:59:59-01:00')).toBe(0);
    expect(await count('created_on_start=0000-01-01T00:00:00%2B01:00')).toBe(1);
  });
});
