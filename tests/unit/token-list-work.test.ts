// What a token list costs: the statements it runs and the indexes they read. The count of an
// unfiltered list comes from the per-channel count, a page past the end reads no row, a search
// without matches filters nothing, and a date filter reads its own index. Needles fold case as
// JavaScript does, all of Unicode: "ß" stays one character, and "WEISS" is not "weiß".
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TokenListFilter } from '../../src/sandbox/domain/token-listing.js';
import type { PaymentTokenRecord } from '../../src/sandbox/domain/types.js';
import { createStore, openDatabase, type Store } from '../../src/sandbox/store/index.js';
import { tokenSearch } from '../../src/sandbox/store/token-search.js';
import { tokenMaker } from '../support/numbered-records.js';
import { planOf, statementsRun } from '../support/statements.js';

afterEach(() => vi.restoreAllMocks());

const makeToken = tokenMaker();
const token = (email: string, name: string, overrides: Partial<PaymentTokenRecord> = {}) =>
  makeToken('dev', email, { customer_name: name, ...overrides });

/** Three active tokens of dev, newest last: t1…t3@example.com, each card and letter expiring a month after the one before. */
function threeTokens() {
  const db = openDatabase(':memory:');
  const store = createStore(db);
  for (const i of [1, 2, 3])
    store.tokens.insert(
      token(`t${i}@example.com`, `Customer ${i}`, { card_expires: `2030-0${i}`, lmn_expires_at: `2030-0${i}-15` }),
    );
  return { db, store };
}

const emails = (listed: { tokens: PaymentTokenRecord[] }) => listed.tokens.map((t) => t.customer_email);

/** The list's answer and the statements it ran on payment_tokens. */
function listRun(db: Store['db'], store: Store, filter: TokenListFilter, offset = 0, limit = 30) {
  let listed!: { tokens: PaymentTokenRecord[]; count: number };
  const run = statementsRun(db, () => (listed = store.tokens.list('dev', filter, { offset, limit })));
  return { listed, run, reads: run.filter((s) => /FROM payment_tokens\b/.test(s.sql)) };
}

describe('the statements a token list runs', () => {
  it('without a filter: the count from the per-channel count, and one page read', () => {
    const { db, store } = threeTokens();
    const { listed, run, reads } = listRun(db, store, {});
    expect({ count: listed.count, emails: emails(listed) }).toEqual({
      count: 3,
      emails: ['t3@example.com', 't2@example.com', 't1@example.com'],
    });
    expect(run.map((s) => s.sql)).toContainEqual(expect.stringContaining('token_counts'));
    expect(reads.map((s) => s.sql)).not.toContainEqual(expect.stringContaining('COUNT('));
    expect(reads).toHaveLength(1);
  });

  it('asked for the page just past the end: the count, and no page read', () => {
    const { db, store } = threeTokens();
    for (const filter of [{}, { cardExpiresBefore: '2030-02' }] as const) {
      const { listed, reads } = listRun(db, store, filter, filter.cardExpiresBefore ? 2 : 3);
      expect(listed.tokens).toEqual([]);
      expect(listed.count).toBe(filter.cardExpiresBefore ? 2 : 3);
      expect(reads.filter((s) => s.sql.includes('LIMIT @limit OFFSET @offset'))).toEqual([]);
    }
  });

  it('searched without a match: nothing filtered, no token read', () => {
    const { db, store } = threeTokens();
    const { listed, run, reads } = listRun(db, store, { email: 'nobody', cardExpiresBefore: '2031-01' });
    expect(listed).toEqual({ tokens: [], count: 0 });
    expect(run.map((s) => s.sql)).toContainEqual(expect.stringContaining('MATCH'));
    expect(reads).toEqual([]);
  });

  it('searched past its matches: the count, and no token read', () => {
    const { db, store } = threeTokens();
    const { listed, reads } = listRun(db, store, { email: 'example' }, 3, 5);
    expect(listed).toEqual({ tokens: [], count: 3 });
    expect(reads.map((s) => s.sql)).toHaveLength(1);
    expect(reads[0]!.sql).toContain('json_each(@seqs)');
  });

  it.each([
    [
      'card_expires_before',
      { cardExpiresBefore: '2030-02' },
      'payment_tokens_channel_card (channel=? AND card_expires<?)',
    ],
    [
      'lmn_expires_before',
      { lmnExpiresBefore: '2030-02-15' },
      'payment_tokens_channel_lmn (channel=? AND lmn_expires_at<?)',
    ],
  ] as const)('filtered by %s: counts and pages on the range of its own index', (_case, filter, index) => {
    const { db, store } = threeTokens();
    const { listed, reads } = listRun(db, store, filter);
    expect({ count: listed.count, emails: emails(listed) }).toEqual({
      count: 2,
      emails: ['t2@example.com', 't1@example.com'],
    });
    // The count, then the page.
    const plans = reads.map((s) => planOf(db, s));
    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      expect(plan).toContain(`INDEX ${index}`);
      expect(plan).not.toContain('payment_tokens_channel_seq');
    }
  });
});

describe("a token search's case folding", () => {
  it('keeps a needle one character long per character: "aß" is too short for the index, and is found token by token', () => {
    const store = createStore(openDatabase(':memory:'));
    store.tokens.insert(token('anna@example.com', 'Anna Aßmann'));
    store.tokens.insert(token('ben@example.com', 'Ben Assmann'));
    expect(emails(store.tokens.list('dev', { name: 'AẞM' }, { offset: 0, limit: 30 }))).toEqual(['anna@example.com']);
    expect(emails(store.tokens.list('dev', { name: 'aß' }, { offset: 0, limit: 30 }))).toEqual(['anna@example.com']);
    expect(emails(store.tokens.list('dev', { name: 'Aß' }, { offset: 0, limit: 30 }))).toEqual(['anna@example.com']);
  });

  it('matches "Weiß" as "weiß" in the index, not as "WEISS"', () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    store.tokens.insert(token('w@example.com', 'Wanda Weiß'));
    store.tokens.insert(token('v@example.com', 'Vera Weiss'));
    expect(emails(store.tokens.list('dev', { name: 'Weiß' }, { offset: 0, limit: 30 }))).toEqual(['w@example.com']);
    expect(emails(store.tokens.list('dev', { name: 'WEISS' }, { offset: 0, limit: 30 }))).toEqual(['v@example.com']);
    expect(tokenSearch(db).matches('dev', { name: 'WEIß' }).seqs).toHaveLength(1);
  });

  it('ignores a needle given as undefined', () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    store.tokens.insert(token('ann@example.com', 'Ann Lee'));
    store.tokens.insert(token('bob@example.org', 'Bob Lee'));
    const search = tokenSearch(db);
    expect(search.matches('dev', { email: 'example.com', name: undefined })).toEqual(
      search.matches('dev', { email: 'example.com' }),
    );
    expect(search.matches('dev', { email: 'example.com', name: undefined }).seqs).toHaveLength(1);
  });
});
