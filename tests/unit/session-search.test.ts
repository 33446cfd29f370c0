// A search costs what its own channel's rows cost: the trigram index keeps each channel's sessions
// in a rowid range of their own, a search reads its channel's range and its channel's queue, and
// every search is bounded, refused past its bound with the list's 400 rather than left to hold the
// server. The reproduction first: a channel of many matching sessions, and a search in another.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newSession } from '../../src/sandbox/domain/create-session.js';
import { sessionListFilter, type ListQuery } from '../../src/sandbox/domain/listing.js';
import {
  MAX_SEARCH_LENGTH,
  MAX_SEARCH_MATCHES,
  MAX_SHORT_SEARCH_ROWS,
  MAX_UNINDEXED_SESSIONS,
} from '../../src/sandbox/domain/search-bounds.js';
import type { CreateSessionRequest, Session } from '../../src/sandbox/domain/types.js';
import { openDatabase, type Db } from '../../src/sandbox/store/database.js';
import { createStore, type Store } from '../../src/sandbox/store/index.js';
import { MIGRATIONS } from '../../src/sandbox/store/migrations.js';
import { sessionColumns } from '../../src/sandbox/store/session-columns.js';
import { sessionSearch } from '../../src/sandbox/store/session-search.js';
import { sessionRequest } from '../../testkit/sandbox.js';
import { refusalOf } from '../support/refusals.js';

afterEach(() => vi.restoreAllMocks());

let n = 0;
function session(channel: string, email: string, name = 'Jane Doe'): Session {
  n++;
  const request = sessionRequest({ customer_email: email, customer_name: name }) as CreateSessionRequest;
  return newSession({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    channel,
    request,
    now: new Date(Date.UTC(2026, 0, 1, 0, 0, n % 50_000)).toISOString(),
    newId: () => `item${n}`,
  });
}

/** `count` sessions of `channel`, written in one transaction, queued for the index (not indexed). */
function insertMany(
  store: Store,
  channel: string,
  count: number,
  email = (i: number) => `buyer${i}@example.com`,
): void {
  store.transaction(() => {
    for (let i = 0; i < count; i++) store.sessions.insert(session(channel, email(i), `Buyer ${i}`));
  });
}

const list = (store: Store, channel: string, query: ListQuery, offset = 0, limit = 30) =>
  store.sessions.list(channel, sessionListFilter(query), { offset, limit });
const emails = (store: Store, channel: string, query: ListQuery) =>
  list(store, channel, query).sessions.map((s) => s.customer_email);

describe('a search in one channel', () => {
  it("reads none of another channel's sessions: an empty channel answers empty, at no cost", () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    insertMany(store, 'dev', 400);
    store.sessions.indexPendingSearches();
    insertMany(store, 'dev', 40); // still queued
    const search = sessionSearch(db);

    expect(list(store, 'dev', { search: 'example.com' }).count).toBe(440);
    // The reproduction: channel other holds no session, and its search reads nothing of dev's.
    expect(list(store, 'other', { search: 'example.com' })).toEqual({ sessions: [], count: 0 });
    expect(search.matches('other', 'example.com', 'example.com')).toEqual({ seqs: [], indexedRead: 0, queuedRead: 0 });

    // Once other has sessions, its search reads its own: one indexed, one queued.
    store.sessions.insert(session('other', 'ann@example.com'));
    store.sessions.indexPendingSearches();
    store.sessions.insert(session('other', 'bob@example.org'));
    expect(emails(store, 'other', { search: 'example' })).toEqual(['bob@example.org', 'ann@example.com']);
    expect(search.matches('other', 'example', 'example')).toMatchObject({ indexedRead: 1, queuedRead: 1 });
    expect(search.matches('other', 'buyer', 'buyer')).toEqual({ seqs: [], indexedRead: 0, queuedRead: 1 });
    // dev's own search reads dev's rows (all indexed by now), and finds none of other's.
    expect(search.matches('dev', 'example', 'example')).toMatchObject({ indexedRead: 440, queuedRead: 0 });
  });

  it("asks the index for the channel's own rowid range, in the index's order, and looks each queued session up by its seq", () => {
    const db = openDatabase(':memory:');
    const spy = vi.spyOn(db, 'prepare');
    sessionSearch(db);
    const plan = (sql: string) => {
      const params = Object.fromEntries(
        [...sql.matchAll(/@(\w+)/g)].map(([, name]) => [
          name,
          /first|last/.test(name!) ? 1n : name === 'limit' ? 1 : '"x"',
        ]),
      );
      return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>)
        .map((row) => row.detail)
        .join('\n');
    };
    const statements = spy.mock.calls.map(([sql]) => sql);
    const indexed = plan(statements.find((sql) => sql.includes('MATCH'))!);
    // FTS5 takes the MATCH and both rowid bounds itself (M…><), and delivers its rows in order: no sort.
    expect(indexed).toMatch(/^SCAN session_search VIRTUAL TABLE INDEX \d+:M\d*><$/);
    const queued = plan(statements.find((sql) => sql.includes('session_search_pending'))!);
    expect(queued).toContain(
      'SEARCH session_search_pending USING COVERING INDEX session_search_pending_channel (channel=?)',
    );
    expect(queued).toContain('SEARCH s USING COVERING INDEX payment_sessions_channel_seq (channel=? AND seq=?)');
    expect(`${indexed}\n${queued}`).not.toMatch(/TEMP B-TREE|AUTOMATIC/);
  });

  it('keeps the index exact through updates, deletions and a channel reset', () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    const first = session('dev', 'clara@example.com');
    const second = session('dev', 'river@example.com');
    store.sessions.insert(first);
    store.sessions.insert(second);
    store.sessions.indexPendingSearches();
    // Changed twice before the index catches up, then once after.
    store.sessions.update({ ...first, customer_email: 'amy@example.com' });
    store.sessions.update({ ...first, customer_email: 'rory@example.com' });
    expect(emails(store, 'dev', { search: 'example.com' })).toEqual(['river@example.com', 'rory@example.com']);
    store.sessions.indexPendingSearches();
    store.sessions.update({ ...first, customer_email: 'donna@example.com' });
    store.sessions.indexPendingSearches();
    for (const gone of ['clara', 'amy@', 'rory']) expect(emails(store, 'dev', { search: gone })).toEqual([]);
    expect(emails(store, 'dev', { search: 'example.com' })).toEqual(['river@example.com', 'donna@example.com']);

    // A reset deletes the channel's sessions; new ones take their seqs again, and only they match.
    store.reset.channel('dev');
    expect(list(store, 'dev', { search: 'example.com' }).count).toBe(0);
    store.sessions.insert(session('dev', 'martha@example.com'));
    store.sessions.insert(session('dev', 'jack@example.com'));
    expect(emails(store, 'dev', { search: 'example.com' })).toEqual(['jack@example.com', 'martha@example.com']);
    store.sessions.indexPendingSearches();
    expect(emails(store, 'dev', { search: 'example.com' })).toEqual(['jack@example.com', 'martha@example.com']);
    expect(emails(store, 'dev', { search: 'river' })).toEqual([]);
  });

  it('tests the other filters on the matches alone, and pages them newest first', () => {
    const store = createStore(openDatabase(':memory:'));
    for (let i = 0; i < 12; i++) {
      const created = session('dev', `p${i}@example.com`);
      store.sessions.insert({
        ...created,
        kind: i % 2 ? 'authorization' : 'one_time_payment',
        status: i % 3 ? 'captured' : 'pending',
      });
      if (i === 5) store.sessions.indexPendingSearches();
    }
    store.sessions.insert(session('dev', 'someone@else.org'));
    const all = emails(store, 'dev', { search: '@example' });
    expect(all).toEqual(Array.from({ length: 12 }, (_, i) => `p${11 - i}@example.com`));
    expect(emails(store, 'dev', { search: '@example', kind: ['authorization'], filter_pending: true })).toEqual([
      'p11@example.com',
      'p7@example.com',
      'p5@example.com',
      'p1@example.com',
    ]);
    const second = list(store, 'dev', { search: '@example' }, 5, 5);
    expect({ count: second.count, page: second.sessions.map((s) => s.customer_email) }).toEqual({
      count: 12,
      page: all.slice(5, 10),
    });
    expect(list(store, 'dev', { search: '@example' }, 20, 5)).toEqual({ sessions: [], count: 12 });
  });
});

describe('the bounds of a search', () => {
  it(`answers up to ${MAX_SEARCH_MATCHES} matches, and refuses a search that matches more`, () => {
    const store = createStore(openDatabase(':memory:'));
    insertMany(store, 'dev', MAX_SEARCH_MATCHES, (i) => `buyer${i}@example.com`);
    store.sessions.indexPendingSearches();
    expect(list(store, 'dev', { search: 'example.com' }).count).toBe(MAX_SEARCH_MATCHES);
    // One more, still queued: the index and the queue together pass the bound.
    store.sessions.insert(session('dev', 'late@example.com'));
    expect(refusalOf(() => list(store, 'dev', { search: 'EXAMPLE.com' }))).toEqual({
      code: 'InvalidRequestParameter',
      message: `search "EXAMPLE.com" matches more than ${MAX_SEARCH_MATCHES} sessions, the most the sandbox counts for one search: search for something longer or more specific.`,
    });
    // Filters do not lift it: the matches are read before the filters test them.
    expect(refusalOf(() => list(store, 'dev', { search: 'example.com', status: ['captured'] })).code).toBe(
      'InvalidRequestParameter',
    );
    store.sessions.indexPendingSearches();
    expect(refusalOf(() => list(store, 'dev', { search: 'example.com' })).code).toBe('InvalidRequestParameter');
    // A narrower search, and another channel, are answered as before.
    expect(emails(store, 'dev', { search: 'buyer4999@' })).toEqual(['buyer4999@example.com']);
    expect(list(store, 'other', { search: 'example.com' }).count).toBe(0);
  });

  it(`tests at most ${MAX_UNINDEXED_SESSIONS} sessions still queued for the index, and reads at most ${MAX_SHORT_SEARCH_ROWS} for a short search`, () => {
    const store = createStore(openDatabase(':memory:'));
    insertMany(store, 'dev', MAX_UNINDEXED_SESSIONS + 1, (i) => `b${i}@shop.test`);
    expect(refusalOf(() => list(store, 'dev', { search: 'b7@shop' }))).toEqual({
      code: 'InvalidRequestParameter',
      message: `search cannot run now: more than ${MAX_UNINDEXED_SESSIONS} sessions of this channel are still waiting for the search index, which takes them in within seconds: retry shortly.`,
    });
    store.sessions.indexPendingSearches();
    expect(emails(store, 'dev', { search: 'b7@shop' })).toEqual(['b7@shop.test']);

    // Too short for trigrams, or holding a NUL: the channel's sessions are read one by one.
    expect(refusalOf(() => list(store, 'dev', { search: 'b7' }))).toEqual({
      code: 'InvalidRequestParameter',
      message: `search "b7" is shorter than 3 characters, so it reads every session of the channel one by one, and the sandbox does so for at most ${MAX_SHORT_SEARCH_ROWS} sessions: search for 3 characters or more, or filter by status or kind first.`,
    });
    expect(refusalOf(() => list(store, 'dev', { search: 'b7@\u0000' })).message).toMatch(
      /^search "b7@\\u0000" holds a NUL character, so it reads every session/,
    );
    // Filtered by status, the channel holds few enough: the short search is answered.
    const one = { ...session('dev', 'zz@shop.test'), status: 'captured' as const };
    store.sessions.insert(one);
    expect(emails(store, 'dev', { search: 'zz', status: ['captured'] })).toEqual(['zz@shop.test']);
    expect(list(store, 'other', { search: 'b7' }).count).toBe(0);
  });

  it(`refuses a search longer than ${MAX_SEARCH_LENGTH} characters before any read`, () => {
    expect(() => sessionListFilter({ search: 'é'.repeat(MAX_SEARCH_LENGTH) })).not.toThrow();
    expect(refusalOf(() => sessionListFilter({ search: 'é'.repeat(MAX_SEARCH_LENGTH + 1) }))).toEqual({
      code: 'InvalidRequestParameter',
      message: `search must be at most ${MAX_SEARCH_LENGTH} characters in the sandbox.`,
    });
  });
});

describe('a database of schema 11', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is indexed again, each channel in its own range, with nothing left queued', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'session-search-'));
    dirs.push(dir);
    const file = path.join(dir, 'old.db');
    const old = openDatabase(
      file,
      MIGRATIONS.filter((m) => m.version <= 11),
    );
    const insert =
      old.prepare(`INSERT INTO payment_sessions (seq, id, channel, created_at, idempotency_key, kind, status, captured_at, email_search, name_search, payment_token, document)
      VALUES (@seq, @id, @channel, @created_at, @idempotency_key, @kind, @status, @captured_at, @email_search, @name_search, @payment_token, @document)`);
    const write = (seq: number, created: Session) => insert.run({ ...sessionColumns(created), seq });
    write(1, session('dev', 'amelia@example.com'));
    write(2, session('other', 'ood@example.com'));
    old
      .prepare(
        'INSERT INTO session_search (rowid, id, email, name) SELECT rowid, id, email_search, name_search FROM payment_sessions WHERE seq <= 2',
      )
      .run();
    old
      .prepare(
        'DELETE FROM session_search_pending WHERE session_rowid IN (SELECT rowid FROM payment_sessions WHERE seq <= 2)',
      )
      .run();
    write(3, session('dev', 'rory@example.com')); // queued under schema 11
    old.close();

    const db: Db = openDatabase(file);
    const store = createStore(db);
    expect(db.prepare('SELECT COUNT(*) FROM session_search_pending').pluck().get()).toBe(0);
    // Each entry's rowid is its channel's number, shifted, plus the session's seq.
    const entries = db
      .prepare(`SELECT c.channel, e.rowid & ${2 ** 40 - 1} AS seq FROM session_search e
      JOIN search_channels c ON c.number = e.rowid >> 40 ORDER BY e.rowid`)
      .all();
    expect(entries).toEqual([
      { channel: 'dev', seq: 1 },
      { channel: 'dev', seq: 3 },
      { channel: 'other', seq: 2 },
    ]);
    expect(emails(store, 'dev', { search: 'example.com' })).toEqual(['rory@example.com', 'amelia@example.com']);
    expect(emails(store, 'other', { search: 'example.com' })).toEqual(['ood@example.com']);
    db.close();
  });
});

describe('a database of schema 14', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('gives every customer a business id, on its tokens and its sessions, and search matches it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'session-search-'));
    dirs.push(dir);
    const file = path.join(dir, 'old.db');
    const old = openDatabase(
      file,
      MIGRATIONS.filter((m) => m.version <= 14),
    );
    // The store of schema 14 wrote sessions and tokens like this: no customer, no business id.
    const insert =
      old.prepare(`INSERT INTO payment_sessions (seq, id, channel, created_at, idempotency_key, kind, status, captured_at, email_search, name_search, payment_token, document, list_view, list_view_version)
      VALUES (@seq, @id, @channel, @created_at, @idempotency_key, @kind, @status, @captured_at, @email_search, @name_search, @payment_token, @document, @list_view, 1)`);
    let seq = 0;
    const write = (created: Session) => {
      insert.run({ ...sessionColumns(created), seq: ++seq });
      return created.id;
    };
    // A token of a setup that named no email: its customer is the request, not any email.
    old
      .prepare(`INSERT INTO payment_tokens (token, channel, session_id, status, next_action, created_at, customer_key, seq)
      VALUES ('ptok_old', 'dev', NULL, 'active', NULL, '2026-01-01T00:00:00.000Z', 'request:1234', 1)`)
      .run();
    const amelia = write(session('dev', 'amelia@example.com'));
    const ameliaAgain = write(session('dev', 'AMELIA@example.com'));
    const ameliaElsewhere = write(session('other', 'amelia@example.com'));
    const anonymous = write({
      ...session('dev', 'x@example.com'),
      customer_email: undefined,
      customer_name: undefined,
    });
    const charged = write({
      ...session('dev', 'x@example.com'),
      customer_email: undefined,
      customer_name: undefined,
      payment_token: 'ptok_old',
    });
    old.close();

    const db = openDatabase(file);
    const store = createStore(db);
    const userOf = (channel: string, id: string) => store.sessions.get(channel, id)!.user_business_id!;
    const tokenUser = store.tokens.get('dev', 'ptok_old')!.user_business_id;
    expect(tokenUser).toMatch(/^[0-9a-f-]{36}$/);
    expect(userOf('dev', charged)).toBe(tokenUser);
    expect(userOf('dev', ameliaAgain)).toBe(userOf('dev', amelia));
    expect(
      new Set([userOf('dev', amelia), userOf('other', ameliaElsewhere), userOf('dev', anonymous), tokenUser]).size,
    ).toBe(4);
    expect(db.prepare('SELECT COUNT(*) FROM payment_sessions WHERE user_business_id IS NULL').pluck().get()).toBe(0);
    // The stored list items carry it, and the rebuilt index (nothing left queued) finds it.
    expect(db.prepare('SELECT COUNT(*) FROM session_search_pending').pluck().get()).toBe(0);
    const views = store.sessions.listViews('dev', sessionListFilter({ search: userOf('dev', amelia) }), {
      offset: 0,
      limit: 30,
    });
    expect(views.views.map((view) => JSON.parse(view).user_business_id)).toEqual([
      userOf('dev', amelia),
      userOf('dev', amelia),
    ]);
    expect(list(store, 'dev', { search: tokenUser!.slice(0, 13) }).sessions.map((s) => s.id)).toEqual([charged]);
    // A customer seen again after the upgrade keeps its id.
    expect(store.customers.businessIdOf('dev', 'amelia@example.com', () => 'minted')).toBe(userOf('dev', amelia));
    db.close();
  });
});
