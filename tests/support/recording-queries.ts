// A PgQueries that records every statement it sends, with its parameters: for the tests of the
// PostgreSQL store that hold how much work a list does (data-searches, list-rules).
import type { PgQueries } from '../../src/sandbox/store/postgres/queries.js';

export type SentStatement = { text: string; params: readonly unknown[] };

export function recording(q: PgQueries) {
  const sent: SentStatement[] = [];
  const record =
    <K extends keyof PgQueries>(method: K) =>
    (text: string, params: readonly unknown[] = []) => {
      sent.push({ text, params });
      return (q[method] as (text: string, params?: readonly unknown[]) => Promise<never>)(text, params);
    };
  const queries = {
    all: record('all'),
    one: record('one'),
    value: record('value'),
    column: record('column'),
    run: record('run'),
  } as PgQueries;
  return { queries, sent };
}
