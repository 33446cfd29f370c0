// Deleting everything of one sales channel (POST /sandbox/v1/reset), leaving the others untouched;
// or of every channel (--reset), through SQL rather than by deleting the file, so that a file that
// is no sandbox database is refused, and another sandbox on the same file sees the reset.
import type { Db } from './database.js';

// Disputes point at sessions: they go first. Triggers keep the counts and the search indexes. A
// channel whose catalog is deleted gets the seed catalog again (catalog_seeded goes too). Webhook
// endpoints stay: they are the channel's configuration, like its API key.
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

export function channelReset(db: Db) {
  const inChannel = Object.entries(TABLES).map(
    ([name, table]) => [name, db.prepare(`DELETE FROM ${table} WHERE channel = @channel`)] as const,
  );
  const everywhere = Object.entries(TABLES).map(([name, table]) => [name, db.prepare(`DELETE FROM ${table}`)] as const);
  const run = (statements: typeof inChannel, params: Record<string, string>) => {
    const args = Object.keys(params).length > 0 ? [params] : [];
    const deleted = Object.fromEntries(statements.map(([name, statement]) => [name, statement.run(...args).changes]));
    return {
      payment_sessions: deleted.payment_sessions!,
      payment_tokens: deleted.payment_tokens!,
      outbox_events: deleted.outbox_events!,
    };
  };
  return {
    /** One channel's data; what it deleted. */
    channel: (channel: string) => run(inChannel, { channel }),
    /** Every channel's data. */
    all: () => run(everywhere, {}),
  };
}
