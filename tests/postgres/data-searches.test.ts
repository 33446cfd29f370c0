// The lists' work on PostgreSQL is bounded as on SQLite: every statement a list runs can be
// answered from an index (none needs the whole table), and a search is refused, with SQLite's
// refusal, when it would read past its bound: more than MAX_SEARCH_MATCHES matches, or a short
// search in a channel of more than MAX_SHORT_SEARCH_ROWS sessions.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionListFilter } from '../../src/sandbox/domain/listing.js';
import {
  MAX_SEARCH_MATCHES,
  MAX_SHORT_SEARCH_ROWS,
  sessionSearchRefusals,
  tokenSearchRefusals,
} from '../../src/sandbox/domain/search-bounds.js';
import { catalogRepository } from '../../src/sandbox/store/postgres/catalog.js';
import { sessionsRepository } from '../../src/sandbox/store/postgres/sessions.js';
import { tokenListQueries } from '../../src/sandbox/store/postgres/token-list.js';
import { dataDatabase, type Process, processOn, noAnswers } from './data-process.js';
import { recording } from '../support/recording-queries.js';

let url: string;
let process: Process;
beforeAll(async () => {
  url = await dataDatabase('data_searches');
  process = processOn(url);
});
afterAll(async () => {
  await process.close();
});

/** `count` sessions of the channel, written at once, whose email holds `needle`. */
const manySessions = (channel: string, count: number, needle: string) =>
  process.q.run(
    `INSERT INTO payment_sessions (id, channel, created_at, document, kind, status, email_search, list_view,
        list_view_version, detail_view, detail_view_version)
      SELECT $1 || '-' || n, $1, '2026-03-01T00:00:00.000Z', '{}', 'one_time_payment', 'pending',
        'c' || n || '.' || $3 || '@example.com', '{}', 1, '{}', 1
      FROM generate_series(1, $2::integer) AS n`,
    [channel, count, needle],
  );

/** `count` active tokens of the channel, written at once, whose email holds `needle`. */
const manyTokens = (channel: string, count: number, needle: string) =>
  process.q.run(
    `INSERT INTO payment_tokens (token, channel, status, created_at, customer_key, email_search, name_search,
        card_expires, lmn_expires_at)
      SELECT $1 || '-ptok-' || n, $1, 'active', '2026-03-01T00:00:00.000Z', 'c' || n, 'c' || n || '@' || $3 || '.example',
        'name ' || n, '2027-0' || (n % 9 + 1), '2027-0' || (n % 9 + 1) || '-15'
      FROM generate_series(1, $2::integer) AS n`,
    [channel, count, needle],
  );

/** The thrown value's message, or a note that nothing was thrown. */
async function refusal(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return 'not refused';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('searches bounded as on SQLite', () => {
  it('refuses a session search with more than MAX_SEARCH_MATCHES matches, as SQLite does', async () => {
    await manySessions('broad', MAX_SEARCH_MATCHES + 1, 'needle');
    const sessions = sessionsRepository(process.q, noAnswers);
    const page = { offset: 0, limit: 5 };
    const expected = sessionSearchRefusals.tooBroad([{ parameter: 'search', value: 'NEEDLE' }]).message;
    expect(await refusal(() => sessions.list('broad', sessionListFilter({ search: 'NEEDLE' }), page))).toBe(expected);
    // One fewer match is answered, and counted exactly.
    await process.q.run("DELETE FROM payment_sessions WHERE id = 'broad-1'");
    const { count } = await sessions.list('broad', sessionListFilter({ search: 'needle' }), page);
    expect(count).toBe(MAX_SEARCH_MATCHES);
  });

  it('refuses a short session search in a channel of more than MAX_SHORT_SEARCH_ROWS sessions, and answers one of exactly as many', async () => {
    await manySessions('large', MAX_SHORT_SEARCH_ROWS + 1, 'x');
    const sessions = sessionsRepository(process.q, noAnswers);
    const page = { offset: 0, limit: 5 };
    const expected = sessionSearchRefusals.tooShort({ parameter: 'search', value: 'c1' }).message;
    expect(await refusal(() => sessions.list('large', sessionListFilter({ search: 'c1' }), page))).toBe(expected);
    // One fewer session is searched one by one, and every match counted.
    await process.q.run("DELETE FROM payment_sessions WHERE id = 'large-1'");
    const matches = Array.from({ length: MAX_SHORT_SEARCH_ROWS }, (_, i) => `c${i + 2}.x@example.com`).filter((email) =>
      email.includes('c1'),
    );
    const { count } = await sessions.list('large', sessionListFilter({ search: 'c1' }), page);
    expect(count).toBe(matches.length);
  });

  it('refuses a token search with more than MAX_SEARCH_MATCHES matches, as SQLite does', async () => {
    await manyTokens('broad', MAX_SEARCH_MATCHES + 1, 'wide');
    const tokens = tokenListQueries(process.q);
    const expected = tokenSearchRefusals.tooBroad([{ parameter: 'email', value: 'WIDE' }]).message;
    expect(await refusal(() => tokens.list('broad', { email: 'WIDE' }, { offset: 0, limit: 5 }))).toBe(expected);
    // One fewer match is answered, and counted exactly.
    await process.q.run("DELETE FROM payment_tokens WHERE token = 'broad-ptok-1'");
    expect((await tokens.list('broad', { email: 'wide' }, { offset: 0, limit: 5 })).count).toBe(MAX_SEARCH_MATCHES);
  });

  it('refuses a short token needle in a channel of more than MAX_SHORT_SEARCH_ROWS tokens, naming it, and answers one of exactly as many', async () => {
    await manyTokens('large', MAX_SHORT_SEARCH_ROWS + 1, 'big');
    const tokens = tokenListQueries(process.q);
    const page = { offset: 0, limit: 5 };
    const tooShort = (parameter: 'email' | 'name', value: string) =>
      tokenSearchRefusals.tooShort({ parameter, value }).message;
    expect(await refusal(() => tokens.list('large', { name: 'NA' }, page))).toBe(tooShort('name', 'NA'));
    // Two characters once lower-cased, though upper-cased ("ASS") it would be three: too short for the index.
    expect(await refusal(() => tokens.list('large', { email: 'aß' }, page))).toBe(tooShort('email', 'aß'));
    // Without a needle, the same channel is listed.
    expect((await tokens.list('large', {}, page)).count).toBe(MAX_SHORT_SEARCH_ROWS + 1);
    // One fewer token is searched one by one.
    await process.q.run("DELETE FROM payment_tokens WHERE token = 'large-ptok-1'");
    expect((await tokens.list('large', { name: 'NA' }, page)).count).toBe(MAX_SHORT_SEARCH_ROWS);
  });
});

/** The plan of each statement, with sequential scans priced out: one that still scans has no index to use. */
async function plansOf(sent: Array<{ text: string; params: readonly unknown[] }>): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SET enable_seqscan = off');
    const plans: string[] = [];
    for (const { text, params } of sent) {
      const { rows } = await client.query(`EXPLAIN ${text}`, params as unknown[]);
      plans.push(rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n'));
    }
    return plans;
  } finally {
    await client.end();
  }
}

describe('lists read indexes, never whole tables', () => {
  beforeAll(async () => {
    await manySessions('planned', 50, 'needle');
    await manyTokens('planned', 50, 'wide');
    await process.write(() =>
      catalogRepository(process.q).seed('planned', '2026-03-01T00:00:00.000Z', () => `prod-${Math.random()}`),
    );
  });

  it('the check sees a statement that has no index to read', async () => {
    const [plan] = await plansOf([{ text: 'SELECT id FROM payment_sessions WHERE document = $1', params: ['{}'] }]);
    expect(plan).toMatch(/Seq Scan/);
  });

  it.each([
    ['no filter', {}],
    ['status', { status: ['captured', 'pending'] }],
    ['kind', { kind: ['authorization'] }],
    ['filter_pending', { filter_pending: true }],
    ['payment_token', { payment_token: 'ptok_1' }],
    ['created range', { created_on_start: '2026-01-01T00:00:00Z', created_on_end: '2026-04-01T00:00:00Z' }],
    ['captured range', { captured_on_start: '2026-01-01T00:00:00Z' }],
    ['a long search', { search: 'c12.needle' }],
    ['a long search and a status', { search: 'needle', status: ['pending'] }],
    ['a short search', { search: 'c1' }],
  ] as const)('a session list by %s', async (_case, query) => {
    const { queries, sent } = recording(process.q);
    const sessions = sessionsRepository(queries, noAnswers);
    await sessions.list('planned', sessionListFilter(query as never), { offset: 0, limit: 5 });
    for (const plan of await plansOf(sent)) expect(plan).not.toMatch(/Seq Scan/);
  });

  it.each([
    ['no filter', {}],
    ['a long email needle', { email: 'wide' }],
    ['a short name needle', { name: 'na' }],
    ['card_expires_before', { cardExpiresBefore: '2027-02' }],
    ['lmn_expires_before', { lmnExpiresBefore: '2027-02-15' }],
    ['every filter', { email: 'wide', name: 'nam', cardExpiresBefore: '2027-05', lmnExpiresBefore: '2027-05-01' }],
  ] as const)('a token list by %s', async (_case, filter) => {
    const { queries, sent } = recording(process.q);
    await tokenListQueries(queries).list('planned', filter, { offset: 0, limit: 5 });
    for (const plan of await plansOf(sent)) expect(plan).not.toMatch(/Seq Scan/);
  });

  it.each([
    ['no filter', {}],
    ['eligibility', { eligibility: 'eligible' }],
    ['updated_after', { updatedAfter: '2026-01-01T00:00:00.000Z' }],
  ] as const)('a catalog list by %s', async (_case, filter) => {
    const { queries, sent } = recording(process.q);
    await catalogRepository(queries).list('planned', filter, { offset: 0, limit: 5 });
    for (const plan of await plansOf(sent)) expect(plan).not.toMatch(/Seq Scan/);
  });
});
