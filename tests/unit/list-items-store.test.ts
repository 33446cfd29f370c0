// The items of a list page as the answer renders them (store/session-list.ts listItems,
// token-list.ts listed, catalog.ts listed): each row read only when its item is asked for, in the
// page's order without a sort of the rows (a sort reads every row of the page before the first),
// so that a page refused for its size reads no further than the bound.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newCatalogItem } from '../../src/sandbox/domain/catalog.js';
import { newSession } from '../../src/sandbox/domain/create-session.js';
import { sessionListFilter, type ListQuery } from '../../src/sandbox/domain/listing.js';
import type { CreateSessionRequest, PaymentTokenRecord } from '../../src/sandbox/domain/types.js';
import { listItemOf, type ListFlags } from '../../src/sandbox/domain/views.js';
import { createStore, openDatabase, type Store } from '../../src/sandbox/store/index.js';
import { sessionRequest } from '../../testkit/sandbox.js';
import { planOf, statementsRun } from '../support/statements.js';

afterEach(() => vi.restoreAllMocks());

/** Six sessions of dev, s0…s5 newest last, alternately pending and authorized, with metadata m0…m5. */
function sixSessions() {
  const db = openDatabase(':memory:');
  const store = createStore(db);
  for (let n = 0; n < 6; n++) {
    const request = sessionRequest({ idempotency_key: `k${n}`, metadata: `m${n}` }) as CreateSessionRequest;
    const session = newSession({
      id: `00000000-0000-4000-8000-00000000000${n}`,
      channel: 'dev',
      request,
      now: `2026-01-01T00:00:0${n}.000Z`,
      newId: () => `item${n}`,
    });
    store.sessions.insert({
      ...session,
      status: n % 2 ? 'authorized' : 'pending',
      ...(n % 2 ? { authorized_at: session.created_at } : {}),
    });
  }
  return { db, store };
}

const window = (offset: number, limit: number) => ({ offset, limit });
const itemsOf = (store: Store, query: ListQuery & ListFlags, offset = 0, limit = 30) =>
  store.sessions.listItems('dev', sessionListFilter(query), window(offset, limit), query);

describe('the items of a page of sessions', () => {
  it("are the stored default items, or rendered with the flags asked for, in the page's order", () => {
    const { store } = sixSessions();
    const plain = itemsOf(store, {}, 1, 3);
    expect(plain.count).toBe(6);
    expect([...plain.items]).toEqual(store.sessions.listViews('dev', sessionListFilter({}), window(1, 3)).views);
    const flags = { include_metadata: true, include_order_items: true, summarize_refunds: true };
    const flagged = itemsOf(store, flags, 1, 3);
    const sessions = store.sessions.list('dev', sessionListFilter({}), window(1, 3)).sessions;
    expect([...flagged.items]).toEqual(sessions.map((session) => JSON.stringify(listItemOf(session, flags))));
    expect([...itemsOf(store, flags, 1, 3).items].map((item) => JSON.parse(item).metadata)).toEqual(['m4', 'm3', 'm2']);
  });

  it('are read only when asked for, and a page abandoned half read leaves the connection free', () => {
    const { db, store } = sixSessions();
    let page!: ReturnType<typeof itemsOf>;
    const before = statementsRun(db, () => (page = itemsOf(store, { include_metadata: true })));
    expect(before.filter((s) => s.sql.includes('CROSS JOIN'))).toEqual([]);
    const iterator = page.items[Symbol.iterator]();
    const first = statementsRun(db, () => expect(JSON.parse(iterator.next().value as string).metadata).toBe('m5'));
    expect(first.filter((s) => s.sql.includes('CROSS JOIN'))).toHaveLength(1);
    iterator.return?.();
    // The abandoned read holds nothing: a write and another page run at once.
    store.sessions.insert(
      newSession({
        id: '00000000-0000-4000-8000-000000000009',
        channel: 'dev',
        request: sessionRequest({ idempotency_key: 'k9' }) as CreateSessionRequest,
        now: '2026-01-02T00:00:00.000Z',
        newId: () => 'item9',
      }),
    );
    expect(itemsOf(store, {}).count).toBe(7);
  });

  it.each([
    ['no filter', {}],
    ['a status', { status: ['pending', 'authorized'] }],
    ['a creation range', { created_on_start: '2026-01-01T00:00:01Z' }],
    ['a search', { search: 'jane.doe@' }],
  ] as const)('with %s, come in order as they are read, with no sort of the rows', (_case, query) => {
    const { db, store } = sixSessions();
    store.sessions.indexPendingSearches();
    let read: string[] = [];
    const run = statementsRun(db, () => (read = [...itemsOf(store, query as ListQuery, 0, 3).items]));
    expect(read.map((item) => JSON.parse(item).id.slice(-1))).toEqual(['5', '4', '3']);
    const pageRead = run.filter((s) => /^SELECT (CASE|document)/.test(s.sql));
    expect(pageRead).toHaveLength(1);
    // Whatever chooses the page (it may sort the page's rowids), its rows are then read in order: no sort follows.
    const plan = planOf(db, pageRead[0]!);
    expect(plan.includes('SCAN page') ? plan.slice(plan.lastIndexOf('SCAN page')) : plan).not.toContain('TEMP B-TREE');
  });

  it('past the matches, are none, and read nothing', () => {
    const { db, store } = sixSessions();
    let page!: ReturnType<typeof itemsOf>;
    const run = statementsRun(db, () => {
      page = itemsOf(store, {}, 6, 3);
      expect([...page.items]).toEqual([]);
    });
    expect(page.count).toBe(6);
    expect(run.filter((s) => s.sql.includes('CROSS JOIN'))).toEqual([]);
  });
});

let n = 0;
function token(overrides: Partial<PaymentTokenRecord> = {}): PaymentTokenRecord {
  n++;
  return {
    token: `ptok_${n}`,
    channel: 'dev',
    session_id: null,
    status: 'active',
    next_action: null,
    created_at: '2026-01-01T00:00:00.000Z',
    customer_email: `t${n}@example.com`,
    customer_name: `Customer ${n}`,
    customer_key: `t${n}@example.com`,
    card_brand: 'visa',
    card_last4: '4242',
    card_expires: '2030-01',
    lmn_expires_at: '2030-01-15',
    provision_request_id: `ptr_${n}`,
    metadata: `meta ${n}`,
    success_url: 'https://shop.example/ok',
    failure_url: 'https://shop.example/ko',
    user_business_id: `user_${n}`,
    ...overrides,
  };
}

describe('the tokens of a page', () => {
  it('are what the list shows of each, and nothing else, read only when asked for', () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    const tokens = [token(), token(), token()];
    for (const t of tokens) store.tokens.insert(t);
    let page!: ReturnType<Store['tokens']['listed']>;
    const before = statementsRun(db, () => (page = store.tokens.listed('dev', {}, window(0, 2))));
    expect(before.filter((s) => s.sql.includes('CROSS JOIN'))).toEqual([]);
    expect(page.count).toBe(3);
    const shown = ({
      token: id,
      created_at,
      customer_email,
      customer_name,
      user_business_id,
      lmn_expires_at,
      card_brand,
      card_last4,
      card_expires,
    }: PaymentTokenRecord) => ({
      token: id,
      created_at,
      customer_email,
      customer_name,
      user_business_id,
      lmn_expires_at,
      card_brand,
      card_last4,
      card_expires,
    });
    expect([...page.tokens]).toEqual([shown(tokens[2]!), shown(tokens[1]!)]);
    // The whole records stay to be had.
    expect(store.tokens.list('dev', {}, window(0, 2)).tokens).toEqual(
      [tokens[2], tokens[1]].map((t) =>
        expect.objectContaining({ metadata: t!.metadata, success_url: t!.success_url }),
      ),
    );
  });

  it('found by a search, are the matches only, each without its metadata', () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    const tokens = [
      token({ customer_name: 'Anna Berg' }),
      token({ customer_name: 'Bo Anders' }),
      token({ customer_name: 'Cy Dahl' }),
    ];
    for (const t of tokens) store.tokens.insert(t);
    const page = store.tokens.listed('dev', { name: 'and' }, window(0, 30));
    expect(page.count).toBe(1);
    expect([...page.tokens].map((t) => t.customer_name)).toEqual(['Bo Anders']);
    expect([...store.tokens.listed('dev', { name: 'nobody' }, window(0, 30)).tokens]).toEqual([]);
    expect(Object.keys([...store.tokens.listed('dev', { name: 'ann' }, window(0, 30)).tokens][0]!)).not.toContain(
      'metadata',
    );
  });
});

describe('the items of a page of the catalog', () => {
  it('are parsed only when asked for, and their stored lengths, less what updated_at may take, are known before', () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    const items = ['A', 'B', 'C'].map((sku, i) =>
      newCatalogItem({ sku, metadata: sku.repeat(100 * (i + 1)) }, `prod_${sku}`, '2026-01-02T00:00:00.000Z'),
    );
    for (const item of items) store.catalog.insert('dev', item);
    let page!: ReturnType<Store['catalog']['listed']>;
    const before = statementsRun(db, () => (page = store.catalog.listed('dev', {}, window(0, 2))));
    expect(before.filter((s) => s.sql.startsWith('SELECT document'))).toEqual([]);
    const stored = [items[2]!, items[1]!].reduce((sum, item) => sum + Buffer.byteLength(JSON.stringify(item)) - 64, 0);
    expect({ count: page.count, knownBytes: page.knownBytes }).toEqual({ count: 3, knownBytes: stored });
    expect([...page.items]).toEqual([items[2], items[1]]);
    expect(store.catalog.list('dev', { updatedAfter: '2026-01-01T00:00:00.000Z' }, window(2, 2)).items).toEqual([
      items[0],
    ]);
  });

  it('past the matches, are none, known to take nothing, and read nothing', () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    store.catalog.insert('dev', newCatalogItem({ sku: 'A' }, 'prod_A', '2026-01-02T00:00:00.000Z'));
    let page!: ReturnType<Store['catalog']['listed']>;
    const run = statementsRun(
      db,
      () => (page = store.catalog.listed('dev', { eligibility: 'eligible' }, window(0, 2))),
    );
    expect({ count: page.count, knownBytes: page.knownBytes, items: [...page.items] }).toEqual({
      count: 0,
      knownBytes: 0,
      items: [],
    });
    expect(run.filter((s) => s.sql.includes('CROSS JOIN'))).toEqual([]);
  });
});
