// List cost against table size on PostgreSQL: GET /payments/v1/payment_sessions?page_size=30 on a
// channel of 1,000 sessions and on one of 30,000, each a database of its own on an embedded
// PostgreSQL, the compiled sandbox on it, under autocannon: list-scale.ts's case, beside SQLite's.
// With each size, the query plan of the page as the PostgreSQL store asks for it: the statements
// its list (store/postgres/session-list.ts) sends for that page, recorded as they are sent, each
// run under EXPLAIN (ANALYZE, BUFFERS), so that the plan shows which index the page walks and how
// many rows it reads.
import type { ListQuery } from '../src/sandbox/domain/listing.js';
import { pageRequest, pageWindow, sessionListFilter } from '../src/sandbox/domain/listing.js';
import { createPostgresStore, type PostgresStore } from '../src/sandbox/store/postgres/index.js';
import type { PgQueries } from '../src/sandbox/store/postgres/queries.js';
import { sessionListQueries } from '../src/sandbox/store/postgres/session-list.js';
import { freshDatabase, startTestPostgres } from '../testkit/postgres.js';
import { SANDBOX_API_KEY, startSandboxProcess } from '../testkit/sandbox-process.js';
import { type ListScaleRun, seedSession, seedToken } from './list-scale.js';
import { load, rssMiB } from './load.js';

export const POSTGRES_LIST_SIZES = [1_000, 30_000] as const;
const QUERY = 'payment_sessions?page_size=30';
const LIST_QUERY: ListQuery = { page_size: 30 };
/** Rows per seeding transaction: short transactions, far inside the store's statement and idle timeouts. */
const SEED_BATCH = 1_000;

/** One statement the list sent for the page, and its plan. */
export interface PlannedStatement {
  sql: string;
  params: unknown[];
  /** EXPLAIN (ANALYZE, BUFFERS)'s lines. */
  plan: string[];
}

/** A run of the SQLite list scale's kind (list-scale.ts), and what PostgreSQL's adds: the seeding and the plan. */
export interface PostgresListScaleRun extends ListScaleRun {
  /** How long the seeding took, through the store's own inserts (not measured otherwise). */
  seedSeconds: number;
  /** The plan's key line: the page's read of payment_sessions, naming the index it walks. */
  planLine: string;
  /** The index that read walks (none: a scan of the table). */
  pageIndex: string | null;
  /** The rows that read returned, as EXPLAIN ANALYZE counted them: the page's 30 when the page costs the page. */
  planRows: number;
  /** The indexes the page's statements use, in the order they are sent. */
  indexes: string[];
  statements: PlannedStatement[];
}

/**
 * Writes `count` sessions of channel dev, and their tokens, through the PostgreSQL store's own
 * inserts, as list-scale.ts writes SQLite's (no HTTP: seeding is not measured), then ANALYZE, as
 * autovacuum would within a minute of such an insert, so that the plan is the one a live database
 * settles on.
 */
async function seed(store: PostgresStore, count: number): Promise<void> {
  let item = 0;
  for (let from = 0; from < count; from += SEED_BATCH) {
    await store.transaction(async () => {
      for (let n = from; n < Math.min(count, from + SEED_BATCH); n++) {
        const session = seedSession(n, () => `item${item++}`);
        await store.sessions.insert(session);
        await store.tokens.insert(seedToken(n, session));
      }
    });
  }
  await store.q.run('ANALYZE');
}

/** `q`, writing down each statement it sends and its parameters. */
function recording(q: PgQueries, sent: Array<{ sql: string; params: unknown[] }>): PgQueries {
  const note = (sql: string, params: readonly unknown[] = []) => void sent.push({ sql, params: [...params] });
  return {
    all(sql, params) {
      note(sql, params);
      return q.all(sql, params);
    },
    one(sql, params) {
      note(sql, params);
      return q.one(sql, params);
    },
    value(sql, params) {
      note(sql, params);
      return q.value(sql, params);
    },
    column(sql, params) {
      note(sql, params);
      return q.column(sql, params);
    },
    run(sql, params) {
      note(sql, params);
      return q.run(sql, params);
    },
  };
}

/** The statements the store's list sends for the bench's page, each with its plan as run. */
async function planOfPage(store: PostgresStore): Promise<PlannedStatement[]> {
  const sent: Array<{ sql: string; params: unknown[] }> = [];
  const lists = sessionListQueries(recording(store.q, sent));
  const { items } = await lists.listItems(
    'dev',
    sessionListFilter(LIST_QUERY),
    pageWindow(pageRequest(LIST_QUERY)),
    {}, // no flag: the default list items, as the bench's query asks
  );
  if ([...items].length !== 30) throw new Error('The page to plan is not a page of 30 sessions');
  const planned: PlannedStatement[] = [];
  for (const { sql, params } of sent)
    planned.push({ sql, params, plan: await store.q.column<string>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params) });
  return planned;
}

const indexOf = (line: string) => / using (\S+)/.exec(line)?.[1];

export async function benchPostgresListScale({
  seconds = Number(process.env.BENCH_SECONDS ?? 5),
} = {}): Promise<PostgresListScaleRun[]> {
  const server = await startTestPostgres();
  const runs: PostgresListScaleRun[] = [];
  try {
    for (const count of POSTGRES_LIST_SIZES) {
      const db = await freshDatabase(server.url, `bench_list_${count}`);
      const store = await createPostgresStore(db);
      let statements: PlannedStatement[];
      let seedSeconds: number;
      try {
        const seeding = performance.now();
        await seed(store, count);
        seedSeconds = (performance.now() - seeding) / 1000;
        statements = await planOfPage(store);
      } finally {
        await store.close();
      }
      const planLines = statements.flatMap((s) => s.plan);
      const pageRead = statements
        .filter((s) => /FROM payment_sessions/.test(s.sql))
        .flatMap((s) => s.plan)
        .find((line) => indexOf(line) !== undefined || /Seq Scan on payment_sessions/.test(line));
      const planLine = pageRead?.replace(/^\s*(->\s*)?/, '') ?? 'no read of payment_sessions';
      const planRows = Number(/actual time=\S+ rows=([\d.]+)/.exec(planLine)?.[1] ?? Number.NaN);
      const indexes = planLines.flatMap((line) => indexOf(line) ?? []);
      const sandbox = await startSandboxProcess({ db, compiled: true });
      try {
        const result = await load(
          sandbox.baseUrl,
          [{ method: 'GET', path: `/payments/v1/${QUERY}`, headers: { 'x-service-api-key': SANDBOX_API_KEY } }],
          seconds,
        );
        runs.push({
          sessions: count,
          query: QUERY,
          ...result,
          rssMiB: rssMiB(sandbox.pid),
          seedSeconds,
          planLine,
          pageIndex: indexOf(planLine) ?? null,
          planRows,
          indexes,
          statements,
        });
      } finally {
        await sandbox.stop();
      }
    }
    return runs;
  } finally {
    await server.stop();
  }
}
