// The sessions of one channel whose id, email, name or user business id holds a needle of 3 characters or more,
// newest first, read from the channel's own range of the trigram index (search-index.ts) and from
// the channel's sessions still queued for it. The work is bounded by the answer, never by the
// table or another channel: at most MAX_SEARCH_MATCHES matches and MAX_UNINDEXED_SESSIONS queued
// rows are read, and a search that would need more is refused (domain/search-bounds.ts).
import {
  MAX_SEARCH_MATCHES,
  MAX_UNINDEXED_SESSIONS,
  searchIndexBehind,
  sessionSearchRefusals,
} from '../domain/search-bounds.js';
import type { Db } from './database.js';
import { channelRanges, ftsString } from './search-channels.js';

/** The matches of a search, and what finding them read. */
export interface SearchMatches {
  /** The matching sessions' seqs, newest first. */
  seqs: number[];
  /** Entries the trigram index answered: the channel's own matches, at most MAX_SEARCH_MATCHES + 1. */
  indexedRead: number;
  /** The channel's queued sessions tested one by one, at most MAX_UNINDEXED_SESSIONS + 1. */
  queuedRead: number;
}

export function sessionSearch(db: Db) {
  const rangeOf = channelRanges(db);
  // A quoted FTS5 string matches as a substring under the trigram tokenizer. Every match is read
  // (the count is exact), so the order does not matter to the work: the index's ascending walk,
  // half the cost of its descending one, is taken, and LIMIT stops it past the bound.
  const indexed = db
    .prepare(`SELECT rowid - @first FROM session_search
    WHERE session_search MATCH @match AND rowid BETWEEN @first AND @last ORDER BY rowid LIMIT @limit`)
    .pluck();
  // Each of the channel's queued sessions is tested on the (channel, seq, …, email, name, id, user) index:
  // no document is read. CROSS JOIN keeps the queue outside: the other way round would walk the
  // channel's whole index.
  const queued = db
    .prepare(
      `SELECT p.seq, instr(s.id, @needle) > 0 OR instr(s.email_search, @needle) > 0 OR ` +
        `instr(s.name_search, @needle) > 0
      OR instr(s.user_business_id, @needle) > 0
    FROM (SELECT seq FROM session_search_pending WHERE channel = @channel ORDER BY seq DESC LIMIT @limit) p
    CROSS JOIN payment_sessions s INDEXED BY payment_sessions_channel_seq WHERE s.channel = @channel AND s.seq = p.seq`,
    )
    .raw();

  return {
    /**
     * The channel's sessions matching `needle` (lower-cased, 3 characters or more, no NUL);
     * `search` is the caller's text, for the refusal.
     */
    matches(channel: string, needle: string, search: string): SearchMatches {
      const range = rangeOf(channel);
      // A channel that never had a session has no range, and nothing queued.
      if (range === undefined) return { seqs: [], indexedRead: 0, queuedRead: 0 };
      const { first, last } = range;
      const found = (
        indexed.all({ match: ftsString(needle), first, last, limit: MAX_SEARCH_MATCHES + 1 }) as number[]
      ).reverse();
      if (found.length > MAX_SEARCH_MATCHES)
        throw sessionSearchRefusals.tooBroad([{ parameter: 'search', value: search }]);
      const tested = queued.all({ channel, needle, limit: MAX_UNINDEXED_SESSIONS + 1 }) as Array<
        [number, number | null]
      >;
      if (tested.length > MAX_UNINDEXED_SESSIONS) throw searchIndexBehind();
      // A session is either indexed or queued, never both: the two lists are disjoint.
      const fresh = tested.filter(([, hit]) => hit).map(([seq]) => seq);
      if (found.length + fresh.length > MAX_SEARCH_MATCHES)
        throw sessionSearchRefusals.tooBroad([{ parameter: 'search', value: search }]);
      const seqs = fresh.length === 0 ? found : [...found, ...fresh].sort((a, b) => b - a);
      return { seqs, indexedRead: found.length, queuedRead: tested.length };
    },
  };
}
