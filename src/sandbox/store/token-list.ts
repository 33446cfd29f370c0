// Lists of payment tokens, filtered, ordered, counted and paged in SQL: the channel's active tokens
// newest first on (channel, seq, …) with every filtered column inside the index, so that a page
// reads index entries until it is full and then only its own rows. The count comes from a
// per-channel count without filters. An "includes" filter of 3 characters or more reads its
// channel's matches from the trigram index (token-search.ts), and every filter is then tested on
// those matches alone; a shorter one reads the channel's index, in a channel of at most
// MAX_SHORT_SEARCH_ROWS tokens. A date filter reads its range of an index of its own.
import { MAX_SHORT_SEARCH_ROWS, tokenSearchRefusals, trigramSearchable } from '../domain/search-bounds.js';
import type { ShownToken } from '../domain/payment-tokens.js';
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
  return Object.fromEntries(
    NEEDLES.filter((column) => filter[column] !== undefined && trigramSearchable(filter[column].toLowerCase())).map(
      (column) => [column, filter[column]],
    ),
  );
}

type Page = { offset: number; limit: number };

/** What the list shows of a token (domain/payment-tokens.ts tokenView): a page reads no other column. */
const LISTED = [
  'token',
  'created_at',
  'customer_email',
  'customer_name',
  'user_business_id',
  'lmn_expires_at',
  'card_brand',
  'card_last4',
  'card_expires',
] as const satisfies ReadonlyArray<keyof ShownToken>;
/** The columns a page reads: every one, or those the list shows. */
type Columns = '*' | 'listed';
const COLUMNS: Record<Columns, string> = { '*': '*', listed: LISTED.join(', ') };

export function tokenListQueries(db: Db) {
  const countAll = db.prepare('SELECT n FROM token_counts WHERE channel = ?').pluck();
  const prepared = statementCache(db);
  const search = tokenSearch(db);

  /** The channel's matches (at most MAX_SEARCH_MATCHES), every filter tested on those alone, newest first. */
  function searchedPage(channel: string, filter: TokenListFilter, needles: TokenNeedles, page: Page) {
    const { seqs } = search.matches(channel, needles);
    const { where, params } = conditionsOf(channel, filter);
    const kept =
      seqs.length === 0
        ? []
        : (prepared(`SELECT seq FROM payment_tokens INDEXED BY payment_tokens_channel_seq
      WHERE ${where} AND seq IN (SELECT value FROM json_each(@seqs)) ORDER BY seq DESC`)
            .pluck()
            .all({ ...params, seqs: JSON.stringify(seqs) }) as number[]);
    const onPage = kept.slice(page.offset, page.offset + page.limit);
    // Read newest first on the index of seq: the rows come in order as they are read, with no sort.
    const rows = (columns: Columns) =>
      onPage.length === 0
        ? []
        : prepared(`SELECT ${COLUMNS[columns]} FROM payment_tokens
      WHERE seq IN (SELECT value FROM json_each(@seqs)) ORDER BY seq DESC`).iterate({ seqs: JSON.stringify(onPage) });
    return { rows, count: kept.length };
  }

  /** One page: the count of all that match, and its rows (with these columns), read as they are asked for. */
  function pageOf(
    channel: string,
    filter: TokenListFilter,
    page: Page,
  ): { rows: (columns: Columns) => Iterable<unknown>; count: number } {
    const needles = searchableNeedles(filter);
    if (Object.keys(needles).length > 0) return searchedPage(channel, filter, needles, page);
    const all = (countAll.get(channel) as number | undefined) ?? 0;
    // A needle the index cannot answer reads the channel's active tokens one by one.
    const short = NEEDLES.find((column) => filter[column] !== undefined);
    if (short !== undefined && all > MAX_SHORT_SEARCH_ROWS)
      throw tokenSearchRefusals.tooShort({ parameter: short, value: filter[short]! });
    const { where, params, filtered } = conditionsOf(channel, filter);
    const source =
      filter.lmnExpiresBefore !== undefined || filter.cardExpiresBefore !== undefined
        ? 'payment_tokens'
        : 'payment_tokens INDEXED BY payment_tokens_channel_seq';
    const count = filtered
      ? (prepared(`SELECT COUNT(*) AS n FROM ${source} WHERE ${where}`).get(params) as { n: number }).n
      : all;
    // The rows joined to the page's rowids in their order, so that they come as they are read (no sort of the rows).
    const rows = (columns: Columns) =>
      page.offset >= count
        ? []
        : prepared(`SELECT ${COLUMNS[columns]} FROM
      (SELECT rowid AS r, seq AS s FROM ${source} WHERE ${where} ORDER BY seq DESC LIMIT @limit OFFSET @offset) AS page
      CROSS JOIN payment_tokens ON payment_tokens.rowid = page.r ORDER BY page.s DESC`).iterate({ ...params, ...page });
    return { rows, count };
  }

  return {
    list(channel: string, filter: TokenListFilter, page: Page): { tokens: PaymentTokenRecord[]; count: number } {
      const { rows, count } = pageOf(channel, filter, page);
      return { tokens: [...rows('*')] as PaymentTokenRecord[], count };
    },
    /** The same page with only what the list shows of each token, each row read when it is asked for. */
    listed(channel: string, filter: TokenListFilter, page: Page): { tokens: Iterable<ShownToken>; count: number } {
      const { rows, count } = pageOf(channel, filter, page);
      return { tokens: lazily(() => rows('listed') as Iterable<ShownToken>), count };
    },
  };
}

/** The rows, not read until the first is asked for (an open read would hold the connection). */
function* lazily<T>(rows: () => Iterable<T>): Generator<T> {
  yield* rows();
}
