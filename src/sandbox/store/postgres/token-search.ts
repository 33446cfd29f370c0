// The active tokens of one channel whose email and name hold the given needles: the twin of
// ../token-search.ts. SQLite reads its FTS5 trigram index (only active tokens are in it, each needle
// matched in its own column); PostgreSQL reads pg_trgm's GIN indexes on the same columns
// (schema.ts) through `LIKE '%needle%'`, every proposed row checked against the LIKE
// itself, so the matches are exactly the active tokens whose lower-cased column holds each needle as
// a substring: those FTS5 answers (session-search.ts says why the two agree, and where FTS5's own case
// folding of a few characters, 'ſ' or 'ς', finds what LIKE does not).
//
// At most MAX_SEARCH_MATCHES + 1 are read (LIMIT without ORDER BY, so the scan stops there), and a
// search with more is refused as too broad.
import { MAX_SEARCH_MATCHES, type SearchTerm, tokenSearchRefusals } from '../../domain/search-bounds.js';
import type { TokenMatches, TokenNeedles } from '../token-search.js';
import { containing } from './like-pattern.js';
import type { PgQueries } from './queries.js';

export type { TokenNeedles };

/** The column each needle is matched in. */
const COLUMN: Record<keyof TokenNeedles, string> = { email: 'email_search', name: 'name_search' };

export function tokenSearch(q: PgQueries) {
  return {
    async matches(channel: string, needles: TokenNeedles): Promise<TokenMatches> {
      const terms: SearchTerm[] = Object.entries(needles)
        .filter(([, value]) => value !== undefined)
        .map(([parameter, value]) => ({ parameter, value: value! }));
      const conditions = terms.map((t, i) => `${COLUMN[t.parameter as keyof TokenNeedles]} LIKE $${i + 3}`);
      const seqs = await q.column<number>(
        `SELECT seq FROM payment_tokens WHERE channel = $1 AND status = 'active' AND ${conditions.join(' AND ')}
          LIMIT $2`,
        [channel, MAX_SEARCH_MATCHES + 1, ...terms.map((t) => containing(t.value.toLowerCase()))],
      );
      if (seqs.length > MAX_SEARCH_MATCHES) throw tokenSearchRefusals.tooBroad(terms);
      seqs.sort((a, b) => a - b);
      return { seqs, indexedRead: seqs.length };
    },
  };
}
