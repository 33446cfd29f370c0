// Payment sessions, stored as JSON documents beside the columns that are looked up, filtered and
// ordered on: the twin of ../sessions.ts, with the same columns (../session-columns.ts) and the same
// renderings (../session-projection.ts), reused rather than copied. Lists are in session-list.ts.
//
// What this relies on when several processes write at once: the store's write transactions hold one
// advisory lock (pg_advisory_xact_lock), so writes are serialized as SQLite's are. Under it:
// - seq, the table's identity (schema.ts), is drawn in the order the writes commit, so the lists'
//   newest-first order is SQLite's, whose MAX(seq) + 1 counts the same way. The numbers themselves
//   may differ after a rollback (a sequence does not give a number back) or a reset; no answer
//   shows them;
// - an idempotency key looked up and then inserted in one transaction has one effect; the unique
//   index on (channel, idempotency_key) is the backstop, failing a write that would break it.
import { DETAIL_VIEW_VERSION } from '../../domain/views.js';
import type { Session } from '../../domain/types.js';
import { readSession, sessionColumns } from '../session-columns.js';
import { renderDetailView } from '../session-projection.js';
import { named } from './named-sql.js';
import type { PgQueries } from './queries.js';
import { sessionListQueries } from './session-list.js';

const INSERT = `INSERT INTO payment_sessions
    (id, channel, created_at, idempotency_key, kind, status, captured_at, email_search, name_search,
      user_business_id, payment_token, document, list_view, list_view_version, detail_view, detail_view_version)
  VALUES (@id, @channel, @created_at, @idempotency_key, @kind, @status, @captured_at, @email_search, @name_search,
      @user_business_id, @payment_token, @document,
    @list_view, @list_view_version, @detail_view, @detail_view_version)`;
const UPDATE = `UPDATE payment_sessions SET kind = @kind, status = @status, captured_at = @captured_at,
    email_search = @email_search, name_search = @name_search, user_business_id = @user_business_id,
      payment_token = @payment_token, document = @document,
    list_view = @list_view, list_view_version = @list_view_version, detail_view = @detail_view,
      detail_view_version = @detail_view_version
  WHERE id = @id AND channel = @channel`;
// The stored rendering when current, else the document to render it from (text holds no NUL to mark it).
const DETAIL = `SELECT CASE WHEN detail_view_version = ${DETAIL_VIEW_VERSION} THEN detail_view END AS detail,
    CASE WHEN detail_view_version = ${DETAIL_VIEW_VERSION} THEN NULL ELSE document END AS document
  FROM payment_sessions WHERE channel = $1 AND id = $2`;

/**
 * What the repository needs of the cache of answers of reads of sessions: the store's (answer-cache.ts),
 * whose rule (fact-cache.ts) decides when an answer may be served and kept, so that none is ever
 * stale, in this process or another.
 */
export interface SessionAnswerCache {
  /** The channel's answer under `key`: kept, or computed (and kept when the rule allows); none is not kept. */
  answer(channel: string, key: string, compute: () => Promise<string | undefined>): Promise<string | undefined>;
  /** Drops the channel's answers: one of its sessions changed. */
  dropChannel(channel: string): void;
}

/** `answers`: the store's cache of answers (pgAnswerCache of answer-cache.ts). */
export function sessionsRepository(q: PgQueries, answers: SessionAnswerCache) {
  const parse = (document: string | undefined) => (document === undefined ? undefined : readSession(document));
  const documentOf = async (sql: string, keys: string[]) => parse(await q.value<string>(sql, keys));
  const listed = sessionListQueries(q);

  return {
    async insert(session: Session): Promise<void> {
      await q.run(...named(INSERT, { ...sessionColumns(session) }));
      answers.dropChannel(session.channel);
    },
    async update(session: Session): Promise<void> {
      const { created_at: _created, idempotency_key: _key, ...columns } = sessionColumns(session);
      await q.run(...named(UPDATE, columns));
      answers.dropChannel(session.channel);
    },
    /** A session of this channel; another channel's is not found. */
    get: (channel: string, id: string): Promise<Session | undefined> =>
      documentOf('SELECT document FROM payment_sessions WHERE channel = $1 AND id = $2', [channel, id]),
    /** Any channel's session: only for the customer's hosted pages, which carry no API key. */
    getForCustomer: (id: string): Promise<Session | undefined> =>
      documentOf('SELECT document FROM payment_sessions WHERE id = $1', [id]),
    /**
     * A session of this channel as retrieve answers it, as a JSON text: its stored rendering, or
     * rendered now when stale. Kept as the channel's other answers are.
     */
    detailView: (channel: string, id: string): Promise<string | undefined> =>
      answers.answer(channel, `detail ${id}`, async () => {
        const row = await q.one<{ detail: string | null; document: string | null }>(DETAIL, [channel, id]);
        return row === undefined ? undefined : (row.detail ?? renderDetailView(readSession(row.document!)));
      }),
    /**
     * The answer of a read of the channel's sessions (a list page), kept as text until one of the
     * channel's sessions changes; `key` names everything the answer depends on besides them.
     */
    answer: async (channel: string, key: string, compute: () => string | Promise<string>): Promise<string> =>
      (await answers.answer(channel, key, async () => compute()))!,
    findByIdempotencyKey: (channel: string, key: string): Promise<Session | undefined> =>
      documentOf('SELECT document FROM payment_sessions WHERE channel = $1 AND idempotency_key = $2', [channel, key]),
    /** One page of the channel's sessions matching the filter, newest first, and how many match in all. */
    list: listed.list,
    /** The same page as default list items, as JSON texts: stored renderings, or rendered when stale. */
    listViews: listed.listViews,
    /** The same page as list items with the query's flags, as JSON texts each rendered when asked for. */
    listItems: listed.listItems,
    /**
     * Nothing to index: pg_trgm's index is written in each session's own write (session-search.ts).
     * Kept so that the maintenance timer calls both stores alike.
     */
    indexPendingSearches: async (_limit?: number): Promise<void> => {},
  };
}
