// The ids of events, deliveries and delivery attempts, as SQLite's AUTOINCREMENT gives them: each
// one more than the largest the table ever gave, and a write rolled back gives its ids back, since
// SQLite's sqlite_sequence is a table written in the same transaction. A PostgreSQL sequence never
// gives a number back, so a write that queued an event and failed would leave gaps that SQLite has
// not, in ids the answers show (the outbox list and the activity, a listener's deliveries, the log
// of attempts). Each table's counter is one row of `autoincrement`, written under the store's write
// lock (transactions.ts); a reset deletes rows and keeps the counters, as SQLite keeps
// sqlite_sequence.
import type { PgMigration } from './schema.js';

/** The tables numbered by `autoincrement`, each by its `id` column. */
const NUMBERED = ['outbox', 'deliveries', 'delivery_attempts'] as const;
export type Numbered = (typeof NUMBERED)[number];

/** Its version is given by the store's list of migrations (index.ts), after the others'. */
export const AUTOINCREMENT_MIGRATION: PgMigration = {
  version: 4,
  description:
    'ids of events, deliveries and attempts are drawn in the writing transaction, so that a rolled-back write ' +
    'leaves no gap, as in SQLite',
  // Each counter starts where its identity's sequence got to, so an existing database gives no id twice.
  sql: `
    CREATE TABLE autoincrement (name TEXT PRIMARY KEY, last BIGINT NOT NULL);
    ${NUMBERED.map(
      (table) => `INSERT INTO autoincrement (name, last) SELECT '${table}', GREATEST(
      COALESCE((SELECT MAX(id) FROM ${table}), 0),
      COALESCE((SELECT last_value FROM pg_sequences
        WHERE schemaname = current_schema() AND sequencename = '${table}_id_seq'), 0));`,
    ).join('\n    ')}
  `,
};

/**
 * A CTE (`ids`, one column `base`) that takes `count` ids of `table` ($n of the caller's text, or an
 * expression): the rows take base + 1 … base + count, in the order the caller gives them.
 */
export const takeIds = (table: Numbered, count: string) =>
  `ids AS (UPDATE autoincrement SET last = last + ${count} WHERE name = '${table}' RETURNING last - ${count} AS base)`;
