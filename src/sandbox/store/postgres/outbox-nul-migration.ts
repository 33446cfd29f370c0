// The PostgreSQL migration that lets an event's payload hold a NUL. A payload is JSON text, where a
// partner's NUL (a sku, a name) is the escape \u0000; jsonb refuses that escape (it cannot be
// text), so the cast that computes outbox.payment_session_id failed the write that queued the event.
// The cast now reads \u0000 as \ufffd: still valid JSON whatever backslashes come before it, and
// the ids it extracts are the sandbox's own, which hold neither.
import type { PgMigration } from './schema.js';

const PAYLOAD = `replace(payload, '\\u0000', '\\ufffd')::jsonb`;

/** Its version is given by the store's list of migrations (index.ts), after the others'. */
export const OUTBOX_NUL_MIGRATION: PgMigration = {
  version: 6,
  description: "an event's payload may hold the escape of a NUL, which the session id's jsonb cast refused",
  sql: `
    ALTER TABLE outbox DROP COLUMN payment_session_id;
    ALTER TABLE outbox ADD COLUMN payment_session_id TEXT GENERATED ALWAYS AS (coalesce(${PAYLOAD} #>> '{data,payment_id}',
      ${PAYLOAD} #>> '{data,payment,order_id}', ${PAYLOAD} #>> '{data,payment_session_id}')) STORED;
    CREATE INDEX outbox_payment_session ON outbox (channel, payment_session_id, id) WHERE payment_session_id IS NOT NULL;
  `,
};
