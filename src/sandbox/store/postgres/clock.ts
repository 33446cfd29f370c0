// The sandbox clock of each sales channel (../clock.ts): real time plus an offset that helpers
// advance, cached under the PostgreSQL cache's rule (fact-cache.ts).
import { clockText } from '../clock-text.js';
import { LAST_STORED_TIME } from '../../domain/stored-time.js';
import type { PgFactCache } from './fact-cache.js';
import type { PgQueries } from './queries.js';

export function clockRepository(q: PgQueries, facts: PgFactCache, realNow: () => number = Date.now) {
  const offsets = facts.factMap<number>();
  const offset = (channel: string) =>
    offsets.fetch(
      channel,
      async () => (await q.value<number>('SELECT offset_ms FROM channel_clocks WHERE channel = $1', [channel])) ?? 0,
    );
  return {
    // A clock advanced to the end of year 9999 stays there, though real time goes on.
    now: async (channel: string) => clockText(Math.min(realNow() + (await offset(channel)), LAST_STORED_TIME)),
    offsetSeconds: async (channel: string) => Math.floor((await offset(channel)) / 1000),
    async advance(channel: string, seconds: number): Promise<void> {
      await q.run(
        `INSERT INTO channel_clocks (channel, offset_ms) VALUES ($1, $2)
          ON CONFLICT (channel) DO UPDATE SET offset_ms = channel_clocks.offset_ms + excluded.offset_ms`,
        [channel, seconds * 1000],
      );
      offsets.drop(channel);
    },
  };
}
