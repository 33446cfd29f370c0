// The statements a store call runs: their SQL, the parameters bound, and their query plans, so that
// a test can tell what a request cost (how many statements, on which index) and not only what it
// answered.
import { vi } from 'vitest';
import type { Db } from '../../src/sandbox/store/database.js';

type Statement = ReturnType<Db['prepare']>;

export interface RunStatement {
  sql: string;
  args: unknown[];
}

/** Every statement run (all, get, run, iterate) while `call` runs, in order, with what it bound. */
export function statementsRun(db: Db, call: () => unknown): RunStatement[] {
  const prototype = Object.getPrototypeOf(db.prepare('SELECT 1')) as Statement;
  const spies = (['all', 'get', 'run', 'iterate'] as const).map((method) => vi.spyOn(prototype, method));
  try {
    call();
    return spies
      .flatMap((spy) =>
        spy.mock.contexts.map((statement, i) => ({
          order: spy.mock.invocationCallOrder[i]!,
          sql: (statement as Statement).source,
          args: spy.mock.calls[i] as unknown[],
        })),
      )
      .sort((a, b) => a.order - b.order)
      .map(({ sql, args }) => ({ sql, args }));
  } finally {
    // Restoring a spy forgets its calls: they are read first.
    for (const spy of spies) spy.mockRestore();
  }
}

/** The query plan of a statement run, with the parameters it was run with. */
export function planOf(db: Db, { sql, args }: RunStatement): string {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>)
    .map((row) => row.detail)
    .join('\n');
}
