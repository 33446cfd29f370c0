// The PostgreSQL migration that lets several sandbox processes share the delivery queue: each
// claim of a delivery leases it to one process, so that every other process skips it until the
// lease ends, and a report counts only from the claim that holds it (postgres/deliveries.ts).
// The SQLite store has the same columns (its migration 22), its leases on the machine's clock.
import type { PgMigration } from './schema.js';

/**
 * Its version is given by the store's list of migrations (index.ts), after the data repositories'
 * (4 there); the 3 here is what the events tests' databases number it, without those.
 */
export const DELIVERY_CLAIMS_MIGRATION: PgMigration = {
  version: 3,
  description:
    'deliveries are claimed under a lease, so that of several sandboxes sharing the database one delivers each, ' +
    'and another takes it up once the lease of a sandbox that stopped has ended',
  // claimed_by: the process that holds (or last held) the delivery; claim_seq counts its claims,
  // so that (claimed_by, claim_seq) names one claim; lease_until: the database's wall clock
  // (clock_timestamp()) until which no other process may claim it. NULL lease: not claimed.
  sql: `
    ALTER TABLE deliveries ADD COLUMN claimed_by TEXT;
    ALTER TABLE deliveries ADD COLUMN claim_seq INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE deliveries ADD COLUMN lease_until TIMESTAMPTZ;
  `,
};
