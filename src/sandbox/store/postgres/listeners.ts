// Webhook listeners (`hsa-fsa-sandbox listen`) on PostgreSQL, the twin of store/listeners.ts:
// webhook endpoints of origin 'listener', whose deliveries a command line claims. `polled_at` is the
// real time (Unix ms) a listener last asked for its deliveries: one that stops asking expires.
import type { WebhookListener } from '../listeners.js';
import type { ListenersRepository } from '../store.js';
import type { Async } from './async.js';
import type { PgQueries } from './queries.js';

interface ListenerRow extends Omit<WebhookListener, 'event_types'> {
  event_types: string;
  [column: string]: unknown;
}

// The columns in the table's order, as SQLite's `SELECT *` gives them (origin aside); event_types
// (jsonb) as its JSON text, which a driver would otherwise parse its own way.
const COLUMNS = 'id, channel, url, event_types::text AS event_types, secret, mode, created_at, polled_at';

const readListener = (row: ListenerRow): WebhookListener => ({
  ...row,
  event_types: JSON.parse(row.event_types) as string[],
});

export function listenersRepository(q: PgQueries): Async<ListenersRepository> {
  return {
    async add(listener: WebhookListener) {
      await q.run(
        `INSERT INTO webhook_endpoints (id, channel, url, event_types, secret, mode, created_at, origin, polled_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, 'listener', $8)`,
        [
          listener.id,
          listener.channel,
          listener.url,
          JSON.stringify(listener.event_types),
          listener.secret,
          listener.mode,
          listener.created_at,
          listener.polled_at,
        ],
      );
    },
    /** The channel's listeners that asked for their deliveries at `since` (Unix ms) or later, oldest first. */
    live: async (channel: string, since: number) =>
      (
        await q.all<ListenerRow>(
          `SELECT ${COLUMNS} FROM webhook_endpoints WHERE channel = $1 AND origin = 'listener' AND polled_at >= $2
            ORDER BY created_at COLLATE "C", id COLLATE "C"`,
          [channel, since],
        )
      ).map(readListener),
    /** The listener, if it is the channel's and asked at `since` or later. */
    async liveOne(channel: string, id: string, since: number) {
      const row = await q.one<ListenerRow>(
        `SELECT ${COLUMNS} FROM webhook_endpoints
          WHERE channel = $1 AND id = $2 AND origin = 'listener' AND polled_at >= $3`,
        [channel, id, since],
      );
      return row ? readListener(row) : undefined;
    },
    /** It asked for its deliveries at `at` (Unix ms); a process that saw an earlier request later moves nothing back. */
    async touch(id: string, at: number) {
      await q.run(
        "UPDATE webhook_endpoints SET polled_at = GREATEST(polled_at, $1) WHERE id = $2 AND origin = 'listener'",
        [at, id],
      );
    },
    /**
     * Every channel's listeners that last asked before `before` (Unix ms): to remove. On
     * webhook_listeners_polled, in its order, as SQLite reads them (ties by id here, by rowid there).
     */
    expired: (before: number) =>
      q.all<{ channel: string; id: string }>(
        `SELECT channel, id FROM webhook_endpoints WHERE origin = 'listener' AND polled_at < $1
          ORDER BY polled_at, id COLLATE "C"`,
        [before],
      ),
  };
}
