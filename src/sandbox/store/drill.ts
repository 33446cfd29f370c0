// Each channel's evolution drill (domain/evolution-drill.ts): off, unless the channel turned it on
// (PUT /sandbox/v1/evolution_drill) or the sandbox started with --drill, which turns it on for
// every channel that has not said otherwise. Cached like the other per-channel facts. The drill
// stores nothing of its own beside the setting: the outbox keeps the events as fired, and a
// delivery is shaped as it is sent (http/evolution-drill.ts). Turned off, it ends the deliveries
// of its event of an unknown type still pending: today's service sends none.
import type { DrillSettings } from '../domain/evolution-drill.js';
import type { Db } from './database.js';
import type { FactCache } from './fact-cache.js';

export function drillRepository(db: Db, facts: FactCache, startedWith: DrillSettings) {
  const get = db.prepare('SELECT enabled, service_fee FROM channel_drills WHERE channel = ?');
  const upsert = db.prepare(`INSERT INTO channel_drills (channel, enabled, service_fee) VALUES (?, ?, ?)
    ON CONFLICT (channel) DO UPDATE SET enabled = excluded.enabled, service_fee = excluded.service_fee`);
  // As the removal of an endpoint ends its deliveries: gone if never tried, failed otherwise.
  const followUps = "channel = ? AND status = 'pending' AND drill_follow_up IS NOT NULL";
  const dropFollowUps = db.prepare(`DELETE FROM deliveries
    WHERE ${followUps} AND id NOT IN (SELECT delivery_id FROM delivery_attempts)`);
  const failFollowUps = db.prepare(`UPDATE deliveries SET status = 'failed' WHERE ${followUps}`);
  const cached = facts.map<DrillSettings>();
  const read = (channel: string): DrillSettings => {
    const row = get.get(channel) as { enabled: number; service_fee: DrillSettings['service_fee'] } | undefined;
    return row ? { enabled: row.enabled === 1, service_fee: row.service_fee } : startedWith;
  };
  return {
    /** The channel's drill (cached); a copy, so that no caller changes the cache. */
    get(channel: string): DrillSettings {
      let settings = cached.get(channel);
      if (settings === undefined) {
        settings = read(channel);
        cached.set(channel, settings);
      }
      return { ...settings };
    },
    /** Inside a transaction: the channel's drill from now on. */
    set(channel: string, settings: DrillSettings): void {
      upsert.run(channel, settings.enabled ? 1 : 0, settings.service_fee);
      cached.delete(channel);
      if (settings.enabled) return;
      dropFollowUps.run(channel);
      failFollowUps.run(channel);
    },
  };
}
