// The PostgreSQL migration of the API keys' rate-limit buckets (../migrations.ts, version 24, is the SQLite one).
import type { PgMigration } from './schema.js';

/** Its version is given by the store's list of migrations (index.ts), after the others'. */
export const RATE_BUCKETS_MIGRATION: PgMigration = {
  version: 8,
  description: "each API key's rate-limit bucket, so that the limit is the key's across every sandbox on the database",
  sql: `
    CREATE TABLE rate_buckets (
      key_hash TEXT PRIMARY KEY,
      tokens DOUBLE PRECISION NOT NULL,
      at_ms BIGINT NOT NULL,
      granted INTEGER NOT NULL
    );
  `,
};
