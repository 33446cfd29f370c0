// The numbers of the outbox's events, as SQLite's AUTOINCREMENT gives them: each event's id is one
// more than the largest ever given, and a write rolled back gives its numbers back, since SQLite's
// sqlite_sequence is a table written in the same transaction. A PostgreSQL sequence never gives a
// number back, so a write that queued an event and failed would leave a gap that SQLite has not,
// and event ids are shown (the outbox list, the activity). The counter is one row, written under
// the store's write lock (transactions.ts); a reset deletes events and keeps it, as SQLite keeps
// sqlite_sequence.
import type { PgMigration } from './schema.js';

/** Its version is given by the store's list of migrations (index.ts), after the others'. */
export const OUTBOX_IDS_MIGRATION: PgMigration = {
  version: 4,
  description:
    'event ids are drawn in the writing transaction, so that a rolled-back write leaves no gap, as in SQLite',
  // The counter starts where the identity's sequence got to, so an existing database gives no id twice.
  sql: `
    CREATE TABLE outbox_ids (id INTEGER PRIMARY KEY CHECK (id = 1), last BIGINT NOT NULL);
    INSERT INTO outbox_ids (id, last) SELECT 1, GREATEST(
      COALESCE((SELECT MAX(id) FROM outbox), 0),
      COALESCE((SELECT last_value FROM pg_sequences
        WHERE schemaname = current_schema() AND sequencename = 'outbox_id_seq'), 0));
  `,
};
