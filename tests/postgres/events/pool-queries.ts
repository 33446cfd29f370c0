// A PgQueries over a node-postgres pool (or one of its clients), as the store's connection will
// give one: for the repositories' tests, and the sandbox processes they start.
import pg from 'pg';
import type { PgQueries, Row } from '../../../src/sandbox/store/postgres/queries.js';

// bigint columns come back as numbers, as the store's connection reads them.
export const bigintsAsNumbers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? (text: string) => Number(text)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** PgQueries on a pool or one client: on a pool, each statement in its own autocommit transaction. */
export function poolQueries(pool: pg.Pool | pg.PoolClient): PgQueries {
  const rows = async <T extends Row>(text: string, params: readonly unknown[] = []) =>
    (await pool.query<T>(text, params as unknown[])).rows;
  return {
    all: rows,
    one: async (text, params) => (await rows(text, params))[0] as never,
    value: async (text, params) => {
      const [row] = await rows(text, params);
      return (row === undefined ? undefined : Object.values(row)[0]) as never;
    },
    column: async (text, params) => (await rows(text, params)).map((row) => Object.values(row)[0]) as never,
    run: async (text, params) => (await pool.query(text, params as unknown[])).rowCount ?? 0,
  };
}
