// The answers of reads of a channel's sessions, kept as text (../answer-cache.ts, reused whole),
// made safe for a store whose reads wait on the database while other requests run.
//
// The rule that keeps a kept answer from ever being stale, across processes:
// - the fact cache (`facts`) is the PostgreSQL store's: it is emptied whenever the store sees the
//   database's revision change, at the start of each transaction and read, and that includes the
//   revisions this process's own commits made; and on every rollback. An answer kept before another
//   process's commit is therefore dropped before any later read of this process is answered;
// - a session's write here drops its channel's answers at once (as in SQLite);
// - an answer is kept only if nothing was dropped while it was computed: SQLite computes an answer
//   without yielding, but here another request's write, or a revalidation that emptied the cache,
//   can come between the start of the reads and the answer. Each computation holds a ticket in a map
//   of the fact cache; emptying the cache, or dropping the channel, takes the tickets away, and an
//   answer whose ticket is gone is answered but not kept.
import type { AnswerCacheBounds } from '../answer-cache.js';
import { ANSWER_CACHE_BOUNDS, answerCache } from '../answer-cache.js';
import type { FactCache } from '../fact-cache.js';

/** What the sessions repository needs of a cache of answers. */
export interface SessionAnswerCache {
  /**
   * The channel's answer under `key`, computed (and kept, when no drop came meanwhile) when absent; an
   * undefined answer (nothing found) is not kept.
   */
  answer(channel: string, key: string, compute: () => Promise<string | undefined>): Promise<string | undefined>;
  /** Drops the channel's answers, and keeps none being computed: one of its sessions changed. */
  dropChannel(channel: string): void;
}

export interface SessionAnswers extends SessionAnswerCache {
  /** The bytes the kept answers are counted at: the channel's, or all channels' without one. */
  bytes(channel?: string): number;
}

export function sessionAnswers(facts: FactCache, bounds: AnswerCacheBounds = ANSWER_CACHE_BOUNDS): SessionAnswers {
  const kept = answerCache(facts, bounds);
  // Ticket to its channel, emptied with the rest of the facts.
  const tickets = facts.map<string>();
  let issued = 0;
  return {
    async answer(channel, key, compute) {
      const found = kept.get(channel, key);
      if (found !== undefined) return found;
      const ticket = String(++issued);
      tickets.set(ticket, channel);
      try {
        const text = await compute();
        if (text !== undefined && tickets.has(ticket)) kept.set(channel, key, text);
        return text;
      } finally {
        tickets.delete(ticket);
      }
    },
    dropChannel(channel) {
      kept.dropChannel(channel);
      for (const [ticket, of] of tickets) if (of === channel) tickets.delete(ticket);
    },
    bytes: (channel) => kept.bytes(channel),
  };
}
