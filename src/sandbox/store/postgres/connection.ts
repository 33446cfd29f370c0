// The connections of the PostgreSQL store, and the one place that knows the driver (node-postgres):
// a bounded pool, and the PgQueries every repository asks through, which sends each statement on
// the client of the transaction its caller runs in, or on the pool outside any transaction.
import pg from 'pg';
import { escapeParameter, unescapeNul } from './nul.js';
import type { PgQueries, Row } from './queries.js';
import { driverConnectionString } from './ssl-mode.js';

/**
 * The pool's bounds. A sandbox's statements are short (a request reads or writes a few rows by
 * index), so a statement that runs for seconds is a fault to report, not to wait for; and a
 * transaction left idle holds the write lock every sandbox waits for (transactions.ts), so the
 * server ends it soon.
 */
export interface PoolBounds {
  /** Connections at most, per sandbox: a shared server serves several sandboxes. */
  max: number;
  /** The server cancels a statement that runs longer (`statement_timeout`), waiting for a lock included. */
  statementTimeoutMs: number;
  /** The server ends a session idle inside a transaction this long (`idle_in_transaction_session_timeout`). */
  idleInTransactionTimeoutMs: number;
  /** How long a caller waits for a connection (a new one, or a busy pool's next free one) before an error. */
  connectionTimeoutMs: number;
  /** An idle connection is closed after this long. */
  idleTimeoutMs: number;
  /**
   * How long the driver waits for a statement's answer before it gives up (`query_timeout`): the
   * statement timeout is the server's, which a server that stopped answering (a frozen machine, a
   * network cut) never applies.
   */
  answerTimeoutMs: number;
}

/**
 * The bounds the sandbox runs with, stated in openapi/sandbox.yaml (PostgreSQL): with the write
 * queue's wait (transactions.ts, 5 s), they bound how long a request waits for a database that
 * cannot serve before it answers 503: a write waits its turn (5 s), a connection (2 s) and the
 * write lock or a statement (5 s; a server that stops answering in mid-statement is given up after
 * 6 s, on this side), about 13 s in all; a server that refuses connections is known at once.
 */
export const POOL_BOUNDS: PoolBounds = {
  max: 10,
  statementTimeoutMs: 5_000,
  idleInTransactionTimeoutMs: 5_000,
  connectionTimeoutMs: 2_000,
  idleTimeoutMs: 30_000,
  answerTimeoutMs: 6_000,
};

const INT8_OID = 20;
const TEXT_OID = 25;
const VARCHAR_OID = 1043;

/**
 * bigint (int8) columns as numbers, as better-sqlite3 gives SQLite's integers: sequences, offsets
 * and counts stay far below 2^53. Texts unescaped, as they were written (nul.ts). Set on this pool
 * only, not on the driver's global parsers.
 */
export const STORE_TYPES = {
  getTypeParser: ((oid: number, format?: string) => {
    if (format === 'binary') return pg.types.getTypeParser(oid, 'binary');
    if (oid === INT8_OID) return (text: string) => Number(text);
    if (oid === TEXT_OID || oid === VARCHAR_OID) return unescapeNul;
    return pg.types.getTypeParser(oid, format as 'text');
  }) as typeof pg.types.getTypeParser,
};

/** A pool to the database at `url`, within `bounds`. */
export function openPool(url: string, bounds: PoolBounds = POOL_BOUNDS): pg.Pool {
  const pool = new pg.Pool({
    connectionString: driverConnectionString(url),
    max: bounds.max,
    statement_timeout: bounds.statementTimeoutMs,
    idle_in_transaction_session_timeout: bounds.idleInTransactionTimeoutMs,
    connectionTimeoutMillis: bounds.connectionTimeoutMs,
    idleTimeoutMillis: bounds.idleTimeoutMs,
    query_timeout: bounds.answerTimeoutMs,
    application_name: 'hsa-fsa-sandbox',
    types: STORE_TYPES,
  });
  // An idle connection the server closed (a restart, an administrator) is an 'error' of the pool,
  // which would end the process unheard. The pool has already dropped it, and opens a new one on
  // the next request: nothing else to do.
  pool.on('error', () => {});
  return pool;
}

/** What a statement runs on: a transaction's client, or the pool. */
export type Queryable = Pick<pg.Pool, 'query'>;

/**
 * The PgQueries of the store. `on()` names the client of the caller's open transaction, if any;
 * a statement run outside any transaction for its effect (`run`) is given to `writeAlone`, which
 * runs it in a write transaction of its own, so that every committed write takes the write lock
 * and bumps the revision (a statement that writes must go through `run` outside a transaction).
 * The one exception is a delivery's claim (deliveries.ts), sent through `all` for its RETURNING:
 * it changes nothing a cache holds, and takes no write lock, so that the dispatchers' claims of
 * several sandboxes, every tick, neither wait for the writes nor empty every sandbox's caches.
 */
export function routedQueries(
  pool: pg.Pool,
  on: () => Queryable | undefined,
  writeAlone: <T>(fn: () => Promise<T>) => Promise<T>,
): PgQueries {
  const query = async (text: string, params: readonly unknown[] = []) =>
    (on() ?? pool).query({ text, values: params.map(escapeParameter) });
  const rows = async <T extends Row>(text: string, params?: readonly unknown[]) =>
    (await query(text, params)).rows as T[];
  const firstColumn = (row: Row | undefined) => (row === undefined ? undefined : Object.values(row)[0]);
  return {
    all: rows,
    async one<T extends Row = Row>(text: string, params?: readonly unknown[]) {
      return (await rows(text, params))[0] as T | undefined;
    },
    async value<T = unknown>(text: string, params?: readonly unknown[]) {
      return firstColumn((await rows(text, params))[0]) as T | undefined;
    },
    async column<T = unknown>(text: string, params?: readonly unknown[]) {
      return (await rows(text, params)).map((row) => firstColumn(row) as T);
    },
    async run(text, params) {
      const result = on() ? await query(text, params) : await writeAlone(() => query(text, params));
      return result.rowCount ?? 0;
    },
  };
}
