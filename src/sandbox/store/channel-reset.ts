// Deleting everything of one sales channel (POST /sandbox/v1/reset), leaving the others untouched.
import type { Db } from './database.js';

export function channelReset(db: Db) {
  const statement = (sql: string) => db.prepare(sql);
  // Disputes point at sessions: they go first. Triggers keep the counts and the search index.
  const deletions = {
    disputes: statement('DELETE FROM disputes WHERE channel = ?'),
    payment_tokens: statement('DELETE FROM payment_tokens WHERE channel = ?'),
    payment_sessions: statement('DELETE FROM payment_sessions WHERE channel = ?'),
    outbox_events: statement('DELETE FROM outbox WHERE channel = ?'),
    features: statement('DELETE FROM channel_features WHERE channel = ?'),
    faults: statement('DELETE FROM faults WHERE channel = ?'),
    clock: statement('DELETE FROM channel_clocks WHERE channel = ?'),
  };
  return (channel: string) => {
    const deleted = Object.fromEntries(Object.entries(deletions).map(([name, statement]) => [name, statement.run(channel).changes]));
    return { payment_sessions: deleted.payment_sessions!, payment_tokens: deleted.payment_tokens!, outbox_events: deleted.outbox_events! };
  };
}
