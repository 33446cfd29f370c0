// What a session list costs: the statements it runs and the indexes they read. A page costs the
// page, never the table: no count is taken by counting rows when the per-channel counts answer it,
// a filter that is not asked adds no statement, a page past the matches reads no row, and a filter
// by status reads its own index. A search answers newest first, applies every other filter, and its
// bounds are exact.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionListFilter, type ListQuery } from '../../src/sandbox/domain/listing.js';
import {
  MAX_SEARCH_MATCHES,
  MAX_SHORT_SEARCH_ROWS,
  MAX_UNINDEXED_SESSIONS,
} from '../../src/sandbox/domain/search-bounds.js';
import type { Session } from '../../src/sandbox/domain/types.js';
import { createStore, openDatabase, type Store } from '../../src/sandbox/store/index.js';
import { sessionSearch } from '../../src/sandbox/store/session-search.js';
import { refusalOf } from '../support/refusals.js';
import { planOf, statementsRun } from '../support/statements.js';
import { sessionMaker } from '../support/numbered-records.js';

afterEach(() => vi.restoreAllMocks());

const session = sessionMaker('dev');

function insertMany(store: Store, count: number, email = (i: number) => `b${i}@shop.test`): void {
  store.transaction(() => {
    for (let i = 0; i < count; i++) store.sessions.insert(session(email(i)));
  });
}

/** A store of six sessions of dev, p0…p5@example.com, newest last: alternately pending and captured, the first two paid with ptok_1, all indexed for search. */
function sixSessions() {
  const db = openDatabase(':memory:');
  const store = createStore(db);
  for (let i = 0; i < 6; i++)
    store.sessions.insert(
      session(`p${i}@example.com`, {
        status: i % 2 ? 'captured' : 'pending',
        ...(i < 2 ? { payment_token: 'ptok_1' } : {}),
      }),
    );
  store.sessions.indexPendingSearches();
  return { db, store };
}

const list = (store: Store, query: ListQuery, offset = 0, limit = 30) =>
  store.sessions.list('dev', sessionListFilter(query), { offset, limit });
const emailsOf = (listed: { sessions: Session[] }) => listed.sessions.map((s) => s.customer_email);

describe('the statements a session list runs', () => {
  it('without a filter: one statement, walking the channel newest first, and the count from the per-channel counts', () => {
    const { db, store } = sixSessions();
    let listed!: ReturnType<typeof list>;
    const run = statementsRun(db, () => (listed = list(store, {}, 1, 2)));
    expect({ count: listed.count, emails: emailsOf(listed) }).toEqual({
      count: 6,
      emails: ['p4@example.com', 'p3@example.com'],
    });
    const reads = run.filter((s) => s.sql.includes('payment_sessions'));
    expect(reads.map((s) => s.sql)).not.toContainEqual(expect.stringContaining('COUNT('));
    expect(reads).toHaveLength(1);
    const plan = planOf(db, reads[0]!);
    expect(plan).toContain('INDEX payment_sessions_channel_seq (channel=?)');
    expect(plan).not.toContain('payment_sessions_channel_status_kind');
  });

  it('filtered by status: each status read on its own index, and the count from the per-channel counts', () => {
    const { db, store } = sixSessions();
    let listed!: ReturnType<typeof list>;
    const run = statementsRun(db, () => (listed = list(store, { status: ['captured'] })));
    expect({ count: listed.count, emails: emailsOf(listed) }).toEqual({
      count: 3,
      emails: ['p5@example.com', 'p3@example.com', 'p1@example.com'],
    });
    const reads = run.filter((s) => s.sql.includes('payment_sessions'));
    expect(reads.map((s) => s.sql)).not.toContainEqual(expect.stringContaining('COUNT('));
    expect(reads).toHaveLength(1);
    expect(planOf(db, reads[0]!)).toContain(
      'INDEX payment_sessions_channel_status_kind (channel=? AND status=? AND kind=?)',
    );
  });

  it('searched alone: the matches are read as they are, with no statement filtering them again', () => {
    const { db, store } = sixSessions();
    let listed!: ReturnType<typeof list>;
    const run = statementsRun(db, () => (listed = list(store, { search: 'P1@Example' })));
    expect(emailsOf(listed)).toEqual(['p1@example.com']);
    // The index's matches, the channel's queue, then the page's rows: nothing else.
    const seqReads = run.filter((s) => s.sql.includes('json_each(@seqs)'));
    expect(seqReads).toHaveLength(1);
    expect(seqReads[0]!.sql).toMatch(/^SELECT document FROM payment_sessions\s+WHERE channel = @channel AND seq IN/);
  });

  it('searched past its matches: the count, and no row read', () => {
    const { db, store } = sixSessions();
    let listed!: ReturnType<typeof list>;
    const run = statementsRun(db, () => (listed = list(store, { search: 'example.com' }, 6, 5)));
    expect(listed).toEqual({ sessions: [], count: 6 });
    expect(run.map((s) => s.sql)).toContainEqual(expect.stringContaining('MATCH'));
    expect(run.filter((s) => s.sql.includes('json_each(@seqs)'))).toEqual([]);
  });

  it('searched beside a payment token or a time range: only the matches that hold them', () => {
    const { store } = sixSessions();
    expect(emailsOf(list(store, { search: 'example.com', payment_token: 'ptok_1' }))).toEqual([
      'p1@example.com',
      'p0@example.com',
    ]);
    expect(list(store, { search: 'example.com', created_on_start: '2027-01-01T00:00:00Z' })).toEqual({
      sessions: [],
      count: 0,
    });
  });
});

describe("a search's matches", () => {
  it('come newest first, so that the first page holds the newest', () => {
    const { db, store } = sixSessions();
    const seqs = sessionSearch(db).matches('dev', 'example.com', 'example.com').seqs;
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    expect(seqs).toHaveLength(6);
    expect(emailsOf(list(store, { search: 'example.com' }, 0, 2))).toEqual(['p5@example.com', 'p4@example.com']);
    expect(emailsOf(list(store, { search: 'example.com' }, 4, 2))).toEqual(['p1@example.com', 'p0@example.com']);
  });

  it(`are refused past ${MAX_SEARCH_MATCHES} in the index alone, naming the search, before the queue is read`, () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    insertMany(store, MAX_SEARCH_MATCHES + 1);
    store.sessions.indexPendingSearches();
    store.sessions.insert(session('queued@shop.test'));
    let refusal!: ReturnType<typeof refusalOf>;
    const run = statementsRun(db, () => (refusal = refusalOf(() => list(store, { search: 'SHOP.test' }))));
    expect(refusal).toEqual({
      code: 'InvalidRequestParameter',
      message: `search "SHOP.test" matches more than ${MAX_SEARCH_MATCHES} sessions, the most the sandbox counts for one search: search for something longer or more specific.`,
    });
    expect(run.map((s) => s.sql)).toContainEqual(expect.stringContaining('MATCH'));
    expect(run.map((s) => s.sql)).not.toContainEqual(expect.stringContaining('session_search_pending'));
  });
});

describe('the bounds of a search, exactly', () => {
  it(`answer a channel of exactly ${MAX_SHORT_SEARCH_ROWS} sessions, all ${MAX_UNINDEXED_SESSIONS} still queued for the index`, () => {
    // One channel holds both bounds exactly: they are equal.
    expect(MAX_SHORT_SEARCH_ROWS).toBe(MAX_UNINDEXED_SESSIONS);
    const store = createStore(openDatabase(':memory:'));
    insertMany(store, MAX_UNINDEXED_SESSIONS);
    // Too short for trigrams: every session of the channel is read one by one, and there are just few enough.
    expect(list(store, { search: 'b9999' }).count).toBe(1);
    expect(list(store, { search: 'b7' }).count).toBe(1_111);
    // Long enough: every session is still queued, and there are just few enough to test.
    expect(emailsOf(list(store, { search: 'b7@shop' }))).toEqual(['b7@shop.test']);
    store.sessions.insert(session('one@more.test'));
    expect(refusalOf(() => list(store, { search: 'b7' })).code).toBe('InvalidRequestParameter');
    expect(refusalOf(() => list(store, { search: 'b7@shop' })).message).toMatch(/^search cannot run now/);
  });
});
