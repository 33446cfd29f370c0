// Lists of payment sessions, filtered, ordered, counted and paged in SQL, so that a page costs
// the page and not the table:
// - the count comes from per-channel counts by status and kind (kept by triggers), unless a filter
//   on the row itself (token, search, time range) needs the rows counted;
// - without any filter, the page walks (channel, seq) newest first and stops once it is full;
// - filtered by status or kind, each (status, kind) group present in the channel is read newest
//   first on (channel, status, kind, seq), at most offset + limit entries each, and the groups are
//   merged: at most 16 short index reads, whatever the table holds;
// - a search of 3 characters or more reads its channel's matches from the trigram index
//   (session-search.ts), and the other filters test those matches only; a shorter one reads the
//   channel's list index. Either is bounded, and refused past its bound (domain/search-bounds.ts);
// - only the page's rows are then read and parsed, one at a time in the page's order, as each item
//   is asked for (a page refused for its size reads no further).
import type { SessionListFilter } from '../domain/listing.js';
import { MAX_SHORT_SEARCH_ROWS, sessionSearchRefusals, trigramSearchable } from '../domain/search-bounds.js';
import type { Session } from '../domain/types.js';
import type { Db } from './database.js';
import { hasDefaultListFlags, listItemOf, LIST_VIEW_VERSION, type ListFlags } from '../domain/views.js';
import { statementCache } from './statement-cache.js';
import { readSession } from './session-columns.js';
import { renderListView } from './session-projection.js';
import { sessionSearch } from './session-search.js';

/**
 * What a page reads of each row: its document, or its stored list item (a document marked NUL when the item is stale).
 */
type Selected = 'document' | 'view';
const COLUMN: Record<Selected, string> = {
  document: 'document',
  view: `CASE WHEN list_view_version = ${LIST_VIEW_VERSION} THEN list_view ELSE char(0) || document END`,
};

interface ListSql {
  /** Conditions on status and kind: the only ones the per-channel counts can answer. */
  groups: string[];
  /** Conditions on the row itself (token, search, time ranges). */
  rows: string[];
  params: Record<string, unknown>;
}

/** The search, lower-cased, when the trigram index can answer it; a NUL would end the FTS5 query string early. */
function trigramNeedle(filter: SessionListFilter): string | undefined {
  const needle = filter.search?.toLowerCase();
  return needle !== undefined && trigramSearchable(needle) ? needle : undefined;
}

/**
 * The WHERE conditions of a list and their named parameters; a trigram search is not among them (session-search.ts).
 */
function conditionsOf(channel: string, filter: SessionListFilter): ListSql {
  const sql: ListSql = { groups: ['channel = @channel'], rows: [], params: { channel } };
  const add = (list: 'groups' | 'rows', condition: string, name: string, value: unknown) => {
    sql[list].push(condition);
    sql.params[name] = value;
  };
  if (filter.excludeStatuses.length > 0)
    add(
      'groups',
      'status NOT IN (SELECT value FROM json_each(@excluded))',
      'excluded',
      JSON.stringify(filter.excludeStatuses),
    );
  if (filter.statuses)
    add('groups', 'status IN (SELECT value FROM json_each(@statuses))', 'statuses', JSON.stringify(filter.statuses));
  if (filter.kinds)
    add('groups', 'kind IN (SELECT value FROM json_each(@kinds))', 'kinds', JSON.stringify(filter.kinds));
  if (filter.paymentToken !== undefined)
    add('rows', 'payment_token = @payment_token', 'payment_token', filter.paymentToken);
  if (filter.search !== undefined && trigramNeedle(filter) === undefined) {
    // Too short for trigrams: read the (channel, seq, …, email, name, id, user) index, never the rows.
    add(
      'rows',
      '(instr(id, @search) > 0 OR instr(email_search, @search) > 0 OR instr(name_search, @search) > 0 OR ' +
        'instr(user_business_id, @search) > 0)',
      'search',
      filter.search.toLowerCase(),
    );
  }
  // ISO 8601 UTC timestamps of one format order as text, so ranges compare in SQL.
  for (const [column, range] of [
    ['created_at', filter.created],
    ['captured_at', filter.captured],
  ] as const) {
    if (range?.from !== undefined) add('rows', `${column} >= @${column}_from`, `${column}_from`, range.from);
    if (range?.to !== undefined) add('rows', `${column} <= @${column}_to`, `${column}_to`, range.to);
  }
  return sql;
}

/**
 * The SQL of a list with conditions on the rows. The page is chosen on an index alone, then only
 * its rows are read. Without a token or a time range (which have narrower indexes of their own),
 * the page walks (channel, seq, status, kind, …) newest first and stops once it is full. The rows
 * are joined to the page's ordered rowids, so that they come in that order as they are read: an
 * ORDER BY over the rows themselves would sort, reading every row of the page before the first.
 */
function listStatements(sql: ListSql) {
  const where = [...sql.groups, ...sql.rows].join(' AND ');
  const narrowed = 'payment_token' in sql.params || Object.keys(sql.params).some((name) => /_at_(from|to)$/.test(name));
  const source = narrowed ? 'payment_sessions' : 'payment_sessions INDEXED BY payment_sessions_channel_seq';
  return {
    page: (selected: Selected) =>
      `SELECT ${COLUMN[selected]} FROM (SELECT rowid AS r, seq AS s FROM ${source} WHERE ${where} ORDER BY seq ` +
      `DESC LIMIT @limit OFFSET @offset) AS page
      CROSS JOIN payment_sessions ON payment_sessions.rowid = page.r ORDER BY page.s DESC`,
    count: `SELECT COUNT(*) FROM ${source} WHERE ${where}`,
  };
}

interface Group {
  status: string;
  kind: string;
  n: number;
}

/** Reads each group's newest `window` entries and merges them, newest first. */
function mergedPageSql(groups: number, selected: Selected): string {
  const arms = Array.from(
    { length: groups },
    (_, i) =>
      `SELECT r, seq FROM (SELECT rowid AS r, seq FROM payment_sessions INDEXED BY payment_sessions_channel_status_kind
      WHERE channel = @channel AND status = @status${i} AND kind = @kind${i} ORDER BY seq DESC LIMIT @window)`,
  );
  return (
    `SELECT ${COLUMN[selected]} FROM (SELECT r, seq AS s FROM (${arms.join(' UNION ALL ')}) ORDER BY seq ` +
    `DESC LIMIT @limit OFFSET @offset) AS page
    CROSS JOIN payment_sessions ON payment_sessions.rowid = page.r ORDER BY page.s DESC`
  );
}

export function sessionListQueries(db: Db) {
  const groupsOf = db.prepare('SELECT status, kind, n FROM session_counts WHERE channel = ? AND n > 0');
  const cached = statementCache(db);
  // Every statement here answers one column (a count, or a document).
  const prepared = (sql: string) => cached(sql).pluck();

  function inGroups(channel: string, filter: SessionListFilter): Group[] {
    return (groupsOf.all(channel) as Group[]).filter(
      (g) =>
        !filter.excludeStatuses.includes(g.status as never) &&
        (filter.statuses === undefined || filter.statuses.includes(g.status as never)) &&
        (filter.kinds === undefined || filter.kinds.includes(g.kind as never)),
    );
  }

  const search = sessionSearch(db);

  /**
   * A search of 3 characters or more: the channel's matches (at most MAX_SEARCH_MATCHES), the other
   * filters tested on those alone, on the (channel, seq, …) index.
   */
  function searchedPage(channel: string, needle: string, filter: SessionListFilter, page: Window): Page {
    const sql = conditionsOf(channel, filter);
    let { seqs } = search.matches(channel, needle, filter.search!);
    if (sql.groups.length + sql.rows.length > 1) {
      seqs = prepared(`SELECT seq FROM payment_sessions INDEXED BY payment_sessions_channel_seq
        WHERE ${[...sql.groups, ...sql.rows].join(' AND ')} AND seq IN (SELECT value FROM json_each(@seqs))
          ORDER BY seq DESC`).all({ ...sql.params, seqs: JSON.stringify(seqs) }) as number[];
    }
    const onPage = seqs.slice(page.offset, page.offset + page.limit);
    const rows = (selected: Selected) =>
      onPage.length === 0
        ? []
        : prepared(`SELECT ${COLUMN[selected]} FROM payment_sessions
      WHERE channel = @channel AND seq IN (SELECT value FROM json_each(@seqs)) ORDER BY seq DESC`).iterate({
            channel,
            seqs: JSON.stringify(onPage),
          });
    return { rows, count: seqs.length };
  }

  /** One page: the count of all that match, and its rows (each the selected column), read as they are asked for. */
  function pageOf(channel: string, filter: SessionListFilter, page: Window): Page {
    const needle = trigramNeedle(filter);
    if (needle !== undefined) return searchedPage(channel, needle, filter, page);
    // Any other search reads the channel's sessions of the asked statuses and kinds one by one.
    if (
      filter.search !== undefined &&
      inGroups(channel, filter).reduce((sum, g) => sum + g.n, 0) > MAX_SHORT_SEARCH_ROWS
    ) {
      throw sessionSearchRefusals.tooShort({ parameter: 'search', value: filter.search });
    }
    const sql = conditionsOf(channel, filter);
    let count: number;
    let rows: (selected: Selected) => Iterable<unknown>;
    if (sql.rows.length === 0) {
      const groups = inGroups(channel, filter);
      count = groups.reduce((sum, g) => sum + g.n, 0);
      if (sql.groups.length === 1) {
        rows = (selected) => prepared(listStatements(sql).page(selected)).iterate({ ...sql.params, ...page });
      } else {
        const params: Record<string, unknown> = { channel, ...page, window: page.offset + page.limit };
        for (const [i, g] of groups.entries())
          Object.assign(params, { [`status${i}`]: g.status, [`kind${i}`]: g.kind });
        rows = (selected) => prepared(mergedPageSql(groups.length, selected)).iterate(params);
      }
    } else {
      const statements = listStatements(sql);
      count = prepared(statements.count).get(sql.params) as number;
      rows = (selected) => prepared(statements.page(selected)).iterate({ ...sql.params, ...page });
    }
    return { rows: (selected) => (page.offset >= count ? [] : rows(selected)), count };
  }

  return {
    list(channel: string, filter: SessionListFilter, page: Window): { sessions: Session[]; count: number } {
      const { rows, count } = pageOf(channel, filter, page);
      return { sessions: [...rows('document')].map((row) => readSession(row as string)), count };
    },
    /** The page's default list items as JSON texts; a row written before its rendering is rendered now. */
    listViews(channel: string, filter: SessionListFilter, page: Window): { views: string[]; count: number } {
      const { rows, count } = pageOf(channel, filter, page);
      return { views: [...rows('view')].map(viewOf), count };
    },
    /**
     * The page's list items as JSON texts, with what `flags` add, each read and rendered only when
     * it is asked for: a page refused for its size reads no further.
     */
    listItems(
      channel: string,
      filter: SessionListFilter,
      page: Window,
      flags: ListFlags,
    ): { items: Iterable<string>; count: number } {
      const { rows, count } = pageOf(channel, filter, page);
      const items = hasDefaultListFlags(flags)
        ? lazily(() => rows('view'), viewOf)
        : lazily(
            () => rows('document'),
            (row) => JSON.stringify(listItemOf(readSession(row as string), flags)),
          );
      return { items, count };
    },
  };
}

type Window = { offset: number; limit: number };
interface Page {
  count: number;
  rows: (selected: Selected) => Iterable<unknown>;
}

/** A stored default item, or one rendered now from the document of a row written before its rendering. */
const viewOf = (row: unknown) =>
  (row as string).startsWith('\u0000') ? renderListView(readSession((row as string).slice(1))) : (row as string);

/**
 * Each of the rows rendered as it is asked for; the rows are not read until the first is (an open read would hold the
 * connection).
 */
function* lazily(rows: () => Iterable<unknown>, render: (row: unknown) => string): Generator<string> {
  for (const row of rows()) yield render(row);
}
