// Lists of payment tokens, filtered, ordered, counted and paged in SQL: the channel's active tokens
// newest first on (channel, seq, …) with every filtered column inside the index, so that a page
// reads index entries until it is full and then only its own rows. The count comes from a
// per-channel count without filters; an "includes" filter of 3 characters or more reads its matches
// from a trigram index, and a date filter its range of an index of its own.
import type { PaymentTokenRecord } from '../domain/types.js';
import type { Db } from './database.js';
import { statementCache } from './statement-cache.js';

export interface TokenListFilter {
  /** Lower-cased: emails and names match case-insensitively. */
  email?: string;
  name?: string;
  /** YYYY-MM, on or before. */
  cardExpiresBefore?: string;
  /** YYYY-MM-DD, on or before. */
  lmnExpiresBefore?: string;
}

const TRIGRAM = 3;

/** A quoted FTS5 string matches as a substring; a NUL would end it early, so such needles scan the index instead. */
const trigramUsable = (needle: string) => [...needle].length >= TRIGRAM && !needle.includes('\u0000');

function conditionsOf(channel: string, filter: TokenListFilter) {
  const conditions = ['channel = @channel', "status = 'active'"];
  const params: Record<string, unknown> = { channel };
  const matches: string[] = [];
  for (const [column, needle] of [['email', filter.email], ['name', filter.name]] as const) {
    if (needle === undefined) continue;
    params[column] = needle;
    if (trigramUsable(needle)) {
      matches.push(`${column} : "${needle.replace(/"/g, '""')}"`);
    }
    conditions.push(`instr(${column}_search, @${column}) > 0`);
  }
  if (matches.length > 0) {
    conditions.push('rowid IN (SELECT rowid FROM token_search WHERE token_search MATCH @match)');
    params.match = matches.join(' AND ');
  }
  if (filter.cardExpiresBefore !== undefined) {
    conditions.push('card_expires <= @card');
    params.card = filter.cardExpiresBefore;
  }
  if (filter.lmnExpiresBefore !== undefined) {
    conditions.push('lmn_expires_at <= @lmn');
    params.lmn = filter.lmnExpiresBefore;
  }
  return { where: conditions.join(' AND '), params, searched: matches.length > 0, filtered: conditions.length > 2 };
}

export function tokenListQueries(db: Db) {
  const countAll = db.prepare('SELECT n FROM token_counts WHERE channel = ?').pluck();
  const prepared = statementCache(db);
  return {
    list(channel: string, filter: TokenListFilter, page: { offset: number; limit: number }): { tokens: PaymentTokenRecord[]; count: number } {
      const { where, params, searched, filtered } = conditionsOf(channel, filter);
      // A trigram search starts from its matches; otherwise the newest-first index is walked.
      const source = searched ? 'payment_tokens NOT INDEXED' : filter.lmnExpiresBefore !== undefined || filter.cardExpiresBefore !== undefined
        ? 'payment_tokens' : 'payment_tokens INDEXED BY payment_tokens_channel_seq';
      const count = filtered ? (prepared(`SELECT COUNT(*) AS n FROM ${source} WHERE ${where}`).get(params) as { n: number }).n
        : ((countAll.get(channel) as number | undefined) ?? 0);
      if (page.offset >= count) return { tokens: [], count };
      const tokens = prepared(`SELECT * FROM payment_tokens WHERE rowid IN
        (SELECT rowid FROM ${source} WHERE ${where} ORDER BY seq DESC LIMIT @limit OFFSET @offset) ORDER BY seq DESC`)
        .all({ ...params, ...page }) as PaymentTokenRecord[];
      return { tokens, count };
    },
  };
}
