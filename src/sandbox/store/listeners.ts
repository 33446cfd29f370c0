// Webhook listeners (`hsa-fsa-sandbox listen`): webhook endpoints of origin 'listener', which the
// outbox fans events out to like any other (store/outbox.ts), but whose deliveries a command line
// claims instead of the dispatcher POSTing them (delivery/listeners.ts). `polled_at` is the real time
// (Unix ms) a listener last asked for its deliveries: one that stops asking expires.
import type { Db } from './database.js';
import type { WebhookEndpoint } from './deliveries.js';

/** A listener: the endpoint, and when it last asked for its deliveries (real time, Unix ms). */
export interface WebhookListener extends WebhookEndpoint {
  polled_at: number;
}

interface ListenerRow extends Omit<WebhookListener, 'event_types'> {
  event_types: string;
  origin: string;
}

const readListener = ({ origin: _origin, ...row }: ListenerRow): WebhookListener => ({
  ...row,
  event_types: JSON.parse(row.event_types) as string[],
});

export function listenersRepository(db: Db) {
  const insert = db.prepare(
    `INSERT INTO webhook_endpoints (id, channel, url, event_types, secret, mode, created_at, origin, ` +
      `polled_at)
    VALUES (@id, @channel, @url, @event_types, @secret, @mode, @created_at, 'listener', @polled_at)`,
  );
  // Live: asked for its deliveries at `since` or later.
  const liveOf = db.prepare(
    "SELECT * FROM webhook_endpoints WHERE channel = ? AND origin = 'listener' AND polled_at >= ? ORDER BY " +
      'created_at, id',
  );
  const liveById = db.prepare(
    "SELECT * FROM webhook_endpoints WHERE channel = ? AND id = ? AND origin = 'listener' AND polled_at >= ?",
  );
  const touch = db.prepare(
    "UPDATE webhook_endpoints SET polled_at = MAX(polled_at, ?) WHERE id = ? AND origin = 'listener'",
  );
  const expired = db.prepare("SELECT channel, id FROM webhook_endpoints WHERE origin = 'listener' AND polled_at < ?");
  return {
    add(listener: WebhookListener): void {
      insert.run({ ...listener, event_types: JSON.stringify(listener.event_types) });
    },
    /** The channel's listeners that asked for their deliveries at `since` (Unix ms) or later, oldest first. */
    live: (channel: string, since: number) => (liveOf.all(channel, since) as ListenerRow[]).map(readListener),
    /** The listener, if it is the channel's and asked at `since` or later. */
    liveOne(channel: string, id: string, since: number): WebhookListener | undefined {
      const row = liveById.get(channel, id, since) as ListenerRow | undefined;
      return row ? readListener(row) : undefined;
    },
    /** It asked for its deliveries at `at` (Unix ms). */
    touch(id: string, at: number): void {
      touch.run(at, id);
    },
    /** Every channel's listeners that last asked before `before` (Unix ms): to remove. */
    expired: (before: number) => expired.all(before) as Array<{ channel: string; id: string }>,
  };
}
