// A token search (the list's `email` and `name`) costs what its own channel's tokens cost: the
// trigram index keeps each channel's active tokens in a rowid range of their own, a search reads its
// channel's range only, and every search is bounded, refused past its bound with the list's 400.
// The reproduction first: a channel of many matching tokens, and a search in another.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  MAX_SEARCH_LENGTH,
  MAX_SEARCH_MATCHES,
  MAX_SHORT_SEARCH_ROWS,
} from '../../src/sandbox/domain/search-bounds.js';
import { tokenListFilter, type TokenListFilter } from '../../src/sandbox/domain/token-listing.js';
import type { PaymentTokenRecord } from '../../src/sandbox/domain/types.js';
import { openDatabase, type Db } from '../../src/sandbox/store/database.js';
import { createStore, type Store } from '../../src/sandbox/store/index.js';
import { MIGRATIONS } from '../../src/sandbox/store/migrations.js';
import { tokenSearch } from '../../src/sandbox/store/token-search.js';
import { refusalOf } from '../support/refusals.js';

afterEach(() => vi.restoreAllMocks());

let n = 0;
function token(
  channel: string,
  email: string | null,
  name: string | null = 'Pat Lee',
  overrides: Partial<PaymentTokenRecord> = {},
): PaymentTokenRecord {
  n++;
  return {
    token: `ptok_${n}`,
    channel,
    session_id: null,
    status: 'active',
    next_action: null,
    created_at: '2026-01-01T00:00:00.000Z',
    customer_email: email,
    customer_name: name,
    customer_key: email?.toLowerCase() ?? `key${n}`,
    card_brand: 'visa',
    card_last4: '4242',
    card_expires: '2030-01',
    lmn_expires_at: null,
    provision_request_id: null,
    metadata: null,
    success_url: null,
    failure_url: null,
    ...overrides,
  };
}

/** A token as the store of schema 13 wrote it: the columns it had then (no user_business_id). */
function insertAtSchema13(db: Db, record: PaymentTokenRecord): void {
  const { user_business_id: _user, ...columns } = record;
  const names = Object.keys(columns);
  db.prepare(`INSERT INTO payment_tokens (${names.join(', ')}, email_search, name_search, seq)
    VALUES (${names.map((name) => `@${name}`).join(', ')}, @email_search, @name_search, (SELECT IFNULL(MAX(seq), 0) + 1 FROM payment_tokens))`).run(
    {
      ...columns,
      email_search: record.customer_email?.toLowerCase() ?? null,
      name_search: record.customer_name?.toLowerCase() ?? null,
    },
  );
}

/** `count` active tokens of `channel`, written in one transaction. */
function insertMany(
  store: Store,
  channel: string,
  count: number,
  email = (i: number) => `buyer${i}@example.com`,
): void {
  store.transaction(() => {
    for (let i = 0; i < count; i++) store.tokens.insert(token(channel, email(i), `Buyer ${i}`));
  });
}

const list = (store: Store, channel: string, filter: TokenListFilter, offset = 0, limit = 30) =>
  store.tokens.list(channel, filter, { offset, limit });
const emails = (store: Store, channel: string, filter: TokenListFilter) =>
  list(store, channel, filter).tokens.map((t) => t.customer_email);

describe('a token search in one channel', () => {
  it("reads none of another channel's tokens: an empty channel answers empty, at no cost", () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    insertMany(store, 'dev', 400);
    const search = tokenSearch(db);

    expect(list(store, 'dev', { email: 'example.com' }).count).toBe(400);
    // The reproduction: channel other holds no token, and its search reads nothing of dev's.
    expect(list(store, 'other', { email: 'example.com' })).toEqual({ tokens: [], count: 0 });
    expect(search.matches('other', { email: 'example.com' })).toEqual({ seqs: [], indexedRead: 0 });

    // Once other has a token, its search reads its own, and dev's reads dev's.
    store.tokens.insert(token('other', 'ann@example.com'));
    expect(emails(store, 'other', { email: 'example' })).toEqual(['ann@example.com']);
    expect(search.matches('other', { email: 'example' })).toMatchObject({ indexedRead: 1 });
    expect(search.matches('other', { email: 'buyer' })).toEqual({ seqs: [], indexedRead: 0 });
    expect(search.matches('dev', { email: 'example' })).toMatchObject({ indexedRead: 400 });
  });

  it("asks the index for the channel's own rowid range as integers, in the index's order", () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    store.tokens.insert(token('dev', 'ann@example.com'));
    const spy = vi.spyOn(db, 'prepare');
    const search = tokenSearch(db);
    const statement = spy.mock.results
      .map((result) => result.value as ReturnType<Db['prepare']>)
      .find((prepared) => prepared.source.includes('MATCH'))!;
    // better-sqlite3 binds a JS number as a REAL, and FTS5 ignores a REAL rowid bound: it would
    // walk every channel's matches and leave SQLite to drop the others'. The bounds are BigInts.
    const all = vi.spyOn(statement, 'all');
    search.matches('dev', { email: 'example' });
    const bound = all.mock.calls[0]![0] as Record<string, unknown>;
    expect([typeof bound.first, typeof bound.last]).toEqual(['bigint', 'bigint']);

    const params = Object.fromEntries(
      [...statement.source.matchAll(/@(\w+)/g)].map(([, name]) => [
        name,
        /first|last/.test(name!) ? 1n : name === 'limit' ? 1 : 'email : "x"',
      ]),
    );
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${statement.source}`).all(params) as Array<{ detail: string }>)
      .map((row) => row.detail)
      .join('\n');
    // FTS5 takes the MATCH and both rowid bounds itself (M…><), and delivers its rows in order: no sort.
    expect(plan).toMatch(/^SCAN token_search VIRTUAL TABLE INDEX \d+:M\d*><$/);
  });

  it('reads each matched token by its seq, with every filter, and no whole channel', () => {
    const db = openDatabase(':memory:');
    const spy = vi.spyOn(db, 'prepare');
    const store = createStore(db);
    store.tokens.insert(token('dev', 'ann@example.com', 'Pat Lee', { lmn_expires_at: '2030-06-15' }));
    expect(
      list(store, 'dev', { email: 'example', name: 'a', cardExpiresBefore: '2031-01', lmnExpiresBefore: '2031-01-01' })
        .tokens,
    ).toHaveLength(1);
    const reads = spy.mock.calls
      .map(([sql]) => sql)
      .filter((sql) => sql.includes('json_each') && sql.includes('payment_tokens'))
      .flatMap((sql) => {
        const params = Object.fromEntries(
          [...sql.matchAll(/@(\w+)/g)].map(([, name]) => [name, name === 'seqs' ? '[1]' : 'x']),
        );
        return (
          db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(sql.includes('?') ? ['[1]'] : params) as Array<{ detail: string }>
        ).map((row) => row.detail);
      })
      .filter((line) => line.includes('payment_tokens'));
    // The filters first, then the page's rows, each read by its seq.
    expect(reads).toEqual([
      'SEARCH payment_tokens USING COVERING INDEX payment_tokens_channel_seq (channel=? AND seq=?)',
      'SEARCH payment_tokens USING INDEX payment_tokens_seq (seq=?)',
    ]);
  });

  it('keeps the index to the active tokens through activation, deletion and a channel reset', () => {
    const store = createStore(openDatabase(':memory:'));
    const pending = token('dev', 'pending@example.com', 'Pen Ding', { status: 'pending_checkout' });
    store.tokens.insert(pending);
    store.tokens.insert(token('dev', 'kept@example.com'));
    const gone = token('dev', 'gone@example.com');
    store.tokens.insert(gone);
    expect(emails(store, 'dev', { email: 'example.com' })).toEqual(['gone@example.com', 'kept@example.com']);

    store.tokens.setStatus('dev', pending.token, 'active');
    store.tokens.setStatus('dev', gone.token, 'deleted');
    expect(emails(store, 'dev', { email: 'example.com' })).toEqual(['kept@example.com', 'pending@example.com']);
    expect(tokenSearch(store.db).matches('dev', { email: 'example.com' }).indexedRead).toBe(2);
    expect(emails(store, 'dev', { name: 'pen ding' })).toEqual(['pending@example.com']);

    // A reset deletes the channel's tokens; new ones take their seqs again, and only they match.
    store.reset.channel('dev');
    expect(list(store, 'dev', { email: 'example.com' }).count).toBe(0);
    store.tokens.insert(token('dev', 'martha@example.com'));
    expect(emails(store, 'dev', { email: 'example.com' })).toEqual(['martha@example.com']);
    expect(emails(store, 'dev', { email: 'kept' })).toEqual([]);
  });

  it('answers exactly as a scan would: both needles, short beside long, the other filters, pages and counts', () => {
    const store = createStore(openDatabase(':memory:'));
    for (let i = 0; i < 12; i++) {
      store.tokens.insert(
        token('dev', `P${i}@Example.com`, `Zoë "Q" ${i}`, { card_expires: `2030-${String(i + 1).padStart(2, '0')}` }),
      );
    }
    store.tokens.insert(token('dev', 'someone@else.org', null));
    store.tokens.insert(token('dev', null, 'Nobody Known'));
    store.tokens.insert(token('other', 'p1@example.com'));
    const all = emails(store, 'dev', { email: '@EXAMPLE' });
    expect(all).toEqual(Array.from({ length: 12 }, (_, i) => `P${11 - i}@Example.com`));
    expect(emails(store, 'dev', { name: 'zoë "q" 1' })).toEqual([
      'P11@Example.com',
      'P10@Example.com',
      'P1@Example.com',
    ]);
    expect(emails(store, 'dev', { email: 'example', name: '1' })).toEqual([
      'P11@Example.com',
      'P10@Example.com',
      'P1@Example.com',
    ]);
    expect(emails(store, 'dev', { email: 'p1', name: '"q" 1' })).toEqual([
      'P11@Example.com',
      'P10@Example.com',
      'P1@Example.com',
    ]);
    expect(emails(store, 'dev', { email: 'example.com', cardExpiresBefore: '2030-03' })).toEqual([
      'P2@Example.com',
      'P1@Example.com',
      'P0@Example.com',
    ]);
    expect(emails(store, 'dev', { name: 'known' })).toEqual([null]);
    expect(emails(store, 'dev', { email: 'else.org', name: 'zoë' })).toEqual([]);
    const second = list(store, 'dev', { email: '@example' }, 5, 5);
    expect({ count: second.count, page: second.tokens.map((t) => t.customer_email) }).toEqual({
      count: 12,
      page: all.slice(5, 10),
    });
    expect(list(store, 'dev', { email: '@example' }, 20, 5)).toEqual({ tokens: [], count: 12 });
    // A NUL cannot go into the index's query: such a needle is tested token by token.
    expect(emails(store, 'dev', { email: 'p1\u0000' })).toEqual([]);
  });
});

describe('the bounds of a token search', () => {
  it(`answers up to ${MAX_SEARCH_MATCHES} matches, and refuses a search that matches more`, () => {
    const store = createStore(openDatabase(':memory:'));
    insertMany(store, 'dev', MAX_SEARCH_MATCHES);
    expect(list(store, 'dev', { email: 'example.com' }).count).toBe(MAX_SEARCH_MATCHES);
    store.tokens.insert(token('dev', 'late@example.com', 'Late Buyer'));
    expect(refusalOf(() => list(store, 'dev', { email: 'EXAMPLE.com' }))).toEqual({
      code: 'InvalidRequestParameter',
      message: `email "EXAMPLE.com" matches more than ${MAX_SEARCH_MATCHES} tokens, the most the sandbox counts for one search: search for something longer or more specific.`,
    });
    // The other filters do not lift it: the matches are read before the filters test them.
    expect(
      refusalOf(() => list(store, 'dev', { email: 'example.com', name: 'Buyer', cardExpiresBefore: '2000-01' })),
    ).toEqual({
      code: 'InvalidRequestParameter',
      message: `email "example.com" and name "Buyer" match more than ${MAX_SEARCH_MATCHES} tokens, the most the sandbox counts for one search: search for something longer or more specific.`,
    });
    // A narrower search, and another channel, are answered as before.
    expect(emails(store, 'dev', { email: 'buyer4999@' })).toEqual(['buyer4999@example.com']);
    expect(list(store, 'other', { email: 'example.com' }).count).toBe(0);
  });

  it(`reads at most ${MAX_SHORT_SEARCH_ROWS} tokens for a search too short for the index`, () => {
    const store = createStore(openDatabase(':memory:'));
    insertMany(store, 'dev', MAX_SHORT_SEARCH_ROWS, (i) => `b${i}@shop.test`);
    expect(list(store, 'dev', { email: 'b7' }).count).toBe(1_111);
    store.tokens.insert(token('dev', 'one@more.test'));
    expect(refusalOf(() => list(store, 'dev', { email: 'b7' }))).toEqual({
      code: 'InvalidRequestParameter',
      message: `email "b7" is shorter than 3 characters, so it reads every token of the channel one by one, and the sandbox does so for at most ${MAX_SHORT_SEARCH_ROWS} tokens: give email or name 3 characters or more.`,
    });
    expect(refusalOf(() => list(store, 'dev', { name: 'b7@\u0000' })).message).toMatch(
      /^name "b7@\\u0000" holds a NUL character, so it reads every token/,
    );
    // A long needle beside the short one reads the index, and tests the short one on its matches.
    expect(emails(store, 'dev', { email: 'b77@', name: 'b' })).toEqual(['b77@shop.test']);
    expect(list(store, 'other', { email: 'b7' }).count).toBe(0);
  });

  it(`refuses an email or name longer than ${MAX_SEARCH_LENGTH} characters before any read`, () => {
    expect(tokenListFilter({ email: 'é'.repeat(MAX_SEARCH_LENGTH), name: 'Ann' })).toEqual({
      email: 'é'.repeat(MAX_SEARCH_LENGTH),
      name: 'Ann',
    });
    for (const parameter of ['email', 'name'] as const) {
      expect(refusalOf(() => tokenListFilter({ [parameter]: 'é'.repeat(MAX_SEARCH_LENGTH + 1) }))).toEqual({
        code: 'InvalidRequestParameter',
        message: `${parameter} must be at most ${MAX_SEARCH_LENGTH} characters in the sandbox.`,
      });
    }
  });
});

describe('a database of schema 13', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("is indexed again: each channel's active tokens in its own range, sharing the sessions' channel numbers", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'token-search-'));
    dirs.push(dir);
    const file = path.join(dir, 'old.db');
    const old = openDatabase(
      file,
      MIGRATIONS.filter((m) => m.version <= 13),
    );
    const oldTokens = { insert: (record: PaymentTokenRecord) => insertAtSchema13(old, record) };
    old.prepare("INSERT INTO search_channels (channel) VALUES ('sessions-only')").run();
    oldTokens.insert(token('dev', 'amelia@example.com'));
    oldTokens.insert(token('other', 'ood@example.com'));
    oldTokens.insert(token('dev', 'gone@example.com', null, { status: 'deleted' }));
    oldTokens.insert(token('dev', 'rory@example.com'));
    old.close();

    const db = openDatabase(file);
    const store = createStore(db);
    const entries = db
      .prepare(`SELECT c.channel, e.rowid & ${2 ** 40 - 1} AS seq FROM token_search e
      JOIN search_channels c ON c.number = e.rowid >> 40 ORDER BY e.rowid`)
      .all();
    expect(entries).toEqual([
      { channel: 'dev', seq: 1 },
      { channel: 'dev', seq: 4 },
      { channel: 'other', seq: 2 },
    ]);
    expect(db.prepare('SELECT channel FROM search_channels ORDER BY number').pluck().all()).toEqual([
      'sessions-only',
      'dev',
      'other',
    ]);
    expect(emails(store, 'dev', { email: 'example.com' })).toEqual(['rory@example.com', 'amelia@example.com']);
    expect(emails(store, 'other', { email: 'example.com' })).toEqual(['ood@example.com']);
    // A token issued after the upgrade joins its channel's range.
    store.tokens.insert(token('dev', 'donna@example.com'));
    expect(emails(store, 'dev', { email: 'example.com' })).toEqual([
      'donna@example.com',
      'rory@example.com',
      'amelia@example.com',
    ]);
    db.close();
  });
});
