// Lists of payment sessions, filtered, ordered, counted and paged in SQL, so that a page costs
// the page and not the table:
// - the count comes from per-channel counts by status and kind (kept by triggers), unless a filter
//   on the row itself (token, search, time range) needs the rows counted;
// - without any filter, the page walks (channel, seq) newest first and stops once it is full;
// - filtered by status or kind, each (status, kind) group present in the channel is read newest
//   first on (channel, status, kind, seq), at most offset + limit entries each, and the groups are
//   merged: at most 16 short index reads, whatever the table holds;
// - a search of 3 characters or more reads its matches from a trigram index (session_search);
// - only the page's rows are then read and parsed.
import type { SessionListFilter } from '../domain/listing.js';
import type { Session } from '../domain/types.js';
import type { Db } from './database.js';
import { LIST_VIEW_VERSION } from '../domain/views.js';
import { statementCache } from './statement-cache.js';
import { readSession, renderListView } from './session-columns.js';

/** What a page reads of each row: its document, or its stored list item (a document marked NUL when the item is stale). */
type Selected = 'document' | 'view';
const COLUMN: Record<Selected, string> = {
  document: 'document',
  view: `CASE WHEN list_view_version = ${LIST_VIEW_VERSION} THEN list_view ELSE char(0) || document END`,
};

/** The shortest search the trigram index answers. */
const TRIGRAM = 3;

interface ListSql {
  /** Conditions on status and kind: the only ones the per-channel counts can answer. */
  groups: string[];
  /** Conditions on the row itself (token, search, time ranges). */
  rows: string[];
  params: Record<string, unknown>;
}

/** The WHERE conditions of a list and their named parameters. */
function conditionsOf(channel: string, filter: SessionListFilter): ListSql {
  const sql: ListSql = { groups: ['channel = @channel'], rows: [], params: { channel } };
  const add = (list: 'groups' | 'rows', condition: string, name: string, value: unknown) => {
    sql[list].push(condition);
    sql.params[name] = value;
  };
  if (filter.excludeStatuses.length > 0) add('groups', 'status NOT IN (SELECT value FROM json_each(@excluded))', 'excluded', JSON.stringify(filter.excludeStatuses));
  if (filter.statuses) add('groups', 'status IN (SELECT value FROM json_each(@statuses))', 'statuses', JSON.stringify(filter.statuses));
  if (filter.kinds) add('groups', 'kind IN (SELECT value FROM json_each(@kinds))', 'kinds', JSON.stringify(filter.kinds));
  if (filter.paymentToken !== undefined) add('rows', 'payment_token = @payment_token', 'payment_token', filter.paymentToken);
  if (filter.search !== undefined) {
    const needle = filter.search.toLowerCase();
    // A NUL would end the FTS5 query string early: such a needle takes the index walk instead.
    if ([...needle].length >= TRIGRAM && !needle.includes('\u0000')) {
      // The trigram index finds every indexed row holding the needle (a quoted FTS5 string is
      // matched as a substring); rows still queued for the index are tested one by one. The queue
      // is short: the maintenance timer drains it ten times a second.
      add('rows', `(rowid IN (SELECT rowid FROM session_search WHERE session_search MATCH @search)
        OR (rowid IN (SELECT session_rowid FROM session_search_pending)
          AND (instr(id, @needle) > 0 OR instr(email_search, @needle) > 0 OR instr(name_search, @needle) > 0)))`, 'search', `"${needle.replace(/"/g, '""')}"`);
      sql.params.needle = needle;
    } else {
      // Too short for trigrams: read the (channel, seq, …, email, name, id) index, never the rows.
      add('rows', '(instr(id, @search) > 0 OR instr(email_search, @search) > 0 OR instr(name_search, @search) > 0)', 'search', needle);
    }
  }
  // ISO 8601 UTC timestamps of one format order as text, so ranges compare in SQL.
  for (const [column, range] of [['created_at', filter.created], ['captured_at', filter.captured]] as const) {
    if (range?.from !== undefined) add('rows', `${column} >= @${column}_from`, `${column}_from`, range.from);
    if (range?.to !== undefined) add('rows', `${column} <= @${column}_to`, `${column}_to`, range.to);
  }
  return sql;
}

/**
 * The SQL of a list with conditions on the rows. The page is chosen on an index alone, then only
 * its rows are read. Without a token or a time range (which have narrower indexes of their own),
 * the page walks (channel, seq, status, kind, …) newest first and stops once it is full.
 */
function listStatements(sql: ListSql, selected: Selected = 'document') {
  const where = [...sql.groups, ...sql.rows].join(' AND ');
  const searched = sql.rows.some((condition) => condition.includes('session_search'));
  const narrowed = 'payment_token' in sql.params || Object.keys(sql.params).some((name) => /_at_(from|to)$/.test(name));
  // A trigram search starts from its matches (rowid lookups); left to itself, SQLite would walk the
  // channel's index to avoid sorting, and test every row against the matches.
  const source = searched
    ? 'payment_sessions NOT INDEXED'
    : narrowed ? 'payment_sessions' : 'payment_sessions INDEXED BY payment_sessions_channel_seq';
  return {
    page: `SELECT ${COLUMN[selected]} FROM payment_sessions WHERE rowid IN
      (SELECT rowid FROM ${source} WHERE ${where} ORDER BY seq DESC LIMIT @limit OFFSET @offset) ORDER BY seq DESC`,
    count: `SELECT COUNT(*) FROM ${source} WHERE ${where}`,
  };
}

interface Group {
  status: string;
  kind: string;
  n: number;
}

/** Reads each group's newest `window` entries and merges them, newest first. */
function mergedPageSql(groups: number, selected: Selected = 'document'): string {
  const arms = Array.from({ length: groups }, (_, i) =>
    `SELECT r, seq FROM (SELECT rowid AS r, seq FROM payment_sessions INDEXED BY payment_sessions_channel_status_kind
      WHERE channel = @channel AND status = @status${i} AND kind = @kind${i} ORDER BY seq DESC LIMIT @window)`);
  return `SELECT ${COLUMN[selected]} FROM payment_sessions WHERE rowid IN
    (SELECT r FROM (${arms.join(' UNION ALL ')}) ORDER BY seq DESC LIMIT @limit OFFSET @offset) ORDER BY seq DESC`;
}

export function sessionListQueries(db: Db) {
  const groupsOf = db.prepare('SELECT status, kind, n FROM session_counts WHERE channel = ? AND n > 0');
  const cached = statementCache(db);
  // Every statement here answers one column (a count, or a document).
  const prepared = (sql: string) => cached(sql).pluck();

  function inGroups(channel: string, filter: SessionListFilter): Group[] {
    return (groupsOf.all(channel) as Group[]).filter((g) =>
      !filter.excludeStatuses.includes(g.status as never) &&
      (filter.statuses === undefined || filter.statuses.includes(g.status as never)) &&
      (filter.kinds === undefined || filter.kinds.includes(g.kind as never)));
  }

  /** One page of rows (each the selected column) and the count of all that match. */
  function pageOf(channel: string, filter: SessionListFilter, page: { offset: number; limit: number }, selected: Selected): { rows: string[]; count: number } {
    const sql = conditionsOf(channel, filter);
    let count: number;
    let rows: () => string[];
    if (sql.rows.length === 0) {
      const groups = inGroups(channel, filter);
      count = groups.reduce((sum, g) => sum + g.n, 0);
      if (sql.groups.length === 1) {
        rows = () => prepared(listStatements(sql, selected).page).all({ ...sql.params, ...page }) as string[];
      } else {
        const params: Record<string, unknown> = { channel, ...page, window: page.offset + page.limit };
        groups.forEach((g, i) => Object.assign(params, { [`status${i}`]: g.status, [`kind${i}`]: g.kind }));
        rows = () => prepared(mergedPageSql(groups.length, selected)).all(params) as string[];
      }
    } else {
      const statements = listStatements(sql, selected);
      count = prepared(statements.count).get(sql.params) as number;
      rows = () => prepared(statements.page).all({ ...sql.params, ...page }) as string[];
    }
    return { rows: page.offset >= count ? [] : rows(), count };
  }

  return {
    list(channel: string, filter: SessionListFilter, page: { offset: number; limit: number }): { sessions: Session[]; count: number } {
      const { rows, count } = pageOf(channel, filter, page, 'document');
      return { sessions: rows.map(readSession), count };
    },
    /** The page's default list items as JSON texts; a row written before its rendering is rendered now. */
    listViews(channel: string, filter: SessionListFilter, page: { offset: number; limit: number }): { views: string[]; count: number } {
      const { rows, count } = pageOf(channel, filter, page, 'view');
      return { views: rows.map((row) => (row.startsWith('\u0000') ? renderListView(readSession(row.slice(1))) : row)), count };
    },
  };
}
