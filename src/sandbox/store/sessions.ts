// Payment sessions, stored as JSON documents beside the columns that are looked up, filtered and
// ordered on. Lists are filtered, ordered, counted and paged in SQL; only the page is parsed.
import type { SessionListFilter } from '../domain/listing.js';
import type { Session } from '../domain/types.js';
import type { Db } from './database.js';
import { sessionColumns } from './session-columns.js';

type Statement = ReturnType<Db['prepare']>;

/** The WHERE clause of a list and its named parameters; each filter adds one indexed condition. */
function whereOf(channel: string, filter: SessionListFilter): { sql: string; params: Record<string, unknown> } {
  const conditions = ['channel = @channel'];
  const params: Record<string, unknown> = { channel };
  if (filter.excludeStatuses.length > 0) {
    conditions.push('status NOT IN (SELECT value FROM json_each(@excluded))');
    params.excluded = JSON.stringify(filter.excludeStatuses);
  }
  if (filter.statuses) {
    conditions.push('status IN (SELECT value FROM json_each(@statuses))');
    params.statuses = JSON.stringify(filter.statuses);
  }
  if (filter.kinds) {
    conditions.push('kind IN (SELECT value FROM json_each(@kinds))');
    params.kinds = JSON.stringify(filter.kinds);
  }
  if (filter.paymentToken !== undefined) {
    conditions.push('payment_token = @payment_token');
    params.payment_token = filter.paymentToken;
  }
  if (filter.search !== undefined) {
    conditions.push('(instr(id, @search) > 0 OR instr(email_search, @search) > 0 OR instr(name_search, @search) > 0)');
    params.search = filter.search.toLowerCase();
  }
  // ISO 8601 UTC timestamps of one format order as text, so ranges compare in SQL.
  for (const [column, range] of [['created_at', filter.created], ['captured_at', filter.captured]] as const) {
    if (range?.from !== undefined) {
      conditions.push(`${column} >= @${column}_from`);
      params[`${column}_from`] = range.from;
    }
    if (range?.to !== undefined) {
      conditions.push(`${column} <= @${column}_to`);
      params[`${column}_to`] = range.to;
    }
  }
  return { sql: conditions.join(' AND '), params };
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

  // One statement per combination of filters (a bounded set), prepared once.
  const statements = new Map<string, { page: Statement; count: Statement }>();
  const statementsFor = (where: string) => {
    let found = statements.get(where);
    if (!found) {
      found = {
        // The page is chosen on the indexes alone; only its rows' documents are then read.
        page: db.prepare(`SELECT document FROM payment_sessions WHERE rowid IN
          (SELECT rowid FROM payment_sessions WHERE ${where} ORDER BY seq DESC LIMIT @limit OFFSET @offset) ORDER BY seq DESC`).pluck(),
        count: db.prepare(`SELECT COUNT(*) FROM payment_sessions WHERE ${where}`).pluck(),
      };
      statements.set(where, found);
    }
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
      const { sql, params } = whereOf(channel, filter);
      const { page: pageOf, count } = statementsFor(sql);
      const total = count.get(params) as number;
      const documents = page.offset >= total ? [] : (pageOf.all({ ...params, ...page }) as string[]);
      return { sessions: documents.map((d) => JSON.parse(d) as Session), count: total };
    },
  };
}
