// The PostgreSQL migration of the API keys an operator manages (../api-keys.ts has the SQLite one).
import type { PgMigration } from './schema.js';

/** Its version is given by the store's list of migrations (index.ts), after the others'. */
export const API_KEYS_MIGRATION: PgMigration = {
  version: 7,
  description:
    'API keys an operator makes, rotates and revokes while the sandbox runs, each stored as its hash, so that ' +
    'every sandbox on the database serves them without a restart',
  sql: `
    CREATE TABLE api_keys (
      seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      channel TEXT COLLATE "C",
      key_hash TEXT NOT NULL UNIQUE,
      hint TEXT NOT NULL,
      created_at TEXT COLLATE "C" NOT NULL,
      expires_at TEXT COLLATE "C",
      revoked_at TEXT COLLATE "C"
    );
    CREATE INDEX api_keys_channel ON api_keys (channel, seq);
  `,
};
