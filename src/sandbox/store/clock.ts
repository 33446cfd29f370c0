// The sandbox clock of each sales channel.
import { clockText } from './clock-text.js';
import { LAST_STORED_TIME } from '../domain/stored-time.js';
import type { Db } from './database.js';
import type { FactCache } from './fact-cache.js';

/**
 * The sandbox clock of each channel: real time plus an offset that helpers advance (for hold
 * expiry). Per channel, so that one team's test cannot expire another team's holds.
 */
export function clockRepository(db: Db, facts: FactCache, realNow: () => number = Date.now) {
  const read = db.prepare('SELECT offset_ms FROM channel_clocks WHERE channel = ?').pluck();
  const advance = db.prepare(`INSERT INTO channel_clocks (channel, offset_ms) VALUES (?, ?)
    ON CONFLICT (channel) DO UPDATE SET offset_ms = offset_ms + excluded.offset_ms`);
  const offsets = facts.map<number>();
  const offset = (channel: string) => {
    let ms = offsets.get(channel);
    if (ms === undefined) {
      ms = (read.get(channel) as number | undefined) ?? 0;
      offsets.set(channel, ms);
    }
    return ms;
  };
  return {
    // A clock advanced to the end of year 9999 stays there, though real time goes on.
    now: (channel: string) => clockText(Math.min(realNow() + offset(channel), LAST_STORED_TIME)),
    offsetSeconds: (channel: string) => Math.floor(offset(channel) / 1000),
    advance(channel: string, seconds: number): void {
      advance.run(channel, seconds * 1000);
      offsets.delete(channel);
    },
  };
}
