// Versioned schema of the sandbox's database. Append new versions; never edit an applied one.
// A migration is frozen once released: it runs the SQL and the code written here, as they were when
// it shipped, never today's repositories or renderings, which later versions change.
// Its SQL stays as it shipped, some of its lines over the 120 characters the code keeps to elsewhere.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from './db.js';

export interface Migration {
  version: number;
  description: string;
  sql: string;
  /** Work SQL alone cannot do (reading stored JSON documents), run after `sql` in the same transaction. */
  run?: (db: Db) => void;
}

/** A stored session document, read as it was stored (no shape upgrade). */
type StoredSession = Record<string, unknown> & {
  id: string;
  customer_email?: string;
  customer_name?: string;
  payment_token?: string;
  issued_payment_token?: string;
  request?: { customer_email?: string; customer_name?: string };
};

/** The customer of a stored session: its own fields, or, in the first shape, its request's (without a token). */
const storedCustomer = (session: StoredSession) => ({
  email: session.customer_email ?? (session.payment_token === undefined ? session.request?.customer_email : undefined),
  name: session.customer_name ?? (session.payment_token === undefined ? session.request?.customer_name : undefined),
});

/** A customer's key as version 15 defined it: the email, trimmed and lower-cased, or the fallback. */
const customerKeyAt15 = (email: string | undefined, fallback: string) =>
  email !== undefined && email.trim() !== '' ? email.trim().toLowerCase() : fallback;

/**
 * Version 15: gives every customer of the stored tokens and sessions a business id, oldest first,
 * and writes it on each token and session (document and column); a session's customer is its
 * token's user when it charged a token, else its email, else the session itself. Each list item
 * is marked stale (no version), so that the next read renders it with the business id.
 */
function backfillUserBusinessIds(db: Db): void {
  const known = db.prepare('SELECT business_id FROM customers WHERE channel = ? AND customer_key = ?').pluck();
  const mint = db.prepare('INSERT INTO customers (channel, customer_key, business_id) VALUES (?, ?, ?)');
  const businessIdOf = (channel: string, key: string): string => {
    const found = known.get(channel, key) as string | undefined;
    if (found !== undefined) return found;
    const minted = randomUUID();
    mint.run(channel, key, minted);
    return minted;
  };
  const tokens = db.prepare('SELECT token, channel, customer_key FROM payment_tokens ORDER BY seq').all() as Array<{
    token: string;
    channel: string;
    customer_key: string;
  }>;
  const setToken = db.prepare('UPDATE payment_tokens SET user_business_id = ? WHERE token = ?');
  const keyOfToken = new Map<string, string>();
  for (const token of tokens) {
    keyOfToken.set(`${token.channel}\n${token.token}`, token.customer_key);
    setToken.run(businessIdOf(token.channel, token.customer_key), token.token);
  }
  const sessions = db.prepare('SELECT id, channel, document FROM payment_sessions ORDER BY seq').all() as Array<{
    id: string;
    channel: string;
    document: string;
  }>;
  const setSession = db.prepare(`UPDATE payment_sessions SET user_business_id = @user_business_id, document = @document,
    list_view_version = NULL WHERE id = @id`);
  for (const row of sessions) {
    const session = JSON.parse(row.document) as StoredSession;
    const charged =
      session.payment_token !== undefined ? keyOfToken.get(`${row.channel}\n${session.payment_token}`) : undefined;
    const businessId = businessIdOf(
      row.channel,
      charged ?? customerKeyAt15(storedCustomer(session).email, `session:${session.id}`),
    );
    setSession.run({
      id: row.id,
      user_business_id: businessId,
      document: JSON.stringify({ ...session, user_business_id: businessId }),
    });
  }
}

/** Version 4: fills the listed columns of sessions stored before they existed, numbering them in creation order. */
function backfillSessionColumns(db: Db): void {
  const rows = db.prepare('SELECT id, document FROM payment_sessions ORDER BY created_at, id').all() as Array<{
    id: string;
    document: string;
  }>;
  const update =
    db.prepare(`UPDATE payment_sessions SET seq = @seq, kind = @kind, status = @status, captured_at = @captured_at,
    email_search = @email_search, name_search = @name_search, payment_token = @payment_token WHERE id = @id`);
  rows.forEach((row, index) => {
    const session = JSON.parse(row.document) as StoredSession & { kind: string; status: string; captured_at?: string };
    const customer = storedCustomer(session);
    update.run({
      id: row.id,
      seq: index + 1,
      kind: session.kind,
      status: session.status,
      captured_at: session.captured_at ?? null,
      email_search: customer.email?.toLowerCase() ?? null,
      name_search: customer.name?.toLowerCase() ?? null,
      payment_token: session.payment_token ?? session.issued_payment_token ?? null,
    });
  });
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
    description: 'payment tokens remember their user, whose identity a charge with the token takes',
    sql: `
      ALTER TABLE payment_tokens ADD COLUMN customer_email TEXT;
      ALTER TABLE payment_tokens ADD COLUMN customer_name TEXT;
    `,
  },
  {
    version: 3,
    description: "a clock per sales channel, so that one team advancing time cannot expire another team's holds",
    sql: `
      CREATE TABLE channel_clocks (
        channel TEXT PRIMARY KEY,
        offset_ms INTEGER NOT NULL
      );
      -- The shared clock applied to every channel: each channel that has sessions keeps its time.
      INSERT INTO channel_clocks (channel, offset_ms)
        SELECT DISTINCT payment_sessions.channel, clock.offset_ms FROM payment_sessions, clock WHERE clock.offset_ms <> 0;
      DROP TABLE clock;
    `,
  },
  {
    version: 4,
    description:
      'the listed fields of a session as indexed columns, and a creation sequence, so that lists are filtered, ' +
      'ordered, counted and paged in SQL',
    sql: `
      ALTER TABLE payment_sessions ADD COLUMN seq INTEGER;
      ALTER TABLE payment_sessions ADD COLUMN kind TEXT;
      ALTER TABLE payment_sessions ADD COLUMN status TEXT;
      ALTER TABLE payment_sessions ADD COLUMN captured_at TEXT;
      ALTER TABLE payment_sessions ADD COLUMN email_search TEXT;
      ALTER TABLE payment_sessions ADD COLUMN name_search TEXT;
      ALTER TABLE payment_sessions ADD COLUMN payment_token TEXT;
      DROP INDEX payment_sessions_channel_created;
    `,
    run(db) {
      backfillSessionColumns(db);
      db.exec(`
        CREATE UNIQUE INDEX payment_sessions_seq ON payment_sessions (seq);
        -- Newest first with every cheap filter inside the index: a page walks it without reading rows.
        CREATE INDEX payment_sessions_channel_seq ON payment_sessions (channel, seq, status, kind, email_search, name_search, id);
        -- Each (status, kind) group newest first: a filtered page reads a few entries of each group.
        CREATE INDEX payment_sessions_channel_status_kind ON payment_sessions (channel, status, kind, seq);
        CREATE INDEX payment_sessions_channel_token ON payment_sessions (channel, payment_token, seq);
        CREATE INDEX payment_sessions_channel_created_at ON payment_sessions (channel, created_at, seq);
        CREATE INDEX payment_sessions_channel_captured_at ON payment_sessions (channel, captured_at, seq);

        -- How many sessions each channel has per status and kind, kept by triggers in the writing
        -- transaction, so that a list filtered on those (or not at all) is counted without a scan.
        CREATE TABLE session_counts (
          channel TEXT NOT NULL,
          status TEXT NOT NULL,
          kind TEXT NOT NULL,
          n INTEGER NOT NULL,
          PRIMARY KEY (channel, status, kind)
        ) WITHOUT ROWID;
        INSERT INTO session_counts (channel, status, kind, n)
          SELECT channel, status, kind, COUNT(*) FROM payment_sessions GROUP BY channel, status, kind;
        CREATE TRIGGER session_counts_insert AFTER INSERT ON payment_sessions BEGIN
          INSERT INTO session_counts (channel, status, kind, n) VALUES (NEW.channel, NEW.status, NEW.kind, 1)
            ON CONFLICT (channel, status, kind) DO UPDATE SET n = n + 1;
        END;
        CREATE TRIGGER session_counts_update AFTER UPDATE OF channel, status, kind ON payment_sessions
          WHEN OLD.channel IS NOT NEW.channel OR OLD.status IS NOT NEW.status OR OLD.kind IS NOT NEW.kind BEGIN
          UPDATE session_counts SET n = n - 1 WHERE channel = OLD.channel AND status = OLD.status AND kind = OLD.kind;
          INSERT INTO session_counts (channel, status, kind, n) VALUES (NEW.channel, NEW.status, NEW.kind, 1)
            ON CONFLICT (channel, status, kind) DO UPDATE SET n = n + 1;
        END;
        CREATE TRIGGER session_counts_delete AFTER DELETE ON payment_sessions BEGIN
          UPDATE session_counts SET n = n - 1 WHERE channel = OLD.channel AND status = OLD.status AND kind = OLD.kind;
        END;
      `);
    },
  },
  {
    version: 5,
    description: 'the outbox listed by event type reads an index too',
    sql: 'CREATE INDEX outbox_channel_type ON outbox (channel, event_type, id);',
  },
  {
    version: 6,
    description:
      "a trigram index of each session's id, email and name, so that search reads its matches, not the channel",
    sql: `
      CREATE VIRTUAL TABLE session_search USING fts5(id, email, name, tokenize = 'trigram');
      INSERT INTO session_search (rowid, id, email, name)
        SELECT rowid, id, IFNULL(email_search, ''), IFNULL(name_search, '') FROM payment_sessions;
      CREATE TRIGGER session_search_insert AFTER INSERT ON payment_sessions BEGIN
        INSERT INTO session_search (rowid, id, email, name) VALUES (NEW.rowid, NEW.id, IFNULL(NEW.email_search, ''), IFNULL(NEW.name_search, ''));
      END;
      CREATE TRIGGER session_search_update AFTER UPDATE OF email_search, name_search ON payment_sessions
        WHEN OLD.email_search IS NOT NEW.email_search OR OLD.name_search IS NOT NEW.name_search BEGIN
        DELETE FROM session_search WHERE rowid = OLD.rowid;
        INSERT INTO session_search (rowid, id, email, name) VALUES (NEW.rowid, NEW.id, IFNULL(NEW.email_search, ''), IFNULL(NEW.name_search, ''));
      END;
      CREATE TRIGGER session_search_delete AFTER DELETE ON payment_sessions BEGIN
        DELETE FROM session_search WHERE rowid = OLD.rowid;
      END;
    `,
  },
  {
    version: 7,
    description:
      'payment tokens with their card, letter and list columns; provision token requests; letters of medical ' +
      'necessity; the product catalog; faults with any 400 code',
    sql: `
      ALTER TABLE payment_tokens ADD COLUMN seq INTEGER;
      ALTER TABLE payment_tokens ADD COLUMN customer_key TEXT;
      ALTER TABLE payment_tokens ADD COLUMN email_search TEXT;
      ALTER TABLE payment_tokens ADD COLUMN name_search TEXT;
      ALTER TABLE payment_tokens ADD COLUMN card_brand TEXT;
      ALTER TABLE payment_tokens ADD COLUMN card_last4 TEXT;
      ALTER TABLE payment_tokens ADD COLUMN card_expires TEXT;
      ALTER TABLE payment_tokens ADD COLUMN lmn_expires_at TEXT;
      ALTER TABLE payment_tokens ADD COLUMN provision_request_id TEXT;
      ALTER TABLE payment_tokens ADD COLUMN metadata TEXT;
      ALTER TABLE payment_tokens ADD COLUMN success_url TEXT;
      ALTER TABLE payment_tokens ADD COLUMN failure_url TEXT;
      -- Tokens issued before these columns: numbered in creation order, keyed on their email.
      UPDATE payment_tokens SET
        seq = (SELECT COUNT(*) FROM payment_tokens AS earlier WHERE earlier.created_at < payment_tokens.created_at
                 OR (earlier.created_at = payment_tokens.created_at AND earlier.token <= payment_tokens.token)),
        customer_key = IFNULL(lower(customer_email), 'session:' || IFNULL(session_id, token)),
        email_search = lower(customer_email),
        name_search = lower(customer_name),
        card_brand = 'visa', card_last4 = '4242', card_expires = '9999-12';
      CREATE UNIQUE INDEX payment_tokens_seq ON payment_tokens (seq);
      -- The listed (active) tokens newest first, with every filtered column inside the index.
      CREATE INDEX payment_tokens_channel_seq ON payment_tokens (channel, seq, email_search, name_search, card_expires, lmn_expires_at)
        WHERE status = 'active';
      CREATE INDEX payment_tokens_channel_card ON payment_tokens (channel, card_expires, seq) WHERE status = 'active';
      CREATE INDEX payment_tokens_channel_lmn ON payment_tokens (channel, lmn_expires_at, seq) WHERE status = 'active';
      CREATE INDEX payment_tokens_customer ON payment_tokens (channel, customer_key, status);

      -- Active tokens per channel, kept by triggers, so that an unfiltered list is counted without a scan.
      CREATE TABLE token_counts (channel TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
      INSERT INTO token_counts (channel, n) SELECT channel, COUNT(*) FROM payment_tokens WHERE status = 'active' GROUP BY channel;
      CREATE TRIGGER token_counts_insert AFTER INSERT ON payment_tokens WHEN NEW.status = 'active' BEGIN
        INSERT INTO token_counts (channel, n) VALUES (NEW.channel, 1) ON CONFLICT (channel) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER token_counts_update AFTER UPDATE OF status ON payment_tokens
        WHEN (OLD.status = 'active') <> (NEW.status = 'active') BEGIN
        INSERT INTO token_counts (channel, n) VALUES (NEW.channel, CASE WHEN NEW.status = 'active' THEN 1 ELSE -1 END)
          ON CONFLICT (channel) DO UPDATE SET n = n + excluded.n;
      END;
      CREATE TRIGGER token_counts_delete AFTER DELETE ON payment_tokens WHEN OLD.status = 'active' BEGIN
        UPDATE token_counts SET n = n - 1 WHERE channel = OLD.channel;
      END;

      -- A trigram index of each token's email and name, for the "includes" filters.
      CREATE VIRTUAL TABLE token_search USING fts5(email, name, tokenize = 'trigram');
      INSERT INTO token_search (rowid, email, name) SELECT rowid, IFNULL(email_search, ''), IFNULL(name_search, '') FROM payment_tokens;
      CREATE TRIGGER token_search_insert AFTER INSERT ON payment_tokens BEGIN
        INSERT INTO token_search (rowid, email, name) VALUES (NEW.rowid, IFNULL(NEW.email_search, ''), IFNULL(NEW.name_search, ''));
      END;
      CREATE TRIGGER token_search_delete AFTER DELETE ON payment_tokens BEGIN
        DELETE FROM token_search WHERE rowid = OLD.rowid;
      END;

      CREATE TABLE provision_requests (
        id TEXT PRIMARY KEY,
        channel TEXT NOT NULL,
        idempotency_key TEXT,
        customer_key TEXT NOT NULL,
        payment_token TEXT,
        status TEXT NOT NULL CHECK (status IN ('awaiting_customer', 'awaiting_letter', 'provisioned', 'rejected', 'canceled')),
        document TEXT NOT NULL
      );
      CREATE UNIQUE INDEX provision_requests_idempotency_key ON provision_requests (channel, idempotency_key)
        WHERE idempotency_key IS NOT NULL;
      CREATE INDEX provision_requests_customer ON provision_requests (channel, customer_key, status);
      CREATE INDEX provision_requests_token ON provision_requests (channel, payment_token, status);

      CREATE TABLE letters (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        channel TEXT NOT NULL,
        customer_key TEXT NOT NULL,
        provision_request_id TEXT,
        status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
        skus TEXT NOT NULL,
        expires_on TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX letters_customer ON letters (channel, customer_key, seq);
      CREATE UNIQUE INDEX letters_request ON letters (provision_request_id) WHERE provision_request_id IS NOT NULL;

      CREATE TABLE catalog_items (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        channel TEXT NOT NULL,
        sku TEXT NOT NULL,
        product_id TEXT NOT NULL,
        eligibility TEXT CHECK (eligibility IN ('eligible', 'eligible_with_lmn', 'ineligible')),
        updated_at TEXT NOT NULL,
        document TEXT NOT NULL
      );
      CREATE UNIQUE INDEX catalog_items_sku ON catalog_items (channel, sku);
      CREATE INDEX catalog_items_channel_seq ON catalog_items (channel, seq);
      CREATE INDEX catalog_items_channel_eligibility ON catalog_items (channel, eligibility, seq);
      CREATE INDEX catalog_items_channel_updated ON catalog_items (channel, updated_at, seq);
      -- Items per channel and eligibility ('' awaiting review), kept by triggers.
      CREATE TABLE catalog_counts (channel TEXT NOT NULL, eligibility TEXT NOT NULL, n INTEGER NOT NULL,
        PRIMARY KEY (channel, eligibility)) WITHOUT ROWID;
      CREATE TRIGGER catalog_counts_insert AFTER INSERT ON catalog_items BEGIN
        INSERT INTO catalog_counts (channel, eligibility, n) VALUES (NEW.channel, IFNULL(NEW.eligibility, ''), 1)
          ON CONFLICT (channel, eligibility) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER catalog_counts_update AFTER UPDATE OF eligibility ON catalog_items
        WHEN OLD.eligibility IS NOT NEW.eligibility BEGIN
        UPDATE catalog_counts SET n = n - 1 WHERE channel = OLD.channel AND eligibility = IFNULL(OLD.eligibility, '');
        INSERT INTO catalog_counts (channel, eligibility, n) VALUES (NEW.channel, IFNULL(NEW.eligibility, ''), 1)
          ON CONFLICT (channel, eligibility) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER catalog_counts_delete AFTER DELETE ON catalog_items BEGIN
        UPDATE catalog_counts SET n = n - 1 WHERE channel = OLD.channel AND eligibility = IFNULL(OLD.eligibility, '');
      END;
      -- Channels whose seed catalog was laid down, so that a replaced or emptied catalog stays so.
      CREATE TABLE catalog_seeded (channel TEXT PRIMARY KEY) WITHOUT ROWID;

      ALTER TABLE faults ADD COLUMN error TEXT;
    `,
    run(db) {
      // SQLite's lower() folds ASCII only; the list filters fold all of Unicode, as JavaScript does.
      const rows = db.prepare('SELECT token, customer_email, customer_name FROM payment_tokens').all() as Array<{
        token: string;
        customer_email: string | null;
        customer_name: string | null;
      }>;
      const update = db.prepare('UPDATE payment_tokens SET email_search = ?, name_search = ? WHERE token = ?');
      for (const row of rows)
        update.run(row.customer_email?.toLowerCase() ?? null, row.customer_name?.toLowerCase() ?? null, row.token);
    },
  },
  {
    version: 8,
    description:
      'disputes listed newest first by a sequence; webhook endpoints, a delivery per event and endpoint, and a ' +
      'log of attempts',
    sql: `
      ALTER TABLE disputes ADD COLUMN seq INTEGER;
      UPDATE disputes SET seq = rowid;
      CREATE UNIQUE INDEX disputes_seq ON disputes (seq);
      CREATE INDEX disputes_channel_seq ON disputes (channel, seq);

      CREATE TABLE webhook_endpoints (
        id TEXT PRIMARY KEY,
        channel TEXT NOT NULL,
        url TEXT NOT NULL,
        event_types TEXT NOT NULL,
        secret TEXT NOT NULL,
        mode TEXT NOT NULL CHECK (mode IN ('signed', 'legacy')),
        created_at TEXT NOT NULL,
        -- 'cli' for the endpoint --webhook-url owns (one per channel), 'helper' for the others.
        origin TEXT NOT NULL DEFAULT 'helper'
      );
      CREATE INDEX webhook_endpoints_channel ON webhook_endpoints (channel, created_at);

      -- One delivery of one outbox event to one endpoint; due_at is the channel's clock time of the next attempt.
      CREATE TABLE deliveries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        channel TEXT NOT NULL,
        outbox_id INTEGER NOT NULL REFERENCES outbox (id),
        endpoint_id TEXT NOT NULL,
        -- The resource the event is about (a session, token, dispute or item): an endpoint gets
        -- one resource's events in order, so a later one waits while an earlier one is pending.
        resource TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        first_due_at TEXT NOT NULL,
        due_at TEXT NOT NULL
      );
      CREATE INDEX deliveries_due ON deliveries (endpoint_id, outbox_id) WHERE status = 'pending';
      CREATE INDEX deliveries_resource ON deliveries (endpoint_id, resource, outbox_id) WHERE status = 'pending';
      CREATE INDEX deliveries_outbox ON deliveries (outbox_id);
      CREATE INDEX deliveries_channel ON deliveries (channel, id);

      CREATE TABLE delivery_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        channel TEXT NOT NULL,
        delivery_id INTEGER NOT NULL REFERENCES deliveries (id),
        attempted_at TEXT NOT NULL,
        status INTEGER,
        latency_ms INTEGER NOT NULL,
        response TEXT,
        error TEXT
      );
      CREATE INDEX delivery_attempts_channel ON delivery_attempts (channel, id);
    `,
  },
  {
    version: 9,
    description:
      'the attempts of a delivery found by an index, so that deleting deliveries (a reset, an endpoint removed) ' +
      'reads no whole table',
    sql: 'CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id);',
  },
  {
    version: 10,
    description:
      'sessions join the trigram index in batches, off the request that writes them: a write only queues its rowid',
    sql: `
      CREATE TABLE session_search_pending (session_rowid INTEGER PRIMARY KEY);
      DROP TRIGGER session_search_insert;
      DROP TRIGGER session_search_update;
      DROP TRIGGER session_search_delete;
      CREATE TRIGGER session_search_insert AFTER INSERT ON payment_sessions BEGIN
        INSERT OR IGNORE INTO session_search_pending (session_rowid) VALUES (NEW.rowid);
      END;
      CREATE TRIGGER session_search_update AFTER UPDATE OF email_search, name_search ON payment_sessions
        WHEN OLD.email_search IS NOT NEW.email_search OR OLD.name_search IS NOT NEW.name_search BEGIN
        DELETE FROM session_search WHERE rowid = OLD.rowid;
        INSERT OR IGNORE INTO session_search_pending (session_rowid) VALUES (NEW.rowid);
      END;
      CREATE TRIGGER session_search_delete AFTER DELETE ON payment_sessions BEGIN
        DELETE FROM session_search WHERE rowid = OLD.rowid;
        DELETE FROM session_search_pending WHERE session_rowid = OLD.rowid;
      END;
    `,
  },
  {
    version: 11,
    description:
      'each session keeps its default list item rendered, so that a list page is joined rather than parsed and rebuilt',
    // Rows written before stay NULL: a read renders them from their document.
    sql: `
      ALTER TABLE payment_sessions ADD COLUMN list_view TEXT;
      ALTER TABLE payment_sessions ADD COLUMN list_view_version INTEGER;
    `,
  },
  {
    version: 12,
    description:
      "a secret per database, which signs the hosted pages' form tokens, so that a page rendered before a restart " +
      'still submits',
    sql: 'CREATE TABLE page_secret (id INTEGER PRIMARY KEY CHECK (id = 1), secret BLOB NOT NULL);',
    // Node's CSPRNG, not SQLite's randomblob(): the secret is what makes a token unforgeable.
    run: (db) => void db.prepare('INSERT INTO page_secret (id, secret) VALUES (1, ?)').run(randomBytes(32)),
  },
  {
    version: 13,
    description:
      "the trigram index keeps each channel's sessions in a rowid range of their own, so that a search reads its " +
      "own channel's matches only",
    // Each channel gets a number; a session's entry in the index has the rowid (number << 40) + seq,
    // so a search asks the index for one channel's range, newest first. The index holds no copy of
    // the text (contentless). Every session is indexed here, at once, rather than queued: a queue
    // is tested row by row by every search of its channel.
    sql: `
      DROP TRIGGER session_search_insert;
      DROP TRIGGER session_search_update;
      DROP TRIGGER session_search_delete;
      DROP TABLE session_search;
      DROP TABLE session_search_pending;

      CREATE TABLE search_channels (number INTEGER PRIMARY KEY, channel TEXT NOT NULL UNIQUE);
      INSERT INTO search_channels (channel) SELECT DISTINCT channel FROM payment_sessions ORDER BY channel;

      CREATE VIRTUAL TABLE session_search USING fts5(id, email, name, tokenize = 'trigram', content = '', contentless_delete = 1);
      INSERT INTO session_search (rowid, id, email, name)
        SELECT (c.number << 40) + s.seq, s.id, IFNULL(s.email_search, ''), IFNULL(s.name_search, '')
        FROM payment_sessions s JOIN search_channels c ON c.channel = s.channel;

      -- Sessions written since the last catch-up, by channel: a search tests its channel's.
      CREATE TABLE session_search_pending (seq INTEGER PRIMARY KEY, channel TEXT NOT NULL);
      CREATE INDEX session_search_pending_channel ON session_search_pending (channel, seq);

      CREATE TRIGGER session_search_insert AFTER INSERT ON payment_sessions BEGIN
        INSERT OR IGNORE INTO search_channels (channel) VALUES (NEW.channel);
        INSERT OR IGNORE INTO session_search_pending (seq, channel) VALUES (NEW.seq, NEW.channel);
      END;
      CREATE TRIGGER session_search_update AFTER UPDATE OF email_search, name_search ON payment_sessions
        WHEN OLD.email_search IS NOT NEW.email_search OR OLD.name_search IS NOT NEW.name_search BEGIN
        DELETE FROM session_search WHERE rowid = (SELECT number << 40 FROM search_channels WHERE channel = OLD.channel) + OLD.seq;
        INSERT OR IGNORE INTO session_search_pending (seq, channel) VALUES (NEW.seq, NEW.channel);
      END;
      CREATE TRIGGER session_search_delete AFTER DELETE ON payment_sessions BEGIN
        DELETE FROM session_search WHERE rowid = (SELECT number << 40 FROM search_channels WHERE channel = OLD.channel) + OLD.seq;
        DELETE FROM session_search_pending WHERE seq = OLD.seq;
      END;
    `,
  },
  {
    version: 14,
    description:
      "the trigram index of tokens keeps each channel's active tokens in a rowid range of their own, so that a " +
      "token search reads its own channel's matches only",
    // As migration 13 does for sessions: a token's entry has the rowid (number << 40) + seq, with
    // the channel numbers the sessions use, and the index holds no copy of the text. Only active
    // tokens, the ones the list shows, are indexed, so that a search's matches are all listable.
    // A token is indexed in its own write, as before: tokens are written far more rarely than
    // sessions, and a search then has no queue to test.
    sql: `
      DROP TRIGGER token_search_insert;
      DROP TRIGGER token_search_delete;
      DROP TABLE token_search;

      INSERT OR IGNORE INTO search_channels (channel) SELECT DISTINCT channel FROM payment_tokens ORDER BY channel;
      CREATE VIRTUAL TABLE token_search USING fts5(email, name, tokenize = 'trigram', content = '', contentless_delete = 1);
      INSERT INTO token_search (rowid, email, name)
        SELECT (c.number << 40) + t.seq, IFNULL(t.email_search, ''), IFNULL(t.name_search, '')
        FROM payment_tokens t JOIN search_channels c ON c.channel = t.channel WHERE t.status = 'active';

      CREATE TRIGGER token_search_insert AFTER INSERT ON payment_tokens BEGIN
        INSERT OR IGNORE INTO search_channels (channel) VALUES (NEW.channel);
        INSERT INTO token_search (rowid, email, name)
          SELECT (number << 40) + NEW.seq, IFNULL(NEW.email_search, ''), IFNULL(NEW.name_search, '')
          FROM search_channels WHERE channel = NEW.channel AND NEW.status = 'active';
      END;
      -- A token enters the index when it becomes active and leaves it when it stops being so; its
      -- email and name do not change today, but an entry would follow them if they did.
      CREATE TRIGGER token_search_update AFTER UPDATE OF status, email_search, name_search ON payment_tokens
        WHEN (OLD.status = 'active' OR NEW.status = 'active') AND (OLD.status IS NOT NEW.status
          OR OLD.email_search IS NOT NEW.email_search OR OLD.name_search IS NOT NEW.name_search) BEGIN
        DELETE FROM token_search WHERE OLD.status = 'active'
          AND rowid = (SELECT number << 40 FROM search_channels WHERE channel = OLD.channel) + OLD.seq;
        INSERT INTO token_search (rowid, email, name)
          SELECT (number << 40) + NEW.seq, IFNULL(NEW.email_search, ''), IFNULL(NEW.name_search, '')
          FROM search_channels WHERE channel = NEW.channel AND NEW.status = 'active';
      END;
      CREATE TRIGGER token_search_delete AFTER DELETE ON payment_tokens WHEN OLD.status = 'active' BEGIN
        DELETE FROM token_search WHERE rowid = (SELECT number << 40 FROM search_channels WHERE channel = OLD.channel) + OLD.seq;
      END;
    `,
  },
  {
    version: 15,
    description:
      'every customer has a business id, shown on its sessions and tokens, and the search of list payment ' +
      'sessions matches it',
    // The trigram index gains a column, so it is built anew (contentless, channel ranges as in 13);
    // the (channel, seq, …) index gains it too, so that a short search still reads no row.
    sql: `
      CREATE TABLE customers (
        channel TEXT NOT NULL,
        customer_key TEXT NOT NULL,
        business_id TEXT NOT NULL UNIQUE,
        PRIMARY KEY (channel, customer_key)
      ) WITHOUT ROWID;
      ALTER TABLE payment_sessions ADD COLUMN user_business_id TEXT;
      ALTER TABLE payment_tokens ADD COLUMN user_business_id TEXT;
    `,
    run(db) {
      backfillUserBusinessIds(db);
      db.exec(`
        DROP INDEX payment_sessions_channel_seq;
        CREATE INDEX payment_sessions_channel_seq ON payment_sessions (channel, seq, status, kind, email_search, name_search, id, user_business_id);

        DROP TRIGGER session_search_insert;
        DROP TRIGGER session_search_update;
        DROP TRIGGER session_search_delete;
        DROP TABLE session_search;
        DELETE FROM session_search_pending;
        CREATE VIRTUAL TABLE session_search USING fts5(id, email, name, user, tokenize = 'trigram', content = '', contentless_delete = 1);
        INSERT INTO session_search (rowid, id, email, name, user)
          SELECT (c.number << 40) + s.seq, s.id, IFNULL(s.email_search, ''), IFNULL(s.name_search, ''), IFNULL(s.user_business_id, '')
          FROM payment_sessions s JOIN search_channels c ON c.channel = s.channel;

        CREATE TRIGGER session_search_insert AFTER INSERT ON payment_sessions BEGIN
          INSERT OR IGNORE INTO search_channels (channel) VALUES (NEW.channel);
          INSERT OR IGNORE INTO session_search_pending (seq, channel) VALUES (NEW.seq, NEW.channel);
        END;
        CREATE TRIGGER session_search_update AFTER UPDATE OF email_search, name_search, user_business_id ON payment_sessions
          WHEN OLD.email_search IS NOT NEW.email_search OR OLD.name_search IS NOT NEW.name_search
            OR OLD.user_business_id IS NOT NEW.user_business_id BEGIN
          DELETE FROM session_search WHERE rowid = (SELECT number << 40 FROM search_channels WHERE channel = OLD.channel) + OLD.seq;
          INSERT OR IGNORE INTO session_search_pending (seq, channel) VALUES (NEW.seq, NEW.channel);
        END;
        CREATE TRIGGER session_search_delete AFTER DELETE ON payment_sessions BEGIN
          DELETE FROM session_search WHERE rowid = (SELECT number << 40 FROM search_channels WHERE channel = OLD.channel) + OLD.seq;
          DELETE FROM session_search_pending WHERE seq = OLD.seq;
        END;
      `);
    },
  },
  {
    version: 16,
    description: 'each session keeps its detail record rendered too, so that a retrieve reads one text',
    // Rows written before stay NULL: a retrieve renders them from their document.
    sql: `
      ALTER TABLE payment_sessions ADD COLUMN detail_view TEXT;
      ALTER TABLE payment_sessions ADD COLUMN detail_view_version INTEGER;
    `,
  },
  {
    version: 17,
    description:
      "the indexes of a session's token and capture time hold only the sessions that have one, so that a create " +
      'writes two index entries fewer',
    // A list filtered by token (payment_token = ?) or by capture time (captured_at >= ? or <= ?)
    // implies IS NOT NULL, so SQLite still picks these indexes for it.
    sql: `
      DROP INDEX payment_sessions_channel_token;
      CREATE INDEX payment_sessions_channel_token ON payment_sessions (channel, payment_token, seq) WHERE payment_token IS NOT NULL;
      DROP INDEX payment_sessions_channel_captured_at;
      CREATE INDEX payment_sessions_channel_captured_at ON payment_sessions (channel, captured_at, seq) WHERE captured_at IS NOT NULL;
    `,
  },
  {
    version: 18,
    description:
      "each channel's evolution drill (PUT /sandbox/v1/evolution_drill): whether it plays a later version of the " +
      'service, and how it writes service_fee',
    sql: `
      CREATE TABLE channel_drills (
        channel TEXT PRIMARY KEY,
        enabled INTEGER NOT NULL,
        service_fee TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 19,
    description:
      'webhook listeners (hsa-fsa-sandbox listen): endpoints whose deliveries a command line claims, which expire ' +
      'when it stops asking',
    // A listener is a webhook endpoint of origin 'listener'; polled_at is the real time (Unix ms)
    // it last asked for its deliveries, NULL for the endpoints the dispatcher POSTs to.
    sql: `
      ALTER TABLE webhook_endpoints ADD COLUMN polled_at INTEGER;
      CREATE INDEX webhook_listeners_polled ON webhook_endpoints (polled_at) WHERE origin = 'listener';
    `,
  },
  {
    version: 20,
    description:
      "the outbox knows the payment session each event is about, so that a session's timeline reads its own " +
      'events only',
    // Computed from the payload, never written: a session's completion names it as payment_id, a
    // dispute's event as payment.order_id, the token a tokenize=true session issued as
    // payment_session_id. VIRTUAL, so the rows stay as they are; the index holds only the events of
    // a session, and costs an event's insert a few microseconds (three json_extract).
    sql: `
      ALTER TABLE outbox ADD COLUMN payment_session_id TEXT GENERATED ALWAYS AS (coalesce(json_extract(payload, '$.data.payment_id'),
        json_extract(payload, '$.data.payment.order_id'), json_extract(payload, '$.data.payment_session_id'))) VIRTUAL;
      CREATE INDEX outbox_payment_session ON outbox (channel, payment_session_id, id) WHERE payment_session_id IS NOT NULL;
    `,
  },
  {
    version: 21,
    description:
      "the evolution drill's event of an unknown type is a delivery of the event it follows, " +
      'not an event of the outbox: the outbox keeps what the service fired',
    // NULL for a delivery of the outbox event itself. A delivery that sends the drill's event of an
    // unknown type after it holds that event's webhook_delivery_id; its body is made as it is sent.
    sql: 'ALTER TABLE deliveries ADD COLUMN drill_follow_up TEXT;',
  },
  {
    version: 22,
    description:
      'deliveries are claimed under a lease, so that of several sandboxes sharing the file one delivers each, ' +
      'and another takes it up once the lease of a sandbox that stopped has ended',
    // claimed_by: who holds (or last held) the delivery; claim_seq counts its claims, so that
    // (claimed_by, claim_seq) names one claim; lease_until: Unix ms on the machine's clock until
    // which no other claim may take it. NULL: not leased.
    sql: `
      ALTER TABLE deliveries ADD COLUMN claimed_by TEXT;
      ALTER TABLE deliveries ADD COLUMN claim_seq INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE deliveries ADD COLUMN lease_until INTEGER;
    `,
  },
  {
    version: 23,
    description:
      'API keys an operator makes, rotates and revokes while the sandbox runs, each stored as its hash, so that ' +
      'every sandbox on the database serves them without a restart',
    // channel: NULL for an admin key; key_hash: the SHA-256 of the key, in hex (a key is random
    // enough that no slower hash is needed); hint: its last four characters; expires_at: the end a
    // rotation gave it; seq: the order of listing.
    sql: `
      CREATE TABLE api_keys (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        channel TEXT,
        key_hash TEXT NOT NULL UNIQUE,
        hint TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        revoked_at TEXT
      );
      CREATE INDEX api_keys_channel ON api_keys (channel, seq);
    `,
  },
  {
    version: 24,
    description:
      "each API key's rate-limit bucket, so that the limit is the key's across every sandbox on the database",
    // key_hash: the key's SHA-256; tokens: what the bucket held at at_ms (Unix ms); granted: what the
    // last withdrawal took, which the withdrawing statement returns.
    sql: `
      CREATE TABLE rate_buckets (
        key_hash TEXT PRIMARY KEY,
        tokens REAL NOT NULL,
        at_ms INTEGER NOT NULL,
        granted INTEGER NOT NULL
      );
    `,
  },
];
