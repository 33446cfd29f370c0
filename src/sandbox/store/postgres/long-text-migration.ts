// The PostgreSQL migration that lets a partner's long text be stored. A btree entry holds about
// 2,700 bytes, and PostgreSQL refuses a row whose entry would be longer: a customer's name or email
// of a few thousand characters (no bound in the contract; SQLite keeps any) failed the create with a
// 500, through the covering indexes of the session and token lists and the customers' primary key
// (a customer is known by the email), and so did a long sku through the catalog's unique
// (channel, sku) and a long customer_key of a payment token through the indexes that look it up.
// - The covering indexes lose the name and the email: a search too short for the trigram indexes
//   reads them from the row instead of the index; every other filter stays inside the index.
// - Uniqueness (a catalog's sku, a customer's key) is kept on the text's digest, and hash indexes,
//   which take any length, answer the lookups by these texts, the channel tested on the matches.
import type { PgMigration } from './schema.js';

/** Its version is given by the store's list of migrations (index.ts), after the others'. */
export const LONG_TEXT_MIGRATION: PgMigration = {
  version: 5,
  description: "a customer's name, email and key, and a sku, may be longer than a btree entry holds",
  sql: `
    DROP INDEX payment_sessions_channel_seq;
    CREATE INDEX payment_sessions_channel_seq ON payment_sessions (channel, seq, status, kind, id, user_business_id);
    DROP INDEX payment_tokens_channel_seq;
    CREATE INDEX payment_tokens_channel_seq ON payment_tokens (channel, seq, card_expires, lmn_expires_at)
      WHERE status = 'active';
    DROP INDEX catalog_items_sku;
    CREATE UNIQUE INDEX catalog_items_sku ON catalog_items (channel, md5(sku));
    CREATE INDEX catalog_items_sku_lookup ON catalog_items USING hash (sku);
    ALTER TABLE customers DROP CONSTRAINT customers_pkey;
    CREATE UNIQUE INDEX customers_key ON customers (channel, md5(customer_key));
    CREATE INDEX customers_key_lookup ON customers USING hash (customer_key);
    DROP INDEX payment_tokens_customer;
    CREATE INDEX payment_tokens_customer ON payment_tokens USING hash (customer_key);
    DROP INDEX provision_requests_customer;
    CREATE INDEX provision_requests_customer ON provision_requests USING hash (customer_key);
    DROP INDEX letters_customer;
    CREATE INDEX letters_customer ON letters USING hash (customer_key);
  `,
};
