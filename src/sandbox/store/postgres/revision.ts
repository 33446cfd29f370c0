// The store's revision: one counter that every write transaction bumps, in the same transaction,
// so that a sandbox learns at the cost of one row that another sandbox has committed since it last
// looked (what SQLite's `PRAGMA data_version` tells a connection for free). The caches of each
// sandbox (fact-cache.ts) hold what the database said at one revision and are emptied when it moves.
import type { PgMigration } from './schema.js';

/**
 * The revision's table, as a migration of its own beside the schema's (schema.ts): its version
 * follows the schema's last one.
 */
export const STORE_REVISION_MIGRATION: PgMigration = {
  version: 2,
  description: 'a revision every write transaction bumps, so that each sandbox knows when another has committed',
  sql: `
    CREATE TABLE store_revision (id INTEGER PRIMARY KEY CHECK (id = 1), revision BIGINT NOT NULL);
    INSERT INTO store_revision (id, revision) VALUES (1, 0);
  `,
};

/** Bumps the revision inside a write transaction: the revision it commits. */
export const BUMP_REVISION = 'UPDATE store_revision SET revision = revision + 1 WHERE id = 1 RETURNING revision';

/** The committed revision a snapshot (or a statement outside any transaction) sees. */
export const READ_REVISION = 'SELECT revision FROM store_revision WHERE id = 1';
