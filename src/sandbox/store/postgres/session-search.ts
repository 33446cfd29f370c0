// The sessions of one channel whose id, email, name or user business id holds a needle of 3
// characters or more, newest first: the twin of ../session-search.ts.
//
// SQLite answers from an FTS5 trigram index (a contentless table kept beside payment_sessions, filled
// by a queue and a timer). PostgreSQL answers the same question from pg_trgm's GIN indexes on the same
// four columns (schema.ts), read through `LIKE '%needle%'`. The answers are identical:
// the GIN index only proposes rows, and PostgreSQL checks every proposed row against the LIKE itself
// (a trigram index is always rechecked for LIKE), so a row is answered exactly when one of its four
// columns holds the needle as a substring, which is what a quoted FTS5 string under the trigram
// tokenizer matches on those lower-cased columns, and what the SQLite search tests on its queued rows
// with instr(). The index is written in each session's own write, so nothing is ever queued: no search
// is refused for an index behind (searchIndexBehind), and indexPendingSearches has nothing to do.
//
// The one difference: FTS5 folds the case of both sides again, after JavaScript's lower-casing, and
// its folding maps a few lower-case characters to others ('ſ' to 's', 'ς' to 'σ', 'µ' to 'μ'), so
// its index finds "ses" in "ſeſ"; LIKE, as SQLite's own test of its queued rows (instr), does not.
// SQLite's answer for those characters thus depends on whether the row was indexed yet; this one is
// its queued rows' answer, always.
//
// Bounds as SQLite's: at most MAX_SEARCH_MATCHES + 1 matches are read (LIMIT without ORDER BY, so the
// scan stops there), and a search with more is refused as too broad.
import { MAX_SEARCH_MATCHES, sessionSearchRefusals } from '../../domain/search-bounds.js';
import type { SearchMatches } from '../session-search.js';
import { containing } from './like-pattern.js';
import type { PgQueries } from './queries.js';

export function sessionSearch(q: PgQueries) {
  const matching = `SELECT seq FROM payment_sessions WHERE channel = $1
    AND (id LIKE $2 OR email_search LIKE $2 OR name_search LIKE $2 OR user_business_id LIKE $2) LIMIT $3`;
  return {
    /**
     * The channel's sessions matching `needle` (lower-cased, 3 characters or more, no NUL); `search` is
     * the caller's text, for the refusal.
     */
    async matches(channel: string, needle: string, search: string): Promise<SearchMatches> {
      const seqs = await q.column<number>(matching, [channel, containing(needle), MAX_SEARCH_MATCHES + 1]);
      if (seqs.length > MAX_SEARCH_MATCHES)
        throw sessionSearchRefusals.tooBroad([{ parameter: 'search', value: search }]);
      seqs.sort((a, b) => b - a);
      return { seqs, indexedRead: seqs.length, queuedRead: 0 };
    },
  };
}
