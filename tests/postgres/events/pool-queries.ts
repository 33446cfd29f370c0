// A PgQueries over a node-postgres pool (or one of its clients), as the store's connection will
// give one: for the repositories' tests, and the sandbox processes they start.
import type pg from 'pg';
import { STORE_TYPES } from '../../../src/sandbox/store/postgres/connection.js';
import { escapeParameter } from '../../../src/sandbox/store/postgres/nul.js';
import type { PgQueries, Row } from '../../../src/sandbox/store/postgres/queries.js';

// bigint columns come back as numbers, and texts unescaped, as the store's connection reads them (nul.ts).
export const bigintsAsNumbers = STORE_TYPES;

/** PgQueries on a pool or one client: on a pool, each statement in its own autocommit transaction. */
export function poolQueries(pool: pg.Pool | pg.PoolClient): PgQueries {
  const rows = async <T extends Row>(text: string, params: readonly unknown[] = []) =>
    (await pool.query<T>(text, params.map(escapeParameter))).rows;
  return {
    all: rows,
    one: async (text, params) => (await rows(text, params))[0] as never,
    value: async (text, params) => {
      const [row] = await rows(text, params);
      return (row === undefined ? undefined : Object.values(row)[0]) as never;
    },
    column: async (text, params) => (await rows(text, params)).map((row) => Object.values(row)[0]) as never,
    run: async (text, params = []) => (await pool.query(text, params.map(escapeParameter))).rowCount ?? 0,
  };
}
