// Answers of reads of a channel's sessions, kept as the JSON text that was sent (../answer-cache.ts,
// whose bounds and eviction it reuses), under the PostgreSQL cache's rule (fact-cache.ts): an
// answer is served and kept only for a caller that reads the state the cache holds (a read at the
// cache's revision, or a statement outside any transaction), and kept only if nothing was dropped
// or emptied while it was computed. A write computes its answers afresh: it may have changed them,
// and a read running beside it may have kept one from before the change.
import { ANSWER_CACHE_BOUNDS, type AnswerCacheBounds, answerCache } from '../answer-cache.js';
import type { PgFactCache } from './fact-cache.js';

export interface PgAnswerCache {
  /** The channel's answer under `key`: kept, or computed (and kept when the rule allows); none is not kept. */
  answer(channel: string, key: string, compute: () => Promise<string | undefined>): Promise<string | undefined>;
  /** Drops the channel's answers: one of its sessions changed. */
  dropChannel(channel: string): void;
  /** The bytes the kept answers are counted at: the channel's, or all channels' without one. */
  bytes(channel?: string): number;
}

export function pgAnswerCache(facts: PgFactCache, bounds: AnswerCacheBounds = ANSWER_CACHE_BOUNDS): PgAnswerCache {
  const kept = answerCache(facts, bounds);
  // Counts the drops: an answer computed across one may hold what was there before it.
  let drops = 0;
  return {
    async answer(channel, key, compute) {
      const lease = facts.lease();
      if (!lease) return compute();
      const found = kept.get(channel, key);
      if (found !== undefined) return found;
      const since = drops;
      const text = await compute();
      if (text !== undefined && lease.valid() && drops === since) kept.set(channel, key, text);
      return text;
    },
    dropChannel(channel) {
      drops++;
      kept.dropChannel(channel);
    },
    bytes: (channel) => kept.bytes(channel),
  };
}
