// Each channel's evolution drill (domain/evolution-drill.ts): off, unless the channel turned it on
// (PUT /sandbox/v1/evolution_drill) or the sandbox started with --drill, which turns it on for
// every channel that has not said otherwise. Cached like the other per-channel facts.
import type { DrillSettings } from '../domain/evolution-drill.js';
import type { Db } from './database.js';
import type { FactCache } from './fact-cache.js';

export function drillRepository(db: Db, facts: FactCache, startedWith: DrillSettings) {
  const get = db.prepare('SELECT enabled, service_fee FROM channel_drills WHERE channel = ?');
  const upsert = db.prepare(`INSERT INTO channel_drills (channel, enabled, service_fee) VALUES (?, ?, ?)
    ON CONFLICT (channel) DO UPDATE SET enabled = excluded.enabled, service_fee = excluded.service_fee`);
  const cached = facts.map<DrillSettings>();
  const read = (channel: string): DrillSettings => {
    const row = get.get(channel) as { enabled: number; service_fee: DrillSettings['service_fee'] } | undefined;
    return row ? { enabled: row.enabled === 1, service_fee: row.service_fee } : startedWith;
  };
  return {
    /** The channel's drill (cached); a copy, so that no caller changes the cache. */
    get(channel: string): DrillSettings {
      let settings = cached.get(channel);
      if (settings === undefined) cached.set(channel, (settings = read(channel)));
      return { ...settings };
    },
    set(channel: string, settings: DrillSettings): void {
      upsert.run(channel, settings.enabled ? 1 : 0, settings.service_fee);
      cached.delete(channel);
    },
  };
}
