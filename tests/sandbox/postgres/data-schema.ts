// The tables of sessions, tokens, provisioning, letters and the catalog, for these tests until the
// PostgreSQL schema (src/sandbox/store/postgres/, migrations) is merged: the same tables, columns,
// counts kept by triggers and indexes as SQLite's final schema, with the search indexes of
// search-indexes.ts. Text compared by range or order is COLLATE "C", SQLite's BINARY.
import { SEARCH_INDEXES } from '../../../src/sandbox/store/postgres/search-indexes.js';

export const DATA_SCHEMA: readonly string[] = [
  `CREATE TABLE payment_sessions (
    id text PRIMARY KEY,
    channel text NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    idempotency_key text,
    document text NOT NULL,
    seq bigint NOT NULL,
    kind text,
    status text,
    captured_at text COLLATE "C",
    email_search text,
    name_search text,
    payment_token text,
    list_view text,
    list_view_version integer,
    user_business_id text,
    detail_view text,
    detail_view_version integer
  )`,
  `CREATE UNIQUE INDEX payment_sessions_idempotency_key ON payment_sessions (channel, idempotency_key)
    WHERE idempotency_key IS NOT NULL`,
  'CREATE UNIQUE INDEX payment_sessions_seq ON payment_sessions (seq)',
  'CREATE INDEX payment_sessions_channel_seq ON payment_sessions (channel, seq)',
  'CREATE INDEX payment_sessions_channel_status_kind ON payment_sessions (channel, status, kind, seq)',
  `CREATE INDEX payment_sessions_channel_token ON payment_sessions (channel, payment_token, seq)
    WHERE payment_token IS NOT NULL`,
  'CREATE INDEX payment_sessions_channel_created_at ON payment_sessions (channel, created_at, seq)',
  `CREATE INDEX payment_sessions_channel_captured_at ON payment_sessions (channel, captured_at, seq)
    WHERE captured_at IS NOT NULL`,
  `CREATE TABLE session_counts (channel text NOT NULL, status text NOT NULL, kind text NOT NULL, n bigint NOT NULL,
    PRIMARY KEY (channel, status, kind))`,
  `CREATE FUNCTION session_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
      UPDATE session_counts SET n = n - 1 WHERE channel = OLD.channel AND status = OLD.status AND kind = OLD.kind;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
      INSERT INTO session_counts (channel, status, kind, n) VALUES (NEW.channel, NEW.status, NEW.kind, 1)
        ON CONFLICT (channel, status, kind) DO UPDATE SET n = session_counts.n + 1;
    END IF;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER session_counts_insert AFTER INSERT OR DELETE ON payment_sessions
    FOR EACH ROW EXECUTE FUNCTION session_counts_keep()`,
  `CREATE TRIGGER session_counts_update AFTER UPDATE OF channel, status, kind ON payment_sessions FOR EACH ROW
    WHEN (OLD.channel IS DISTINCT FROM NEW.channel OR OLD.status IS DISTINCT FROM NEW.status
      OR OLD.kind IS DISTINCT FROM NEW.kind)
    EXECUTE FUNCTION session_counts_keep()`,

  `CREATE TABLE payment_tokens (
    token text PRIMARY KEY,
    channel text NOT NULL,
    session_id text,
    status text NOT NULL CHECK (status IN ('pending_checkout', 'active', 'deleted')),
    next_action text,
    created_at text NOT NULL,
    customer_email text,
    customer_name text,
    seq bigint NOT NULL,
    customer_key text,
    email_search text,
    name_search text,
    card_brand text,
    card_last4 text,
    card_expires text COLLATE "C",
    lmn_expires_at text COLLATE "C",
    provision_request_id text,
    metadata text,
    success_url text,
    failure_url text,
    user_business_id text
  )`,
  'CREATE UNIQUE INDEX payment_tokens_seq ON payment_tokens (seq)',
  "CREATE INDEX payment_tokens_channel_seq ON payment_tokens (channel, seq) WHERE status = 'active'",
  `CREATE INDEX payment_tokens_channel_card ON payment_tokens (channel, card_expires, seq) WHERE status = 'active'`,
  `CREATE INDEX payment_tokens_channel_lmn ON payment_tokens (channel, lmn_expires_at, seq) WHERE status = 'active'`,
  'CREATE INDEX payment_tokens_customer ON payment_tokens (channel, customer_key, status)',
  'CREATE TABLE token_counts (channel text PRIMARY KEY, n bigint NOT NULL)',
  `CREATE FUNCTION token_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'active' THEN
      UPDATE token_counts SET n = n - 1 WHERE channel = OLD.channel;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'active' THEN
      INSERT INTO token_counts (channel, n) VALUES (NEW.channel, 1)
        ON CONFLICT (channel) DO UPDATE SET n = token_counts.n + 1;
    END IF;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER token_counts_keep AFTER INSERT OR DELETE OR UPDATE OF status ON payment_tokens
    FOR EACH ROW EXECUTE FUNCTION token_counts_keep()`,

  `CREATE TABLE provision_requests (
    id text PRIMARY KEY,
    channel text NOT NULL,
    idempotency_key text,
    customer_key text NOT NULL,
    payment_token text,
    status text NOT NULL
      CHECK (status IN ('awaiting_customer', 'awaiting_letter', 'provisioned', 'rejected', 'canceled')),
    document text NOT NULL,
    -- SQLite's hidden rowid, which orders a token's open requests.
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE
  )`,
  `CREATE UNIQUE INDEX provision_requests_idempotency_key ON provision_requests (channel, idempotency_key)
    WHERE idempotency_key IS NOT NULL`,
  'CREATE INDEX provision_requests_customer ON provision_requests (channel, customer_key, status)',
  'CREATE INDEX provision_requests_token ON provision_requests (channel, payment_token, status, seq)',

  `CREATE TABLE letters (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel text NOT NULL,
    customer_key text NOT NULL,
    provision_request_id text,
    status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
    skus text NOT NULL,
    expires_on text,
    created_at text NOT NULL
  )`,
  'CREATE INDEX letters_customer ON letters (channel, customer_key, seq)',
  'CREATE UNIQUE INDEX letters_request ON letters (provision_request_id) WHERE provision_request_id IS NOT NULL',

  `CREATE TABLE catalog_items (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel text NOT NULL,
    sku text COLLATE "C" NOT NULL,
    product_id text NOT NULL,
    eligibility text CHECK (eligibility IN ('eligible', 'eligible_with_lmn', 'ineligible')),
    updated_at text COLLATE "C" NOT NULL,
    document text NOT NULL
  )`,
  'CREATE UNIQUE INDEX catalog_items_sku ON catalog_items (channel, sku)',
  'CREATE INDEX catalog_items_channel_seq ON catalog_items (channel, seq)',
  'CREATE INDEX catalog_items_channel_eligibility ON catalog_items (channel, eligibility, seq)',
  'CREATE INDEX catalog_items_channel_updated ON catalog_items (channel, updated_at, seq)',
  `CREATE TABLE catalog_counts (channel text NOT NULL, eligibility text NOT NULL, n bigint NOT NULL,
    PRIMARY KEY (channel, eligibility))`,
  `CREATE FUNCTION catalog_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
      UPDATE catalog_counts SET n = n - 1 WHERE channel = OLD.channel AND eligibility = COALESCE(OLD.eligibility, '');
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
      INSERT INTO catalog_counts (channel, eligibility, n) VALUES (NEW.channel, COALESCE(NEW.eligibility, ''), 1)
        ON CONFLICT (channel, eligibility) DO UPDATE SET n = catalog_counts.n + 1;
    END IF;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER catalog_counts_insert AFTER INSERT OR DELETE ON catalog_items
    FOR EACH ROW EXECUTE FUNCTION catalog_counts_keep()`,
  `CREATE TRIGGER catalog_counts_update AFTER UPDATE OF eligibility ON catalog_items FOR EACH ROW
    WHEN (OLD.eligibility IS DISTINCT FROM NEW.eligibility) EXECUTE FUNCTION catalog_counts_keep()`,
  'CREATE TABLE catalog_seeded (channel text PRIMARY KEY)',
  ...SEARCH_INDEXES,
];
