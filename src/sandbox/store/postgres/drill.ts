// Each channel's evolution drill (../drill.ts): off, unless the channel turned it on or the sandbox
// started with --drill; cached under the PostgreSQL cache's rule (fact-cache.ts). Turned off, it
// ends the deliveries of its event of an unknown type still pending.
import type { DrillSettings } from '../../domain/evolution-drill.js';
import type { PgFactCache } from './fact-cache.js';
import type { PgQueries } from './queries.js';

// As the removal of an endpoint ends its deliveries: gone if never tried, failed otherwise.
const FOLLOW_UPS = "channel = $1 AND status = 'pending' AND drill_follow_up IS NOT NULL";

export function drillRepository(q: PgQueries, facts: PgFactCache, startedWith: DrillSettings) {
  const cached = facts.factMap<DrillSettings>();
  const read = async (channel: string): Promise<DrillSettings> => {
    const row = await q.one<{ enabled: boolean; service_fee: DrillSettings['service_fee'] }>(
      'SELECT enabled, service_fee FROM channel_drills WHERE channel = $1',
      [channel],
    );
    return row ? { enabled: row.enabled, service_fee: row.service_fee } : startedWith;
  };
  return {
    /** The channel's drill (cached); a copy, so that no caller changes the cache. */
    async get(channel: string): Promise<DrillSettings> {
      return { ...(await cached.fetch(channel, () => read(channel))) };
    },
    /** Inside a transaction: the channel's drill from now on. */
    async set(channel: string, settings: DrillSettings): Promise<void> {
      await q.run(
        `INSERT INTO channel_drills (channel, enabled, service_fee) VALUES ($1, $2, $3)
          ON CONFLICT (channel) DO UPDATE SET enabled = excluded.enabled, service_fee = excluded.service_fee`,
        [channel, settings.enabled, settings.service_fee],
      );
      cached.drop(channel);
      if (settings.enabled) return;
      await q.run(
        `DELETE FROM deliveries WHERE ${FOLLOW_UPS}
          AND NOT EXISTS (SELECT 1 FROM delivery_attempts WHERE delivery_attempts.delivery_id = deliveries.id)`,
        [channel],
      );
      await q.run(`UPDATE deliveries SET status = 'failed' WHERE ${FOLLOW_UPS}`, [channel]);
    },
  };
}
