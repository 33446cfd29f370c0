// A list answers at most 1 MiB of JSON (domain/answer-bounds.ts): 400 sessions with 240 KiB of
// metadata each made one page answer 94 MB in seconds, holding every other request, and each such
// page was kept in memory. Past the bound the list answers its 400 InvalidRequestParameter, saying
// the bound and what to ask instead, having read no row past the bound; a page under it is served
// whole and kept. The same holds for payment tokens (a customer's name) and catalog items (metadata).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../src/sandbox/domain/answer-bounds.js';
import { newCatalogItem } from '../../src/sandbox/domain/catalog.js';
import { newSession } from '../../src/sandbox/domain/create-session.js';
import type { CreateSessionRequest } from '../../src/sandbox/domain/types.js';
import { smallerSessionPage } from '../../src/sandbox/http/handlers/payment-sessions.js';
import { sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
afterEach(async () => {
  vi.restoreAllMocks();
  await s?.close();
});

const KIB_240 = 240 * 1024;
const tooLarge = (instead: string) => ({
  error: 'InvalidRequestParameter',
  message: `The page would answer more than 1048576 bytes (1 MiB) of JSON, the most the sandbox sends in one answer: ${instead}.`,
});

/** `count` sessions of channel dev, each with 240 KiB of metadata, written straight to the store (as 400 creates would). */
function seedSessions(count: number, overrides: Partial<CreateSessionRequest> = {}): void {
  s.store.transaction(() => {
    for (let n = 0; n < count; n++) {
      const request = {
        ...sessionRequest({ idempotency_key: `large-${n}` }),
        metadata: String(n % 10).repeat(KIB_240),
        ...overrides,
      } as CreateSessionRequest;
      const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      s.store.sessions.insert(
        newSession({
          id,
          channel: 'dev',
          request,
          now: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
          newId: () => `item${n}`,
        }),
      );
    }
  });
}

/** Counts the items a list pulls from the store, wrapping `method` of the repository. */
function pulledFrom<R extends object>(repository: R, method: keyof R & string): { pulled: number } {
  const counter = { pulled: 0 };
  const original = (
    repository[method] as (...args: unknown[]) => { items?: Iterable<unknown>; tokens?: Iterable<unknown> }
  ).bind(repository);
  vi.spyOn(repository, method as never).mockImplementation(((...args: unknown[]) => {
    const page = original(...args);
    const field = 'items' in page ? 'items' : 'tokens';
    const source = page[field]!;
    return {
      ...page,
      [field]: (function* counted() {
        for (const item of source) {
          counter.pulled++;
          yield item;
        }
      })(),
    };
  }) as never);
  return counter;
}

describe('a page of sessions larger than 1 MiB', () => {
  it("is refused with the list's 400, read no further than the bound, and kept nowhere", async () => {
    s = testSandbox();
    seedSessions(12);
    const pulled = pulledFrom(s.store.sessions, 'listItems');
    const big = await s.get('/payments/v1/payment_sessions?page_size=400&include_metadata=true');
    expect({ status: big.status, body: big.body }).toEqual({
      status: 400,
      body: tooLarge('ask for fewer sessions per page (a smaller page_size), or leave out include_metadata'),
    });
    // Four items of 240 KiB fit in 1 MiB; the fifth passes it, and no sixth is read.
    expect(pulled.pulled).toBe(5);
    const again = await s.get('/payments/v1/payment_sessions?page_size=400&include_metadata=true');
    expect(again.status).toBe(400);
    expect(pulled.pulled).toBe(10);
  });

  it('names each flag that was asked for, and only those', async () => {
    s = testSandbox();
    const longName = 'n'.repeat(120 * 1024);
    seedSessions(12, {
      order_items: [
        {
          name: longName,
          sku: 'BPM-200',
          quantity: 1,
          price: 7799,
          amount_details: { total_additional_charges: 0, total_discounts: 0 },
        },
      ] as never,
    });
    const both = await s.get(
      '/payments/v1/payment_sessions?page_size=400&include_metadata=true&include_order_items=true',
    );
    expect(both.body).toEqual(
      tooLarge(
        'ask for fewer sessions per page (a smaller page_size), or leave out include_metadata and include_order_items',
      ),
    );
    const items = await s.get('/payments/v1/payment_sessions?page_size=400&include_order_items=true');
    expect(items.body).toEqual(
      tooLarge('ask for fewer sessions per page (a smaller page_size), or leave out include_order_items'),
    );
    expect(smallerSessionPage({})).toBe('ask for fewer sessions per page (a smaller page_size)');
    expect(smallerSessionPage({ include_metadata: false, include_order_items: false, include_service_fee: true })).toBe(
      'ask for fewer sessions per page (a smaller page_size)',
    );
  });

  it('costs what its answer costs: the same refusal whatever the table holds past the bound', async () => {
    s = testSandbox();
    seedSessions(40);
    const pulled = pulledFrom(s.store.sessions, 'listItems');
    expect((await s.get('/payments/v1/payment_sessions?page_size=40&include_metadata=true')).status).toBe(400);
    expect(pulled.pulled).toBe(5);
  });
});

describe('a page of sessions under 1 MiB', () => {
  it('is served whole, every metadata string as written, and kept', async () => {
    s = testSandbox();
    seedSessions(12);
    const pulled = pulledFrom(s.store.sessions, 'listItems');
    const page = await s.get('/payments/v1/payment_sessions?page_size=4&page=2&include_metadata=true');
    expect(page.status).toBe(200);
    expect(page.body.pagination).toEqual({ current_page: 2, page_size: 4, count: 12, last_page: 3 });
    expect(page.body.payment_sessions.map((item: { metadata: string }) => item.metadata)).toEqual(
      ['7', '6', '5', '4'].map((digit) => digit.repeat(KIB_240)),
    );
    expect(Buffer.byteLength(JSON.stringify(page.body))).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
    expect(pulled.pulled).toBe(4);
    // Asked again, it is the kept answer: nothing is read.
    expect((await s.get('/payments/v1/payment_sessions?page_size=4&page=2&include_metadata=true')).body).toEqual(
      page.body,
    );
    expect(pulled.pulled).toBe(4);
  });

  it("of default items stays served in full, whatever the sessions' metadata", async () => {
    s = testSandbox();
    seedSessions(12);
    const page = await s.get('/payments/v1/payment_sessions?page_size=400');
    expect(page.status).toBe(200);
    expect(page.body.payment_sessions).toHaveLength(12);
    expect(page.body.payment_sessions[0]).not.toHaveProperty('metadata');
  });
});

describe('the other lists, past 1 MiB', () => {
  it('refuse a page of payment tokens, and serve a smaller one whole', async () => {
    s = testSandbox();
    s.store.transaction(() => {
      for (let n = 0; n < 8; n++) {
        s.store.tokens.insert({
          token: `ptok_large${n}`,
          channel: 'dev',
          session_id: null,
          status: 'active',
          next_action: null,
          created_at: `2026-01-01T00:00:0${n}.000Z`,
          customer_email: `buyer${n}@example.com`,
          customer_name: String(n).repeat(KIB_240),
          customer_key: `buyer${n}@example.com`,
          card_brand: 'visa',
          card_last4: '4242',
          card_expires: '2030-01',
          lmn_expires_at: null,
          provision_request_id: null,
          metadata: 'm'.repeat(KIB_240),
          success_url: null,
          failure_url: null,
        });
      }
    });
    const pulled = pulledFrom(s.store.tokens, 'listed');
    const big = await s.get('/api/v1/payment_tokens?page_size=400');
    expect({ status: big.status, body: big.body }).toEqual({
      status: 400,
      body: tooLarge('ask for fewer payment tokens per page (a smaller page_size)'),
    });
    expect(pulled.pulled).toBe(5);
    const page = await s.get('/api/v1/payment_tokens?page_size=4');
    expect(page.status).toBe(200);
    expect(page.body.payment_tokens.map((t: { customer_name: string }) => t.customer_name)).toEqual(
      ['7', '6', '5', '4'].map((digit) => digit.repeat(KIB_240)),
    );
    expect(page.body.payment_tokens[0]).toEqual({
      payment_token: 'ptok_large7',
      created_at: '2026-01-01T00:00:07.000Z',
      customer_email: 'buyer7@example.com',
      customer_name: '7'.repeat(KIB_240),
      lmn_expires_at: null,
      payment_methods: [{ type: 'card', brand: 'visa', last4: '4242', exp_month: 1, exp_year: 2030 }],
    });
  });

  it('refuse a page of catalog items from their stored lengths, before reading one, and serve a smaller one whole', async () => {
    s = testSandbox();
    s.store.catalog.seed('dev', '2026-01-01T00:00:00.000Z', () => 'prod_seed');
    s.store.transaction(() => {
      for (let n = 0; n < 8; n++)
        s.store.catalog.insert(
          'dev',
          newCatalogItem(
            { sku: `LARGE-${n}`, metadata: String(n).repeat(KIB_240) },
            `prod_large${n}`,
            '2026-01-02T00:00:00.000Z',
          ),
        );
    });
    const pulled = pulledFrom(s.store.catalog, 'listed');
    const big = await s.get('/api/v1/product_catalog/items/list?page_size=400');
    expect({ status: big.status, body: big.body }).toEqual({
      status: 400,
      body: tooLarge('ask for fewer items per page (a smaller page_size)'),
    });
    expect(pulled.pulled).toBe(0);
    const page = await s.get('/api/v1/product_catalog/items/list?page_size=4');
    expect(page.status).toBe(200);
    expect(page.body.data.map((item: { metadata: string }) => item.metadata)).toEqual(
      ['7', '6', '5', '4'].map((digit) => digit.repeat(KIB_240)),
    );
    expect(page.body.pagination).toEqual({ current_page: 1, page_size: 4, count: 16, last_page: 4 });
  });
});
