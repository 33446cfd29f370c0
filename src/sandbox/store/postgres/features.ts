// Per-channel merchant features (../features.ts): whether authorization holds and payment tokens
// are enabled, cached under the PostgreSQL cache's rule (fact-cache.ts).
import type { Features } from '../../domain/types.js';
import { DEFAULT_FEATURES } from '../features.js';
import type { PgFactCache } from './fact-cache.js';
import type { PgQueries } from './queries.js';

export function featuresRepository(q: PgQueries, facts: PgFactCache) {
  const cached = facts.factMap<Features>();
  const read = async (channel: string): Promise<Features> => {
    const row = await q.one<{ authorization_enabled: boolean; tokenization_enabled: boolean }>(
      'SELECT authorization_enabled, tokenization_enabled FROM channel_features WHERE channel = $1',
      [channel],
    );
    return row
      ? { authorization: row.authorization_enabled, tokenization: row.tokenization_enabled }
      : DEFAULT_FEATURES;
  };
  return {
    /** The channel's features (cached); a copy, so that no caller changes the cache. */
    async get(channel: string): Promise<Features> {
      return { ...(await cached.fetch(channel, () => read(channel))) };
    },
    async set(channel: string, features: Features): Promise<void> {
      await q.run(
        `INSERT INTO channel_features (channel, authorization_enabled, tokenization_enabled) VALUES ($1, $2, $3)
          ON CONFLICT (channel) DO UPDATE SET authorization_enabled = excluded.authorization_enabled,
            tokenization_enabled = excluded.tokenization_enabled`,
        [channel, features.authorization, features.tokenization],
      );
      cached.drop(channel);
    },
  };
}
