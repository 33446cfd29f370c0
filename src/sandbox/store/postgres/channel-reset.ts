// Deleting everything of one sales channel (POST /sandbox/v1/reset), or of every channel (--reset),
// as the SQLite store does (../channel-reset.ts): the same tables in the same order, and the same
// counts. Run inside a write transaction, so that every sandbox sees the whole reset or none of it.
import type { ResetCounts } from '../store.js';
import type { PgQueries } from './queries.js';

// Disputes point at sessions, deliveries at the outbox, attempts at deliveries: they go first.
// Triggers keep the counts (schema.ts). A channel whose catalog is deleted gets the seed catalog
// again (catalog_seeded goes too). Webhook endpoints stay: they are the channel's configuration,
// like its API key. The page secret stays: a reset deletes data.
const TABLES = {
  delivery_attempts: 'delivery_attempts',
  deliveries: 'deliveries',
  disputes: 'disputes',
  payment_tokens: 'payment_tokens',
  provision_requests: 'provision_requests',
  letters: 'letters',
  catalog_items: 'catalog_items',
  catalog_seeded: 'catalog_seeded',
  payment_sessions: 'payment_sessions',
  customers: 'customers',
  outbox_events: 'outbox',
  features: 'channel_features',
  drill: 'channel_drills',
  faults: 'faults',
  clock: 'channel_clocks',
} as const;

export function channelReset(q: PgQueries) {
  const run = async (where: string, params: string[]): Promise<ResetCounts> => {
    const deleted: Record<string, number> = {};
    for (const [name, table] of Object.entries(TABLES))
      deleted[name] = await q.run(`DELETE FROM ${table}${where}`, params);
    return {
      payment_sessions: deleted.payment_sessions!,
      payment_tokens: deleted.payment_tokens!,
      outbox_events: deleted.outbox_events!,
    };
  };
  return {
    /** One channel's data; what it deleted. */
    channel: (channel: string) => run(' WHERE channel = $1', [channel]),
    /** Every channel's data. */
    all: () => run('', []),
  };
}
