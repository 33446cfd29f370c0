// Versioned schema of the sandbox's database. Append new versions; never edit an applied one.
export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    description: 'payment sessions, tokens, disputes, outbox, channel settings, clock',
    sql: `
      CREATE TABLE payment_sessions (
        id TEXT PRIMARY KEY,
        channel TEXT NOT NULL,
        created_at TEXT NOT NULL,
        idempotency_key TEXT,
        document TEXT NOT NULL
      );
      CREATE UNIQUE INDEX payment_sessions_idempotency_key ON payment_sessions (channel, idempotency_key)
        WHERE idempotency_key IS NOT NULL;
      CREATE INDEX payment_sessions_channel_created ON payment_sessions (channel, created_at DESC);

      CREATE TABLE payment_tokens (
        token TEXT PRIMARY KEY,
        channel TEXT NOT NULL,
        session_id TEXT,
        status TEXT NOT NULL CHECK (status IN ('pending_checkout', 'active', 'deleted')),
        next_action TEXT,
        created_at TEXT NOT NULL
      );

      CREATE TABLE disputes (
        dispute_id TEXT PRIMARY KEY,
        channel TEXT NOT NULL,
        session_id TEXT NOT NULL REFERENCES payment_sessions (id)
      );

      CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        delivery_id TEXT NOT NULL UNIQUE,
        channel TEXT NOT NULL,
        event_type TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_at TEXT NOT NULL,
        delivered_at TEXT
      );
      CREATE INDEX outbox_channel ON outbox (channel, id);

      CREATE TABLE channel_features (
        channel TEXT PRIMARY KEY,
        authorization_enabled INTEGER NOT NULL,
        tokenization_enabled INTEGER NOT NULL
      );

      CREATE TABLE faults (
        channel TEXT NOT NULL,
        operation_id TEXT NOT NULL,
        status INTEGER NOT NULL,
        remaining INTEGER NOT NULL,
        PRIMARY KEY (channel, operation_id)
      );

      CREATE TABLE clock (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        offset_ms INTEGER NOT NULL
      );
      INSERT INTO clock (id, offset_ms) VALUES (1, 0);
    `,
  },
  {
    version: 2,
    description: "payment tokens remember their user, whose identity a charge with the token takes",
    sql: `
      ALTER TABLE payment_tokens ADD COLUMN customer_email TEXT;
      ALTER TABLE payment_tokens ADD COLUMN customer_name TEXT;
    `,
  },
];
