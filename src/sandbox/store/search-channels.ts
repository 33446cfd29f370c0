// The trigram indexes (session_search, token_search) keep each sales channel's rows in a rowid range
// of their own: each channel has a number (search_channels), and a row's entry has the rowid
// (number << 40) + seq (migrations 13 and 14). A search asks FTS5 for its channel's range, so it
// never reads another channel's entries.
import type { Db } from './database.js';

export const SEQ_BITS = 40n;

/**
 * The rowids of a channel's entries. BigInts: better-sqlite3 binds a number as a REAL, and FTS5 ignores a REAL rowid
 * bound.
 */
function channelRowids(number: number): { first: bigint; last: bigint } {
  const first = BigInt(number) << SEQ_BITS;
  return { first, last: first + (1n << SEQ_BITS) - 1n };
}

/** A channel's range of rowids; undefined for a channel that never had a row indexed, and so has none. */
export function channelRanges(db: Db) {
  const numberOf = db.prepare('SELECT number FROM search_channels WHERE channel = ?').pluck();
  return (channel: string) => {
    const number = numberOf.get(channel) as number | undefined;
    return number === undefined ? undefined : channelRowids(number);
  };
}

/** A needle as an FTS5 string, which the trigram tokenizer matches as a substring. */
export const ftsString = (needle: string) => `"${needle.replace(/"/g, '""')}"`;
