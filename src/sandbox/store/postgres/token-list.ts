// Lists of payment tokens, filtered, ordered, counted and paged in SQL: the twin of ../token-list.ts.
// The channel's active tokens newest first on (channel, seq); the count from a per-channel count
// (token_counts) without filters. An "includes" filter of 3 characters or more reads its channel's
// matches from the trigram index (token-search.ts), and every filter is then tested on those
// matches alone; a shorter one tests the channel's rows, in a channel of at most
// MAX_SHORT_SEARCH_ROWS tokens. A date filter reads its range of an index of its own.
import type { ShownToken } from '../../domain/payment-tokens.js';
import { MAX_SHORT_SEARCH_ROWS, tokenSearchRefusals, trigramSearchable } from '../../domain/search-bounds.js';
import type { TokenListFilter } from '../../domain/token-listing.js';
import type { PaymentTokenRecord } from '../../domain/types.js';
import { containing } from './like-pattern.js';
import { named } from './named-sql.js';
import type { PgQueries } from './queries.js';
import { type TokenNeedles, tokenSearch } from './token-search.js';

const NEEDLES = ['email', 'name'] as const;

/** Every filter as SQL conditions: the needles tested as substrings, exactly as SQLite's instr() does. */
function conditionsOf(channel: string, filter: TokenListFilter) {
  const conditions = ['channel = @channel', "status = 'active'"];
  const params: Record<string, unknown> = { channel };
  for (const column of NEEDLES) {
    const needle = filter[column];
    if (needle === undefined) continue;
    // Lower-cased here, as the stored columns are, by JavaScript. A needle with a NUL (never one the
    // trigram index answers) crosses escaped, as the columns hold it (nul.ts): it finds the tokens
    // whose column holds it, as SQLite's instr() does.
    params[column] = containing(needle.toLowerCase());
    conditions.push(`${column}_search LIKE @${column}`);
  }
  // YYYY-MM and YYYY-MM-DD order as text, byte by byte (COLLATE "C", SQLite's BINARY).
  if (filter.cardExpiresBefore !== undefined) {
    conditions.push('card_expires <= @card COLLATE "C"');
    params.card = filter.cardExpiresBefore;
  }
  if (filter.lmnExpiresBefore !== undefined) {
    conditions.push('lmn_expires_at <= @lmn COLLATE "C"');
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

/** Every column of a token, in the order of SQLite's table (what its `SELECT *` answers). */
const ALL = [
  'token',
  'channel',
  'session_id',
  'status',
  'next_action',
  'created_at',
  'customer_email',
  'customer_name',
  'seq',
  'customer_key',
  'email_search',
  'name_search',
  'card_brand',
  'card_last4',
  'card_expires',
  'lmn_expires_at',
  'provision_request_id',
  'metadata',
  'success_url',
  'failure_url',
  'user_business_id',
];
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
const COLUMNS: Record<Columns, string> = { '*': ALL.join(', '), listed: LISTED.join(', ') };

type Rows = (columns: Columns) => Promise<Record<string, unknown>[]>;

export function tokenListQueries(q: PgQueries) {
  const search = tokenSearch(q);

  /** The channel's matches (at most MAX_SEARCH_MATCHES), every filter tested on those alone, newest first. */
  async function searchedPage(channel: string, filter: TokenListFilter, needles: TokenNeedles, page: Page) {
    const { seqs } = await search.matches(channel, needles);
    const { where, params } = conditionsOf(channel, filter);
    const kept =
      seqs.length === 0
        ? []
        : await q.column<number>(
            ...named(
              `SELECT seq FROM payment_tokens WHERE ${where} AND seq = ANY (@seqs::bigint[]) ORDER BY seq DESC`,
              {
                ...params,
                seqs,
              },
            ),
          );
    const onPage = kept.slice(page.offset, page.offset + page.limit);
    const rows: Rows = async (columns) =>
      onPage.length === 0
        ? []
        : q.all(`SELECT ${COLUMNS[columns]} FROM payment_tokens WHERE seq = ANY ($1::bigint[]) ORDER BY seq DESC`, [
            onPage,
          ]);
    return { rows, count: kept.length };
  }

  /** One page: the count of all that match, and a read of its rows (with these columns). */
  async function pageOf(channel: string, filter: TokenListFilter, page: Page): Promise<{ rows: Rows; count: number }> {
    const needles = searchableNeedles(filter);
    if (Object.keys(needles).length > 0) return searchedPage(channel, filter, needles, page);
    const all = (await q.value<number>('SELECT n FROM token_counts WHERE channel = $1', [channel])) ?? 0;
    // A needle the index cannot answer tests the channel's active tokens one by one.
    const short = NEEDLES.find((column) => filter[column] !== undefined);
    if (short !== undefined && all > MAX_SHORT_SEARCH_ROWS)
      throw tokenSearchRefusals.tooShort({ parameter: short, value: filter[short]! });
    const { where, params, filtered } = conditionsOf(channel, filter);
    const count = filtered
      ? ((await q.value<number>(...named(`SELECT COUNT(*) FROM payment_tokens WHERE ${where}`, params))) ?? 0)
      : all;
    const rows: Rows = async (columns) =>
      page.offset >= count
        ? []
        : q.all(
            ...named(
              `SELECT ${COLUMNS[columns]} FROM payment_tokens WHERE ${where}
                ORDER BY seq DESC LIMIT @limit OFFSET @offset`,
              { ...params, ...page },
            ),
          );
    return { rows, count };
  }

  return {
    async list(
      channel: string,
      filter: TokenListFilter,
      page: Page,
    ): Promise<{ tokens: PaymentTokenRecord[]; count: number }> {
      const { rows, count } = await pageOf(channel, filter, page);
      return { tokens: (await rows('*')) as unknown as PaymentTokenRecord[], count };
    },
    /** The same page with only what the list shows of each token. */
    async listed(
      channel: string,
      filter: TokenListFilter,
      page: Page,
    ): Promise<{ tokens: Iterable<ShownToken>; count: number }> {
      const { rows, count } = await pageOf(channel, filter, page);
      return { tokens: (await rows('listed')) as unknown as ShownToken[], count };
    },
  };
}
