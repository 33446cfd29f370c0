// A database of the data repositories' tests on the run's PostgreSQL server (tests/support/
// postgres-server.ts), migrated as the store migrates it; and "processes" on it: each a pg.Pool
// with a small PgQueries, whose write transactions take one advisory lock as the store's do, so
// that several can be raced. Texts cross as the store's connection sends and parses them (nul.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { STORE_TYPES } from '../../src/sandbox/store/postgres/connection.js';
import { STORE_MIGRATIONS } from '../../src/sandbox/store/postgres/index.js';
import { migrate } from '../../src/sandbox/store/postgres/migrate.js';
import { escapeParameter } from '../../src/sandbox/store/postgres/nul.js';
import type { PgQueries, Row } from '../../src/sandbox/store/postgres/queries.js';
import type { SessionAnswerCache } from '../../src/sandbox/store/postgres/sessions.js';
import { testDatabase } from '../support/postgres-database.js';

/** The advisory lock every write transaction takes, as the store's do. */
const WRITE_LOCK = 5_315_001;

/** The store's migrations, with what the data repositories add (data-migrations.ts). */
export const DATA_STORE_MIGRATIONS = STORE_MIGRATIONS;

/** A new database with the schema, on the run's server; its URL. */
export async function dataDatabase(label: string): Promise<string> {
  const url = await testDatabase(label);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await migrate(client, DATA_STORE_MIGRATIONS);
  } finally {
    await client.end();
  }
  return url;
}

/** One "process": a pool, its PgQueries, and its write transactions. */
export interface Process {
  q: PgQueries;
  /** Runs fn in one write transaction, under the write lock; rolls back when it throws. */
  write<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function processOn(url: string): Process {
  const pool = new pg.Pool({ connectionString: url, max: 4, types: STORE_TYPES });
  const inTransaction = new AsyncLocalStorage<pg.PoolClient>();
  const send = async (text: string, params: readonly unknown[] = []) =>
    (inTransaction.getStore() ?? pool).query(text, params.map(escapeParameter));
  const first = (result: pg.QueryResult) => result.fields[0]!.name;
  const q: PgQueries = {
    all: async <T extends Row>(text: string, params?: readonly unknown[]) => (await send(text, params)).rows as T[],
    one: async <T extends Row>(text: string, params?: readonly unknown[]) =>
      (await send(text, params)).rows[0] as T | undefined,
    value: async <T>(text: string, params?: readonly unknown[]) => {
      const result = await send(text, params);
      return result.rows.length === 0 ? undefined : (result.rows[0][first(result)] as T);
    },
    column: async <T>(text: string, params?: readonly unknown[]) => {
      const result = await send(text, params);
      return result.rows.map((row: Row) => row[first(result)] as T);
    },
    run: async (text: string, params?: readonly unknown[]) => (await send(text, params)).rowCount ?? 0,
  };
  return {
    q,
    async write(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1)', [WRITE_LOCK]);
        const result = await inTransaction.run(client, fn);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * No kept answers: every read is computed (the store's cache and its rule are tested with the store,
 * in data-store.test.ts).
 */
export const noAnswers: SessionAnswerCache = { answer: (_channel, _key, compute) => compute(), dropChannel: () => {} };
