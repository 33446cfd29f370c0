// What a list costs on PostgreSQL, as on SQLite (tests/unit/session-list-work.test.ts,
// token-list-work.test.ts): the statements it runs and the indexes they read. A page costs the page,
// never the table: no count is taken by counting rows when the per-channel counts answer it, a page
// past the matches reads no row, a search's matches are filtered again only when another filter
// asks it, and a filter by status reads each (status, kind) group on its own index.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListQuery, sessionListFilter } from '../../src/sandbox/domain/listing.js';
import type { TokenListFilter } from '../../src/sandbox/domain/token-listing.js';
import { sessionListQueries } from '../../src/sandbox/store/postgres/session-list.js';
import { sessionsRepository } from '../../src/sandbox/store/postgres/sessions.js';
import { tokenListQueries } from '../../src/sandbox/store/postgres/token-list.js';
import { tokenSearch } from '../../src/sandbox/store/postgres/token-search.js';
import { tokensRepository } from '../../src/sandbox/store/postgres/tokens.js';
import { dataDatabase, noAnswers, type Process, processOn } from './data-process.js';
import { recording, type SentStatement } from '../support/recording-queries.js';
import { sessionMaker, tokenMaker } from '../support/numbered-records.js';

let url: string;
let process: Process;
beforeAll(async () => {
  url = await dataDatabase('list_rules');
  process = processOn(url);
  await sixSessions();
  await threeTokens();
});
afterAll(async () => {
  await process.close();
});

type Sent = SentStatement;

/** The plan of a statement, with sequential scans priced out, so that it names the index it reads. */
async function planOf({ text, params }: Sent): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SET enable_seqscan = off');
    const { rows } = await client.query(`EXPLAIN ${text}`, params as unknown[]);
    return rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.end();
  }
}

const session = sessionMaker('six');

/** Six sessions of the channel "six", p0…p5@example.com, newest last: alternately pending and captured, the first two paid with ptok_1. */
async function sixSessions() {
  const sessions = sessionsRepository(process.q, noAnswers);
  for (let i = 0; i < 6; i++)
    await sessions.insert(
      session(`p${i}@example.com`, {
        status: i % 2 ? 'captured' : 'pending',
        ...(i < 2 ? { payment_token: 'ptok_1' } : {}),
      }),
    );
}

/** A session list of "six", and the statements it sent. */
async function sessionList(query: ListQuery, offset = 0, limit = 30) {
  const { queries, sent } = recording(process.q);
  const listed = await sessionListQueries(queries).list('six', sessionListFilter(query), { offset, limit });
  return { listed, sent, emails: listed.sessions.map((s) => s.customer_email) };
}

/** The statements that read the channel's sessions by their seqs: a filter of a search's matches, or a page's rows. */
const bySeqs = (sent: Sent[]) => sent.filter((s) => /FROM payment_sessions\b[\s\S]*seq = ANY/.test(s.text));

describe('the statements a session list runs', () => {
  it('without a filter: one statement, walking the channel newest first, and the count from the per-channel counts', async () => {
    const { listed, sent, emails } = await sessionList({}, 1, 2);
    expect({ count: listed.count, emails }).toEqual({ count: 6, emails: ['p4@example.com', 'p3@example.com'] });
    const reads = sent.filter((s) => /\bpayment_sessions\b/.test(s.text));
    expect(reads.map((s) => s.text)).not.toContainEqual(expect.stringContaining('COUNT('));
    expect(reads).toHaveLength(1);
    // One walk of the channel, whatever the statuses and kinds of its sessions.
    const plan = await planOf(reads[0]!);
    expect(plan).toContain("Index Cond: (channel = 'six'::text)");
    expect(plan).not.toMatch(/status = |kind = /);
  });

  it('filtered by status: each (status, kind) group of the channel read on its own, and the count from the per-channel counts', async () => {
    const { listed, sent, emails } = await sessionList({ status: ['captured'] });
    expect({ count: listed.count, emails }).toEqual({
      count: 3,
      emails: ['p5@example.com', 'p3@example.com', 'p1@example.com'],
    });
    const reads = sent.filter((s) => /\bpayment_sessions\b/.test(s.text));
    expect(reads.map((s) => s.text)).not.toContainEqual(expect.stringContaining('COUNT('));
    expect(reads).toHaveLength(1);
    // The one (status, kind) group present, named exactly, read newest first up to the page.
    expect(await planOf(reads[0]!)).toContain(
      "Index Cond: ((channel = 'six'::text) AND (status = 'captured'::text) AND (kind = 'one_time_payment'::text))",
    );
  });

  it('searched alone: the matches are read as they are, with no statement filtering them again', async () => {
    const { sent, emails } = await sessionList({ search: 'P1@Example' });
    expect(emails).toEqual(['p1@example.com']);
    // The index's matches, then the page's rows: nothing else.
    const reads = bySeqs(sent);
    expect(reads).toHaveLength(1);
    expect(reads[0]!.text).toMatch(/^SELECT document AS document FROM payment_sessions\s+WHERE channel = \$1 AND seq/);
  });

  it('searched beside a status, without a match: nothing filtered, no row read', async () => {
    const { listed, sent } = await sessionList({ search: 'nobody@nowhere', status: ['captured'] });
    expect(listed).toEqual({ sessions: [], count: 0 });
    expect(sent.map((s) => s.text)).toContainEqual(expect.stringContaining('LIKE'));
    expect(bySeqs(sent)).toEqual([]);
  });

  it('searched past its matches: the count, and no row read', async () => {
    const { listed, sent } = await sessionList({ search: 'example.com' }, 6, 5);
    expect(listed).toEqual({ sessions: [], count: 6 });
    expect(bySeqs(sent)).toEqual([]);
  });

  it('searched beside a payment token or a status: only the matches that hold them, newest first', async () => {
    expect((await sessionList({ search: 'example.com', payment_token: 'ptok_1' })).emails).toEqual([
      'p1@example.com',
      'p0@example.com',
    ]);
    expect((await sessionList({ search: 'example.com', status: ['captured'] }, 1, 1)).emails).toEqual([
      'p3@example.com',
    ]);
  });
});

const token = tokenMaker();

/** Three active tokens of the channel "three", newest last: t1…t3@example.com, each card expiring a month after the one before. */
async function threeTokens() {
  const tokens = tokensRepository(process.q);
  for (const i of [1, 2, 3]) await tokens.insert(token('three', `t${i}@example.com`, { card_expires: `2030-0${i}` }));
}

/** A token list of "three", and the statements it sent on payment_tokens. */
async function tokenList(filter: TokenListFilter, offset = 0, limit = 30) {
  const { queries, sent } = recording(process.q);
  const listed = await tokenListQueries(queries).list('three', filter, { offset, limit });
  return {
    listed,
    sent,
    reads: sent.filter((s) => /FROM payment_tokens\b/.test(s.text)),
    emails: listed.tokens.map((tk) => tk.customer_email),
  };
}

describe('the statements a token list runs', () => {
  it('without a filter: the count from the per-channel count, and one page read', async () => {
    const { listed, sent, reads, emails } = await tokenList({});
    expect({ count: listed.count, emails }).toEqual({
      count: 3,
      emails: ['t3@example.com', 't2@example.com', 't1@example.com'],
    });
    expect(sent.map((s) => s.text)).toContainEqual(expect.stringContaining('token_counts'));
    expect(reads.map((s) => s.text)).not.toContainEqual(expect.stringContaining('COUNT('));
    expect(reads).toHaveLength(1);
  });

  it('asked for the page just past the end: the count, and no page read', async () => {
    for (const filter of [{}, { cardExpiresBefore: '2030-02' }] as const) {
      const { listed, reads } = await tokenList(filter, filter.cardExpiresBefore ? 2 : 3);
      expect(listed.tokens).toEqual([]);
      expect(listed.count).toBe(filter.cardExpiresBefore ? 2 : 3);
      expect(reads.filter((s) => s.text.includes('OFFSET'))).toEqual([]);
    }
  });

  it('searched without a match: nothing filtered, no token read', async () => {
    const { listed, sent, reads } = await tokenList({ email: 'nobody', cardExpiresBefore: '2031-01' });
    expect(listed).toEqual({ tokens: [], count: 0 });
    expect(sent.map((s) => s.text)).toContainEqual(expect.stringContaining('LIKE'));
    expect(reads.filter((s) => s.text.includes('seq = ANY'))).toEqual([]);
  });

  it('searched past its matches: the count, and no token read', async () => {
    const { listed, reads } = await tokenList({ email: 'example' }, 3, 5);
    expect(listed).toEqual({ tokens: [], count: 3 });
    // The matches filtered once, newest first; no row of a page.
    const bySeq = reads.filter((s) => s.text.includes('seq = ANY'));
    expect(bySeq).toHaveLength(1);
    expect(bySeq[0]!.text).toMatch(/^SELECT seq FROM payment_tokens/);
  });
});

describe("a token search's matches", () => {
  it('come oldest first, whatever order the server reads them in', async () => {
    // Written newest first, so that a read in the table's order meets them newest first.
    for (const seq of [900_003, 900_002, 900_001])
      await process.q.run(
        `INSERT INTO payment_tokens (token, channel, status, created_at, customer_key, email_search, seq)
          VALUES ($1, 'order', 'active', '2026-01-01T00:00:00.000Z', $1, $2, $3)`,
        [`ptok_order_${seq}`, `o${seq}@order.example`, seq],
      );
    // A process whose server reads the table in its own order, never an index's.
    const scanning = processOn(
      `${url}?options=${encodeURIComponent('-c enable_indexscan=off -c enable_bitmapscan=off')}`,
    );
    try {
      const { seqs } = await tokenSearch(scanning.q).matches('order', { email: 'order.example' });
      expect(seqs).toEqual([900_001, 900_002, 900_003]);
    } finally {
      await scanning.close();
    }
  });

  it('ignore a needle given as undefined', async () => {
    const tokens = tokensRepository(process.q);
    await tokens.insert(token('undefined', 'ann@example.com'));
    await tokens.insert(token('undefined', 'bob@example.org'));
    const search = tokenSearch(process.q);
    const { seqs } = await search.matches('undefined', { email: 'example.com', name: undefined });
    expect(seqs).toHaveLength(1);
    expect(seqs).toEqual((await search.matches('undefined', { email: 'example.com' })).seqs);
  });
});
