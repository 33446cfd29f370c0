// Lists of payment sessions, filtered, ordered, counted and paged in SQL: the twin of
// ../session-list.ts, with the same plan so that a page costs the page and not the table:
// - the count comes from per-channel counts by status and kind (session_counts, kept by triggers),
//   unless a filter on the row itself (token, search, time range) needs the rows counted;
// - without any filter, the page walks (channel, seq) newest first and stops once it is full;
// - filtered by status or kind, each (status, kind) group present in the channel is read newest
//   first on (channel, status, kind, seq), at most offset + limit entries each, and the groups are
//   merged;
// - a search of 3 characters or more reads its channel's matches from the trigram index
//   (session-search.ts); a shorter one tests the channel's rows, and is refused past its bound.
// Rows are read whole for the page only. Where SQLite marks a stale rendering by a leading NUL,
// PostgreSQL (whose text holds no NUL) answers two columns: the rendering when current, else the
// document.
import type { SessionListFilter } from '../../domain/listing.js';
import { MAX_SHORT_SEARCH_ROWS, sessionSearchRefusals, trigramSearchable } from '../../domain/search-bounds.js';
import type { Session } from '../../domain/types.js';
import { hasDefaultListFlags, LIST_VIEW_VERSION, type ListFlags, listItemOf } from '../../domain/views.js';
import { readSession } from '../session-columns.js';
import { renderListView } from '../session-projection.js';
import { containing } from './like-pattern.js';
import { named } from './named-sql.js';
import type { PgQueries } from './queries.js';
import { sessionSearch } from './session-search.js';

/** What a page reads of each row: its document, or its stored list item (the document when the item is stale). */
type Selected = 'document' | 'view';
const COLUMNS: Record<Selected, string> = {
  document: 'document AS document',
  view:
    `CASE WHEN list_view_version = ${LIST_VIEW_VERSION} THEN list_view END AS view, ` +
    `CASE WHEN list_view_version = ${LIST_VIEW_VERSION} THEN NULL ELSE document END AS document`,
};
interface PageRow extends Record<string, unknown> {
  view?: string | null;
  document: string | null;
}

interface ListSql {
  /** Conditions on status and kind: the only ones the per-channel counts can answer. */
  groups: string[];
  /** Conditions on the row itself (token, search, time ranges). */
  rows: string[];
  params: Record<string, unknown>;
}

/** The search, lower-cased, when the trigram index can answer it. */
function trigramNeedle(filter: SessionListFilter): string | undefined {
  const needle = filter.search?.toLowerCase();
  return needle !== undefined && trigramSearchable(needle) ? needle : undefined;
}

/** The WHERE conditions of a list and their named parameters; a trigram search is not among them. */
function conditionsOf(channel: string, filter: SessionListFilter): ListSql {
  const sql: ListSql = { groups: ['channel = @channel'], rows: [], params: { channel } };
  const add = (list: 'groups' | 'rows', condition: string, name: string, value: unknown) => {
    sql[list].push(condition);
    sql.params[name] = value;
  };
  if (filter.excludeStatuses.length > 0)
    add('groups', 'NOT (status = ANY (@excluded::text[]))', 'excluded', filter.excludeStatuses);
  if (filter.statuses) add('groups', 'status = ANY (@statuses::text[])', 'statuses', filter.statuses);
  if (filter.kinds) add('groups', 'kind = ANY (@kinds::text[])', 'kinds', filter.kinds);
  if (filter.paymentToken !== undefined) {
    add('rows', 'payment_token = @payment_token', 'payment_token', filter.paymentToken);
  }
  if (filter.search !== undefined && trigramNeedle(filter) === undefined) {
    const needle = filter.search.toLowerCase();
    // Too short for trigrams, or holding a NUL: each of the channel's rows is tested, as SQLite's
    // instr() does. A NUL crosses escaped, as the columns hold it (nul.ts).
    add(
      'rows',
      '(id LIKE @search OR email_search LIKE @search OR name_search LIKE @search OR user_business_id LIKE @search)',
      'search',
      containing(needle),
    );
  }
  // ISO 8601 UTC timestamps of one format order as text, byte by byte (COLLATE "C", SQLite's BINARY).
  for (const [column, range] of [
    ['created_at', filter.created],
    ['captured_at', filter.captured],
  ] as const) {
    if (range?.from !== undefined)
      add('rows', `${column} >= @${column}_from COLLATE "C"`, `${column}_from`, range.from);
    if (range?.to !== undefined) add('rows', `${column} <= @${column}_to COLLATE "C"`, `${column}_to`, range.to);
  }
  return sql;
}

/** The SQL of a page and of the count of a list with conditions. */
function listStatements(sql: ListSql) {
  const where = [...sql.groups, ...sql.rows].join(' AND ');
  return {
    page: (selected: Selected) =>
      `SELECT ${COLUMNS[selected]} FROM payment_sessions WHERE ${where} ORDER BY seq DESC LIMIT @limit OFFSET @offset`,
    count: `SELECT COUNT(*) FROM payment_sessions WHERE ${where}`,
  };
}

interface Group extends Record<string, unknown> {
  status: string;
  kind: string;
  n: number;
}

/** Reads each group's newest `window` entries and merges them, newest first; then only the page's rows. */
function mergedPageSql(groups: number, selected: Selected): string {
  const arms = Array.from(
    { length: groups },
    (_, i) =>
      `(SELECT seq FROM payment_sessions WHERE channel = @channel AND status = @status${i} AND kind = @kind${i}
        ORDER BY seq DESC LIMIT @window)`,
  );
  return `SELECT ${COLUMNS[selected]} FROM (SELECT seq AS s FROM (${arms.join(' UNION ALL ')}) AS arms
      ORDER BY seq DESC LIMIT @limit OFFSET @offset) AS page
    JOIN payment_sessions ON payment_sessions.seq = page.s ORDER BY page.s DESC`;
}

type Window = { offset: number; limit: number };
interface Page {
  count: number;
  rows: (selected: Selected) => Promise<PageRow[]>;
}

export function sessionListQueries(q: PgQueries) {
  const search = sessionSearch(q);
  const rowsOf = (sql: string, params: Record<string, unknown>) => q.all<PageRow>(...named(sql, params));

  async function inGroups(channel: string, filter: SessionListFilter): Promise<Group[]> {
    const groups = await q.all<Group>('SELECT status, kind, n FROM session_counts WHERE channel = $1 AND n > 0', [
      channel,
    ]);
    return groups.filter(
      (g) =>
        !filter.excludeStatuses.includes(g.status as never) &&
        (filter.statuses === undefined || filter.statuses.includes(g.status as never)) &&
        (filter.kinds === undefined || filter.kinds.includes(g.kind as never)),
    );
  }

  /** A search of 3 characters or more: the channel's matches, the other filters tested on those alone. */
  async function searchedPage(channel: string, needle: string, filter: SessionListFilter, page: Window): Promise<Page> {
    const sql = conditionsOf(channel, filter);
    let { seqs } = await search.matches(channel, needle, filter.search!);
    if (sql.groups.length + sql.rows.length > 1 && seqs.length > 0) {
      const [text, values] = named(
        `SELECT seq FROM payment_sessions WHERE ${[...sql.groups, ...sql.rows].join(' AND ')}
          AND seq = ANY (@seqs::bigint[]) ORDER BY seq DESC`,
        { ...sql.params, seqs },
      );
      seqs = await q.column<number>(text, values);
    }
    const onPage = seqs.slice(page.offset, page.offset + page.limit);
    const rows = async (selected: Selected) =>
      onPage.length === 0
        ? []
        : rowsOf(
            `SELECT ${COLUMNS[selected]} FROM payment_sessions
              WHERE channel = @channel AND seq = ANY (@seqs::bigint[]) ORDER BY seq DESC`,
            { channel, seqs: onPage },
          );
    return { rows, count: seqs.length };
  }

  /** One page: the count of all that match, and a read of its rows (each the selected columns). */
  async function pageOf(channel: string, filter: SessionListFilter, page: Window): Promise<Page> {
    const needle = trigramNeedle(filter);
    if (needle !== undefined) return searchedPage(channel, needle, filter, page);
    // Any other search tests the channel's sessions of the asked statuses and kinds one by one.
    if (
      filter.search !== undefined &&
      (await inGroups(channel, filter)).reduce((sum, g) => sum + g.n, 0) > MAX_SHORT_SEARCH_ROWS
    ) {
      throw sessionSearchRefusals.tooShort({ parameter: 'search', value: filter.search });
    }
    const sql = conditionsOf(channel, filter);
    let count: number;
    let rows: (selected: Selected) => Promise<PageRow[]>;
    if (sql.rows.length === 0) {
      const groups = await inGroups(channel, filter);
      count = groups.reduce((sum, g) => sum + g.n, 0);
      if (sql.groups.length === 1) {
        rows = (selected) => rowsOf(listStatements(sql).page(selected), { ...sql.params, ...page });
      } else {
        const params: Record<string, unknown> = { channel, ...page, window: page.offset + page.limit };
        for (const [i, g] of groups.entries())
          Object.assign(params, { [`status${i}`]: g.status, [`kind${i}`]: g.kind });
        rows = (selected) => rowsOf(mergedPageSql(groups.length, selected), params);
      }
    } else {
      const statements = listStatements(sql);
      count = (await q.value<number>(...named(statements.count, sql.params))) ?? 0;
      rows = (selected) => rowsOf(statements.page(selected), { ...sql.params, ...page });
    }
    return { rows: async (selected) => (page.offset >= count ? [] : rows(selected)), count };
  }

  return {
    async list(
      channel: string,
      filter: SessionListFilter,
      page: Window,
    ): Promise<{ sessions: Session[]; count: number }> {
      const { rows, count } = await pageOf(channel, filter, page);
      return { sessions: (await rows('document')).map((row) => readSession(row.document!)), count };
    },
    /** The page's default list items as JSON texts; a row written before its rendering is rendered now. */
    async listViews(
      channel: string,
      filter: SessionListFilter,
      page: Window,
    ): Promise<{ views: string[]; count: number }> {
      const { rows, count } = await pageOf(channel, filter, page);
      return { views: (await rows('view')).map(viewOf), count };
    },
    /**
     * The page's list items as JSON texts, with what `flags` add, each rendered only when it is asked
     * for. The page's rows are read before the answer (a driver's read is not lazy), and no more of
     * them than the page.
     */
    async listItems(
      channel: string,
      filter: SessionListFilter,
      page: Window,
      flags: ListFlags,
    ): Promise<{ items: Iterable<string>; count: number }> {
      const { rows, count } = await pageOf(channel, filter, page);
      const items = hasDefaultListFlags(flags)
        ? lazily(await rows('view'), viewOf)
        : lazily(await rows('document'), (row) => JSON.stringify(listItemOf(readSession(row.document!), flags)));
      return { items, count };
    },
  };
}

/** A stored default item, or one rendered now from the document of a row written before its rendering. */
const viewOf = (row: PageRow): string => row.view ?? renderListView(readSession(row.document!));

/** Each of the rows rendered as it is asked for. */
function* lazily(rows: PageRow[], render: (row: PageRow) => string): Generator<string> {
  for (const row of rows) yield render(row);
}
