// The active tokens of one channel whose email and name hold the given needles, read from the
// channel's own range of the trigram index (search-channels.ts, migration 14). The work is bounded
// by the answer, never by the table or another channel: at most MAX_SEARCH_MATCHES + 1 entries are
// read, and a search that would need more is refused (domain/search-bounds.ts).
import { MAX_SEARCH_MATCHES, tokenSearchRefusals, type SearchTerm } from '../domain/search-bounds.js';
import type { Db } from './database.js';
import { channelRanges, ftsString } from './search-channels.js';

/** Needles as the caller wrote them, each of 3 characters or more once lower-cased, and without NUL. */
export interface TokenNeedles {
  email?: string;
  name?: string;
}

/** The matches of a search, and what finding them read. */
export interface TokenMatches {
  /** The matching tokens' seqs, oldest first. */
  seqs: number[];
  /** Entries the trigram index answered: the channel's own matches, at most MAX_SEARCH_MATCHES + 1. */
  indexedRead: number;
}

export function tokenSearch(db: Db) {
  const rangeOf = channelRanges(db);
  // Every match is read (the count is exact), so the index's ascending walk, the cheaper one, is
  // taken, and LIMIT stops it past the bound.
  const indexed = db
    .prepare(`SELECT rowid - @first FROM token_search
    WHERE token_search MATCH @match AND rowid BETWEEN @first AND @last ORDER BY rowid LIMIT @limit`)
    .pluck();

  return {
    matches(channel: string, needles: TokenNeedles): TokenMatches {
      const range = rangeOf(channel);
      // A channel that never had a token has no range.
      if (range === undefined) return { seqs: [], indexedRead: 0 };
      const terms: SearchTerm[] = Object.entries(needles)
        .filter(([, value]) => value !== undefined)
        .map(([parameter, value]) => ({ parameter, value: value! }));
      const match = terms.map((t) => `${t.parameter} : ${ftsString(t.value.toLowerCase())}`).join(' AND ');
      const seqs = indexed.all({ match, ...range, limit: MAX_SEARCH_MATCHES + 1 }) as number[];
      if (seqs.length > MAX_SEARCH_MATCHES) throw tokenSearchRefusals.tooBroad(terms);
      return { seqs, indexedRead: seqs.length };
    },
  };
}
