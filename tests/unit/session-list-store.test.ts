// Listing sessions in SQL: newest first by a creation sequence (not by timestamp), only the page's
// documents parsed, every filter on an index, and databases of the previous schema upgraded.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newSession } from '../../src/sandbox/domain/create-session.js';
import { sessionListFilter } from '../../src/sandbox/domain/listing.js';
import type { CreateSessionRequest, Session } from '../../src/sandbox/domain/types.js';
import { migrate, openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { MIGRATIONS } from '../../src/sandbox/store/migrations.js';
import { sessionRequest } from '../../testkit/sandbox.js';

afterEach(() => vi.restoreAllMocks());

let counter = 0;
function session(fields: { id: string; channel?: string; created_at: string; email?: string }): Session {
  const request = sessionRequest({ customer_email: fields.email ?? 'jane@example.com' }) as CreateSessionRequest;
  return newSession({
    id: fields.id,
    channel: fields.channel ?? 'dev',
    request,
    now: fields.created_at,
    newId: () => `item${counter++}`,
  });
}

const page = (offset = 0, limit = 30) => ({ offset, limit });

describe('sessions listed in SQL', () => {
  it('orders sessions created in the same millisecond by creation, not by their random ids', () => {
    const store = createStore(openDatabase(':memory:'));
    const at = '2026-11-20T10:00:00.000Z';
    // Inserted z…, then a…: a timestamp-then-id order would put them the wrong way round.
    for (const id of [
      'ffffffff-0000-4000-8000-000000000000',
      '00000000-0000-4000-8000-000000000000',
      '88888888-0000-4000-8000-000000000000',
    ]) {
      store.sessions.insert(session({ id, created_at: at }));
    }
    const { sessions } = store.sessions.list('dev', sessionListFilter({}), page());
    expect(sessions.map((s) => s.id[0])).toEqual(['8', '0', 'f']);
  });

  it('parses only the documents of the page, however many sessions match', () => {
    const store = createStore(openDatabase(':memory:'));
    for (let i = 0; i < 200; i++)
      store.sessions.insert(
        session({
          id: `id-${String(i).padStart(4, '0')}`,
          created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        }),
      );
    const parse = vi.spyOn(JSON, 'parse');
    const { sessions, count } = store.sessions.list('dev', sessionListFilter({}), page(10, 5));
    expect({ count, ids: sessions.map((s) => s.id) }).toEqual({
      count: 200,
      ids: ['id-0189', 'id-0188', 'id-0187', 'id-0186', 'id-0185'],
    });
    expect(parse).toHaveBeenCalledTimes(5);
  });

  it.each([
    ['no filter', {}],
    ['status', { status: ['captured', 'authorized'] }],
    ['kind', { kind: ['authorization'] }],
    ['filter_pending', { filter_pending: true }],
    ['payment_token', { payment_token: 'ptok_1' }],
    ['created range', { created_on_start: '2026-01-01T00:00:00Z', created_on_end: '2026-02-01T00:00:00Z' }],
    ['captured range', { captured_on_start: '2026-01-01T00:00:00Z' }],
  ] as const)('reads an index for %s, never the whole table', (_case, query) => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    store.sessions.insert({
      ...session({ id: 'captured', created_at: '2026-01-02T00:00:00.000Z' }),
      status: 'captured',
      captured_at: '2026-01-03T00:00:00.000Z',
    });
    store.sessions.insert({
      ...session({ id: 'held', created_at: '2026-01-02T00:00:00.000Z' }),
      status: 'authorized',
      kind: 'authorization',
    });
    store.sessions.insert({
      ...session({ id: 'pending', created_at: '2026-01-02T00:00:00.000Z' }),
      payment_token: 'ptok_1',
    });
    const spy = vi.spyOn(db, 'prepare');
    expect(store.sessions.list('dev', sessionListFilter(query as never), page()).sessions.length).toBeGreaterThan(0);
    const statements = spy.mock.calls.map(([sql]) => sql);
    expect(statements.length).toBeGreaterThan(0);
    const plans = statements.map((sql) => {
      const params = Object.fromEntries(
        [...sql.matchAll(/@(\w+)/g)].map(([, name]) => [name, /limit|offset|window/.test(name!) ? 30 : 'x']),
      );
      return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>)
        .map((r) => r.detail)
        .join('\n');
    });
    for (const plan of plans) {
      expect(plan).toMatch(
        /SEARCH (payment_sessions USING (COVERING )?INDEX payment_sessions_|payment_sessions USING INTEGER PRIMARY KEY)/,
      );
      expect(plan).not.toMatch(/SCAN payment_sessions(?! USING)/);
    }
    // The token and capture-time indexes are partial (only sessions that have one): a filter on
    // either still implies their condition, and reads them.
    const narrowIndex = {
      payment_token: 'payment_sessions_channel_token',
      'captured range': 'payment_sessions_channel_captured_at',
    }[_case as string];
    if (narrowIndex) expect(plans.join('\n')).toContain(`INDEX ${narrowIndex} `);
  });

  it('pages every status and kind filter exactly as filtering the whole list would', () => {
    const store = createStore(openDatabase(':memory:'));
    const statuses = ['pending', 'processing', 'captured', 'authorized', 'authorization_voided', 'canceled'] as const;
    const all: Session[] = [];
    for (let n = 0; n < 120; n++) {
      const created: Session = {
        ...session({ id: `s${String(n).padStart(3, '0')}`, created_at: '2026-01-01T00:00:00.000Z' }),
        kind: n % 3 ? 'authorization' : 'one_time_payment',
        status: statuses[(n * 7) % statuses.length]!,
      };
      store.sessions.insert(created);
      all.unshift(created); // newest first
    }
    const queries = [
      { status: ['captured'] },
      { status: ['pending', 'canceled'], kind: ['authorization'] },
      { kind: ['one_time_payment'] },
      { filter_pending: true, filter_voided: true },
      { status: ['captured'], filter_pending: true },
      { status: ['processing'], kind: ['one_time_payment'] },
    ] as const;
    for (const query of queries) {
      const expected = all.filter(
        (x) =>
          (!('status' in query) || (query.status as readonly string[]).includes(x.status)) &&
          (!('kind' in query) || (query.kind as readonly string[]).includes(x.kind)) &&
          !('filter_pending' in query && x.status === 'pending') &&
          !('filter_voided' in query && x.status === 'authorization_voided'),
      );
      for (const [offset, limit] of [
        [0, 7],
        [7, 7],
        [5, 100],
        [200, 10],
      ] as const) {
        const listed = store.sessions.list('dev', sessionListFilter(query as never), page(offset, limit));
        expect({ query, offset, count: listed.count, ids: listed.sessions.map((x) => x.id) }).toEqual({
          query,
          offset,
          count: expected.length,
          ids: expected.slice(offset, offset + limit).map((x) => x.id),
        });
      }
    }
  });

  it('searches id, email and name as substrings: long needles on the trigram index, short ones on the list index', () => {
    const db = openDatabase(':memory:');
    // Watched from the start: the search's statements are prepared with the store.
    const spy = vi.spyOn(db, 'prepare');
    const store = createStore(db);
    store.sessions.insert({
      ...session({ id: 'aaaa-1', created_at: '2026-01-01T00:00:00.000Z', email: 'Zoë.O"Neil@Example.com' }),
      customer_name: 'Zoë O"Neil',
    });
    store.sessions.insert({
      ...session({ id: 'bbbb-2', created_at: '2026-01-01T00:00:00.000Z', email: 'max@example.com' }),
      customer_name: 'Max Power',
    });
    const found = (search: string) =>
      store.sessions.list('dev', sessionListFilter({ search }), page()).sessions.map((x) => x.id);
    // Still queued for the trigram index, then indexed: the same answers.
    for (const indexed of [false, true]) {
      if (indexed) store.sessions.indexPendingSearches();
      expect(found('o"nei')).toEqual(['aaaa-1']);
      expect(found('ZOË')).toEqual(['aaaa-1']);
      expect(found('x pow')).toEqual(['bbbb-2']);
      expect(found('b-2')).toEqual(['bbbb-2']);
      expect(found('EXAMPLE.COM')).toEqual(['bbbb-2', 'aaaa-1']);
      expect(found('ax')).toEqual(['bbbb-2']);
      expect(found('"')).toEqual(['aaaa-1']);
      expect(found('nobody')).toEqual([]);
    }
    const plans = spy.mock.calls
      .map(([sql]) => sql)
      .filter((sql) => /session_search|json_each\(@seqs\)/.test(sql))
      .map((sql) => {
        const params = Object.fromEntries(
          [...sql.matchAll(/@(\w+)/g)].map(([, name]) => [
            name,
            /first|last/.test(name!) ? 1n : /limit|offset/.test(name!) ? 1 : name === 'seqs' ? '[1]' : 'x',
          ]),
        );
        return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>)
          .map((r) => r.detail)
          .join('\n');
      })
      .join('\n');
    expect(plans).toContain('session_search_pending');
    expect(plans).toContain('VIRTUAL TABLE INDEX');
    // Every session a search reads is looked up by its seq: none is reached by walking a channel.
    const sessionReads = plans.split('\n').filter((line) => / (payment_sessions|s) /.test(`${line} `));
    expect(sessionReads.length).toBeGreaterThan(0);
    for (const line of sessionReads)
      expect(line).toMatch(
        /^SEARCH (payment_sessions|s) USING (COVERING )?INDEX payment_sessions_\w+ \((channel=\? AND )?seq=\?\)$/,
      );
  });

  it('counts by status and kind from counts that every insert and status change keeps exact', () => {
    const store = createStore(openDatabase(':memory:'));
    const statuses = ['pending', 'processing', 'captured', 'authorized', 'authorization_voided'] as const;
    const sessions: Session[] = [];
    for (let n = 0; n < 60; n++) {
      const created = {
        ...session({ id: `s${n}`, channel: n % 3 ? 'dev' : 'other', created_at: '2026-01-01T00:00:00.000Z' }),
        kind: n % 2 ? ('authorization' as const) : ('one_time_payment' as const),
      };
      store.sessions.insert(created);
      sessions.push(created);
      const moved = sessions[(n * 7) % sessions.length]!;
      moved.status = statuses[(n * 5) % statuses.length]!;
      store.sessions.update(moved);
    }
    for (const status of statuses) {
      for (const kind of ['authorization', 'one_time_payment'] as const) {
        const expected = sessions.filter((x) => x.channel === 'dev' && x.status === status && x.kind === kind).length;
        expect(store.sessions.list('dev', sessionListFilter({ status: [status], kind: [kind] }), page()).count).toBe(
          expected,
        );
      }
    }
    const notPending = sessions.filter((x) => x.channel === 'dev' && x.status !== 'pending').length;
    expect(store.sessions.list('dev', sessionListFilter({ filter_pending: true }), page()).count).toBe(notPending);
  });

  it("keeps another channel's sessions out of the count and the page", () => {
    const store = createStore(openDatabase(':memory:'));
    store.sessions.insert(session({ id: 'mine', created_at: '2026-01-01T00:00:00.000Z' }));
    store.sessions.insert(session({ id: 'theirs', channel: 'other', created_at: '2026-01-01T00:00:00.000Z' }));
    expect(store.sessions.list('dev', sessionListFilter({}), page())).toMatchObject({
      count: 1,
      sessions: [{ id: 'mine' }],
    });
  });
});

describe('a database of the previous schema', () => {
  it('is upgraded: sessions numbered in creation order, listed fields filled, the shared clock kept per channel', () => {
    const db = openDatabase(
      ':memory:',
      MIGRATIONS.filter((m) => m.version <= 2),
    );
    const insert = db.prepare(
      'INSERT INTO payment_sessions (id, channel, created_at, idempotency_key, document) VALUES (?, ?, ?, ?, ?)',
    );
    const older = session({ id: 'older', created_at: '2026-01-01T00:00:00.000Z', email: 'Old@Example.com' });
    const newer = {
      ...session({ id: 'newer', created_at: '2026-01-02T00:00:00.000Z' }),
      status: 'captured' as const,
      captured_at: '2026-01-03T00:00:00.000Z',
    };
    insert.run('newer', 'dev', newer.created_at, null, JSON.stringify(newer));
    insert.run('older', 'dev', older.created_at, null, JSON.stringify(older));
    db.prepare('UPDATE clock SET offset_ms = 60000').run();

    migrate(db, MIGRATIONS);
    const store = createStore(db);
    expect(store.sessions.list('dev', sessionListFilter({}), page()).sessions.map((s) => s.id)).toEqual([
      'newer',
      'older',
    ]);
    expect(store.sessions.list('dev', sessionListFilter({ status: ['captured'] }), page()).count).toBe(1);
    expect(store.sessions.list('dev', sessionListFilter({ search: 'OLD@' }), page()).sessions.map((s) => s.id)).toEqual(
      ['older'],
    );
    expect(store.clock.offsetSeconds('dev')).toBe(60);
    expect(store.clock.offsetSeconds('other')).toBe(0);
    // A session created after the upgrade is the newest.
    store.sessions.insert(session({ id: 'latest', created_at: '2025-01-01T00:00:00.000Z' }));
    expect(store.sessions.list('dev', sessionListFilter({}), page(0, 1)).sessions[0]!.id).toBe('latest');
  });
});
