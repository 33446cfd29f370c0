// Payment sessions, stored as JSON documents beside the columns that are looked up, filtered and
// ordered on. Lists are filtered, ordered, counted and paged in SQL; only the page is parsed.
import type { SessionListFilter } from '../domain/listing.js';
import type { Session } from '../domain/types.js';
import type { Db } from './database.js';
import { sessionColumns } from './session-columns.js';

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
    add('rows', '(instr(id, @search) > 0 OR instr(email_search, @search) > 0 OR instr(name_search, @search) > 0)', 'search', filter.search.toLowerCase());
  }
  // ISO 8601 UTC timestamps of one format order as text, so ranges compare in SQL.
  for (const [column, range] of [['created_at', filter.created], ['captured_at', filter.captured]] as const) {
    if (range?.from !== undefined) add('rows', `${column} >= @${column}_from`, `${column}_from`, range.from);
    if (range?.to !== undefined) add('rows', `${column} <= @${column}_to`, `${column}_to`, range.to);
  }
  return sql;
}

/**
 * The statements of one combination of filters. The page is chosen on an index alone, then only
 * its rows are read. Without a token or a time range (which have narrower indexes of their own),
 * the page walks (channel, seq, status, kind, …) newest first and stops once it is full. Without
 * any row condition, the count sums the per-channel counts instead of counting rows.
 */
function listStatements(db: Db, sql: ListSql) {
  const where = [...sql.groups, ...sql.rows].join(' AND ');
  const narrowed = 'payment_token' in sql.params || Object.keys(sql.params).some((name) => /_at_(from|to)$/.test(name));
  const source = narrowed ? 'payment_sessions' : 'payment_sessions INDEXED BY payment_sessions_channel_seq';
  return {
    page: db.prepare(`SELECT document FROM payment_sessions WHERE rowid IN
      (SELECT rowid FROM ${source} WHERE ${where} ORDER BY seq DESC LIMIT @limit OFFSET @offset) ORDER BY seq DESC`).pluck(),
    count: sql.rows.length === 0
      ? db.prepare(`SELECT IFNULL(SUM(n), 0) FROM session_counts WHERE ${sql.groups.join(' AND ')}`).pluck()
      : db.prepare(`SELECT COUNT(*) FROM ${source} WHERE ${where}`).pluck(),
  };
}

export function sessionsRepository(db: Db) {
  const insert = db.prepare(`INSERT INTO payment_sessions
      (seq, id, channel, created_at, idempotency_key, kind, status, captured_at, email_search, name_search, payment_token, document)
    VALUES ((SELECT IFNULL(MAX(seq), 0) + 1 FROM payment_sessions),
      @id, @channel, @created_at, @idempotency_key, @kind, @status, @captured_at, @email_search, @name_search, @payment_token, @document)`);
  const update = db.prepare(`UPDATE payment_sessions SET kind = @kind, status = @status, captured_at = @captured_at,
      email_search = @email_search, name_search = @name_search, payment_token = @payment_token, document = @document
    WHERE id = @id AND channel = @channel`);
  const byId = db.prepare('SELECT document FROM payment_sessions WHERE channel = ? AND id = ?').pluck();
  const byKey = db.prepare('SELECT document FROM payment_sessions WHERE channel = ? AND idempotency_key = ?').pluck();
  const anywhere = db.prepare('SELECT document FROM payment_sessions WHERE id = ?').pluck();
  const parse = (document: unknown) => (document === undefined ? undefined : (JSON.parse(document as string) as Session));

  // One pair of statements per combination of filters (a bounded set), prepared once.
  const statements = new Map<string, ReturnType<typeof listStatements>>();
  const statementsFor = (sql: ListSql) => {
    const key = [...sql.groups, '|', ...sql.rows].join(' AND ');
    let found = statements.get(key);
    if (!found) statements.set(key, (found = listStatements(db, sql)));
    return found;
  };

  return {
    insert(session: Session): void {
      const { document, ...columns } = sessionColumns(session);
      insert.run({ ...columns, document });
    },
    update(session: Session): void {
      const { created_at: _created, idempotency_key: _key, ...columns } = sessionColumns(session);
      update.run(columns);
    },
    /** A session of this channel; another channel's is not found. */
    get(channel: string, id: string): Session | undefined {
      return parse(byId.get(channel, id));
    },
    /** Any channel's session: only for the customer's hosted pages, which carry no API key. */
    getForCustomer(id: string): Session | undefined {
      return parse(anywhere.get(id));
    },
    findByIdempotencyKey(channel: string, key: string): Session | undefined {
      return parse(byKey.get(channel, key));
    },
    /** One page of the channel's sessions matching the filter, newest first, and how many match in all. */
    list(channel: string, filter: SessionListFilter, page: { offset: number; limit: number }): { sessions: Session[]; count: number } {
      const sql = conditionsOf(channel, filter);
      const { params } = sql;
      const { page: pageOf, count } = statementsFor(sql);
      const total = count.get(params) as number;
      const documents = page.offset >= total ? [] : (pageOf.all({ ...params, ...page }) as string[]);
      return { sessions: documents.map((d) => JSON.parse(d) as Session), count: total };
    },
  };
}
