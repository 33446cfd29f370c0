// Per-channel merchant features: whether authorization holds and payment tokens are enabled.
import type { Features } from '../domain/types.js';
import type { Db } from './database.js';
import type { FactCache } from './fact-cache.js';

export const DEFAULT_FEATURES: Features = { authorization: true, tokenization: true };

export function featuresRepository(db: Db, facts: FactCache) {
  const get = db.prepare('SELECT authorization_enabled, tokenization_enabled FROM channel_features WHERE channel = ?');
  const upsert =
    db.prepare(`INSERT INTO channel_features (channel, authorization_enabled, tokenization_enabled) VALUES (?, ?, ?)
    ON CONFLICT (channel) DO UPDATE SET authorization_enabled = excluded.authorization_enabled,
      tokenization_enabled = excluded.tokenization_enabled`);
  const cached = facts.map<Features>();
  const read = (channel: string): Features => {
    const row = get.get(channel) as { authorization_enabled: number; tokenization_enabled: number } | undefined;
    return row
      ? { authorization: row.authorization_enabled === 1, tokenization: row.tokenization_enabled === 1 }
      : DEFAULT_FEATURES;
  };
  return {
    /** The channel's features (cached); a copy, so that no caller changes the cache. */
    get(channel: string): Features {
      let features = cached.get(channel);
      if (features === undefined) {
        features = read(channel);
        cached.set(channel, features);
      }
      return { ...features };
    },
    set(channel: string, features: Features): void {
      upsert.run(channel, features.authorization ? 1 : 0, features.tokenization ? 1 : 0);
      cached.delete(channel);
    },
  };
}
