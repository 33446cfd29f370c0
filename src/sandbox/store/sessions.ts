// Payment sessions, stored as JSON documents beside the columns that are looked up, filtered and
// ordered on (session-columns.ts) and their projection into retrieve's and list's answers
// (session-projection.ts); lists are queried in session-list.ts.
import type { Session } from '../domain/types.js';
import { answerCache } from './answer-cache.js';
import type { Db } from './database.js';
import type { FactCache } from './fact-cache.js';
import { DETAIL_VIEW_VERSION } from '../domain/views.js';
import { readSession, sessionColumns } from './session-columns.js';
import { renderDetailView } from './session-projection.js';
import { searchIndexRepository } from './search-index.js';
import { sessionListQueries } from './session-list.js';

export function sessionsRepository(db: Db, facts: FactCache) {
  const insert = db.prepare(`INSERT INTO payment_sessions
      (seq, id, channel, created_at, idempotency_key, kind, status, captured_at, email_search, name_search,
        user_business_id, payment_token, document, list_view, list_view_version, detail_view, detail_view_version)
    VALUES ((SELECT IFNULL(MAX(seq), 0) + 1 FROM payment_sessions),
      @id, @channel, @created_at, @idempotency_key, @kind, @status, @captured_at, @email_search, @name_search,
        @user_business_id, @payment_token, @document,
      @list_view, @list_view_version, @detail_view, @detail_view_version)`);
  const update = db.prepare(`UPDATE payment_sessions SET kind = @kind, status = @status, captured_at = @captured_at,
      email_search = @email_search, name_search = @name_search, user_business_id = @user_business_id,
        payment_token = @payment_token, document = @document,
      list_view = @list_view, list_view_version = @list_view_version, detail_view = @detail_view,
        detail_view_version = @detail_view_version
    WHERE id = @id AND channel = @channel`);
  const byId = db.prepare('SELECT document FROM payment_sessions WHERE channel = ? AND id = ?').pluck();
  // The stored rendering, or (marked by a leading NUL) the document when the rendering is stale.
  const detailById = db
    .prepare(
      `SELECT CASE WHEN detail_view_version = ${DETAIL_VIEW_VERSION} THEN detail_view ELSE char(0) || ` +
        `document END
    FROM payment_sessions WHERE channel = ? AND id = ?`,
    )
    .pluck();
  const byKey = db.prepare('SELECT document FROM payment_sessions WHERE channel = ? AND idempotency_key = ?').pluck();
  const anywhere = db.prepare('SELECT document FROM payment_sessions WHERE id = ?').pluck();
  const parse = (document: unknown) => (document === undefined ? undefined : readSession(document as string));

  const listed = sessionListQueries(db);
  // What reads of the channel's sessions answered, kept until one of its sessions changes.
  const answers = answerCache(facts);
  const searchIndex = searchIndexRepository(db);

  return {
    insert(session: Session): void {
      const { document, ...columns } = sessionColumns(session);
      insert.run({ ...columns, document });
      answers.dropChannel(session.channel);
    },
    update(session: Session): void {
      const { created_at: _created, idempotency_key: _key, ...columns } = sessionColumns(session);
      update.run(columns);
      answers.dropChannel(session.channel);
    },
    /** A session of this channel; another channel's is not found. */
    get(channel: string, id: string): Session | undefined {
      return parse(byId.get(channel, id));
    },
    /** Any channel's session: only for the customer's hosted pages, which carry no API key. */
    getForCustomer(id: string): Session | undefined {
      return parse(anywhere.get(id));
    },
    /**
     * A session of this channel as retrieve answers it, as a JSON text: its stored rendering, or rendered now when
     * stale.
     */
    detailView(channel: string, id: string): string | undefined {
      const key = `detail ${id}`;
      const kept = answers.get(channel, key);
      if (kept !== undefined) return kept;
      const text = detailById.get(channel, id) as string | undefined;
      if (text === undefined) return undefined;
      const detail = text.startsWith('\u0000') ? renderDetailView(readSession(text.slice(1))) : text;
      answers.set(channel, key, detail);
      return detail;
    },
    /**
     * The answer of a read of the channel's sessions (a list page), kept as text until one of the
     * channel's sessions changes; `key` names everything the answer depends on besides them.
     */
    answer: (channel: string, key: string, compute: () => string): string => answers.answer(channel, key, compute),
    findByIdempotencyKey(channel: string, key: string): Session | undefined {
      return parse(byKey.get(channel, key));
    },
    /** One page of the channel's sessions matching the filter, newest first, and how many match in all. */
    list: listed.list,
    /**
     * The same page as default list items, as JSON texts: stored renderings, or rendered from the document when stale.
     */
    listViews: listed.listViews,
    /** The same page as list items with the query's flags, as JSON texts each read and rendered when asked for. */
    listItems: listed.listItems,
    /** Indexes up to `limit` of the sessions queued for the trigram index (the maintenance timer calls it). */
    indexPendingSearches: (limit?: number) => searchIndex.catchUp(limit),
  };
}
