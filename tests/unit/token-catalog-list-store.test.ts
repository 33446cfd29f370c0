// Token and catalog lists in SQL: every statement a list runs reads an index (or the trigram index),
// never a whole table, whatever the filters.
import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../../src/sandbox/store/database.js';
import { createStore, openDatabase } from '../../src/sandbox/store/index.js';
import type { PaymentTokenRecord } from '../../src/sandbox/domain/types.js';
import { newCatalogItem } from '../../src/sandbox/domain/catalog.js';

const token = (n: number, overrides: Partial<PaymentTokenRecord> = {}): PaymentTokenRecord => ({
  token: `ptok_${n}`,
  channel: 'dev',
  session_id: null,
  status: 'active',
  next_action: null,
  created_at: `2026-01-0${n}T00:00:00.000Z`,
  customer_email: `c${n}@example.com`,
  customer_name: `Customer ${n}`,
  customer_key: `c${n}@example.com`,
  card_brand: 'visa',
  card_last4: '4242',
  card_expires: `2027-0${n}`,
  lmn_expires_at: `2027-0${n}-15`,
  provision_request_id: null,
  metadata: null,
  success_url: null,
  failure_url: null,
  ...overrides,
});

/** Every statement a call prepares, with its query plan. */
function plansOf(db: Db, run: () => void): string[] {
  const spy = vi.spyOn(db, 'prepare');
  run();
  const statements = spy.mock.calls.map(([sql]) => sql);
  spy.mockRestore();
  expect(statements.length).toBeGreaterThan(0);
  return statements.map((sql) => {
    const params = Object.fromEntries(
      [...sql.matchAll(/@(\w+)/g)].map(([, name]) => [
        name,
        /limit|offset/.test(name!) ? 30 : name === 'match' ? 'email : "xyz"' : 'x',
      ]),
    );
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>)
      .map((r) => r.detail)
      .join('\n');
  });
}

describe('payment token lists', () => {
  it.each([
    ['no filter', {}],
    ['a long email needle', { email: 'example' }],
    ['a short name needle', { name: 'c' }],
    ['card_expires_before', { cardExpiresBefore: '2027-02' }],
    ['lmn_expires_before', { lmnExpiresBefore: '2027-02-15' }],
    ['every filter', { email: 'example', name: 'cus', cardExpiresBefore: '2027-05', lmnExpiresBefore: '2027-05-01' }],
  ] as const)('reads an index for %s, never the whole table', (_case, filter) => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    for (const n of [1, 2, 3]) store.tokens.insert(token(n));
    // The statements are prepared once and cached: a fresh store prepares them under the spy.
    const fresh = createStore(db);
    for (const plan of plansOf(db, () => fresh.tokens.list('dev', filter, { offset: 0, limit: 30 }))) {
      expect(plan).not.toMatch(/SCAN payment_tokens(?! USING)/);
    }
    expect(store.tokens.list('dev', filter, { offset: 0, limit: 30 }).count).toBeGreaterThan(0);
  });

  it('counts active tokens per channel through inserts, deletes and status changes', () => {
    const store = createStore(openDatabase(':memory:'));
    for (const n of [1, 2, 3]) store.tokens.insert(token(n));
    store.tokens.insert(token(4, { channel: 'other' }));
    store.tokens.insert(token(5, { status: 'pending_checkout' }));
    store.tokens.setStatus('dev', 'ptok_2', 'deleted');
    store.tokens.setStatus('dev', 'ptok_5', 'active');
    const page = store.tokens.list('dev', {}, { offset: 0, limit: 30 });
    expect(page.count).toBe(3);
    expect(page.tokens.map((t) => t.token)).toEqual(['ptok_5', 'ptok_3', 'ptok_1']);
  });
});

describe('catalog lists', () => {
  it.each([
    ['no filter', {}],
    ['eligibility', { eligibility: 'eligible' }],
    ['updated_after', { updatedAfter: '2026-01-01T00:00:00.000Z' }],
  ] as const)('reads an index for %s, never the whole table', (_case, filter) => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    store.catalog.insert(
      'dev',
      newCatalogItem({ sku: 'A', eligibility: 'eligible' }, 'prod_a', '2026-01-02T00:00:00.000Z'),
    );
    const fresh = createStore(db);
    for (const plan of plansOf(db, () => fresh.catalog.list('dev', filter, { offset: 0, limit: 30 }))) {
      expect(plan).not.toMatch(/SCAN catalog_items(?! USING)/);
    }
  });
});
