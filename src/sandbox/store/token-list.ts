// Lists of payment tokens, filtered, ordered, counted and paged in SQL: the channel's active tokens
// newest first on (channel, seq, …) with every filtered column inside the index, so that a page
// reads index entries until it is full and then only its own rows. The count comes from a
// per-channel count without filters. An "includes" filter of 3 characters or more reads its
// channel's matches from the trigram index (token-search.ts), and every filter is then tested on
// those matches alone; a shorter one reads the channel's index, in a channel of at most
// MAX_SHORT_SEARCH_ROWS tokens. A date filter reads its range of an index of its own.
import { MAX_SHORT_SEARCH_ROWS, tokenSearchRefusals, trigramSearchable } from '../domain/search-bounds.js';
import type { TokenListFilter } from '../domain/token-listing.js';
import type { PaymentTokenRecord } from '../domain/types.js';
import type { Db } from './database.js';
import { statementCache } from './statement-cache.js';
import { tokenSearch, type TokenNeedles } from './token-search.js';

const NEEDLES = ['email', 'name'] as const;

/** Every filter as SQL conditions on the (channel, seq, …) index: the needles tested with instr(), exactly. */
function conditionsOf(channel: string, filter: TokenListFilter) {
  const conditions = ['channel = @channel', "status = 'active'"];
  const params: Record<string, unknown> = { channel };
  for (const column of NEEDLES) {
    const needle = filter[column];
    if (needle === undefined) continue;
    // Lower-cased here, as the stored columns are, by JavaScript: SQLite's lower() folds ASCII only.
    params[column] = needle.toLowerCase();
    conditions.push(`instr(${column}_search, @${column}) > 0`);
  }
  if (filter.cardExpiresBefore !== undefined) {
    conditions.push('card_expires <= @card');
    params.card = filter.cardExpiresBefore;
  }
  if (filter.lmnExpiresBefore !== undefined) {
    conditions.push('lmn_expires_at <= @lmn');
    params.lmn = filter.lmnExpiresBefore;
  }
  return { where: conditions.join(' AND '), params, filtered: conditions.length > 2 };
}

/** The needles the trigram index can answer; the others are tested on its matches. */
function searchableNeedles(filter: TokenListFilter): TokenNeedles {
  return Object.fromEntries(NEEDLES.filter((column) => filter[column] !== undefined && trigramSearchable(filter[column].toLowerCase()))
    .map((column) => [column, filter[column]]));
}

type Page = { offset: number; limit: number };

export function tokenListQueries(db: Db) {
  const countAll = db.prepare('SELECT n FROM token_counts WHERE channel = ?').pluck();
  const prepared = statementCache(db);
  const search = tokenSearch(db);
  const bySeqs = db.prepare('SELECT * FROM payment_tokens WHERE seq IN (SELECT value FROM json_each(?)) ORDER BY seq DESC');

  /** The channel's matches (at most MAX_SEARCH_MATCHES), every filter tested on those alone, newest first. */
  function searchedPage(channel: string, filter: TokenListFilter, needles: TokenNeedles, page: Page) {
    const { seqs } = search.matches(channel, needles);
    const { where, params } = conditionsOf(channel, filter);
    const kept = seqs.length === 0 ? [] : prepared(`SELECT seq FROM payment_tokens INDEXED BY payment_tokens_channel_seq
      WHERE ${where} AND seq IN (SELECT value FROM json_each(@seqs)) ORDER BY seq DESC`).pluck().all({ ...params, seqs: JSON.stringify(seqs) }) as number[];
    const onPage = kept.slice(page.offset, page.offset + page.limit);
    const tokens = onPage.length === 0 ? [] : bySeqs.all(JSON.stringify(onPage)) as PaymentTokenRecord[];
    return { tokens, count: kept.length };
  }

  return {
    list(channel: string, filter: TokenListFilter, page: Page): { tokens: PaymentTokenRecord[]; count: number } {
      const needles = searchableNeedles(filter);
      if (Object.keys(needles).length > 0) return searchedPage(channel, filter, needles, page);
      const all = (countAll.get(channel) as number | undefined) ?? 0;
      // A needle the index cannot answer reads the channel's active tokens one by one.
      const short = NEEDLES.find((column) => filter[column] !== undefined);
      if (short !== undefined && all > MAX_SHORT_SEARCH_ROWS) throw tokenSearchRefusals.tooShort({ parameter: short, value: filter[short]! });
      const { where, params, filtered } = conditionsOf(channel, filter);
      const source = filter.lmnExpiresBefore !== undefined || filter.cardExpiresBefore !== undefined
        ? 'payment_tokens' : 'payment_tokens INDEXED BY payment_tokens_channel_seq';
      const count = filtered ? (prepared(`SELECT COUNT(*) AS n FROM ${source} WHERE ${where}`).get(params) as { n: number }).n : all;
      if (page.offset >= count) return { tokens: [], count };
      const tokens = prepared(`SELECT * FROM payment_tokens WHERE rowid IN
        (SELECT rowid FROM ${source} WHERE ${where} ORDER BY seq DESC LIMIT @limit OFFSET @offset) ORDER BY seq DESC`)
        .all({ ...params, ...page }) as PaymentTokenRecord[];
      return { tokens, count };
    },
  };
}
