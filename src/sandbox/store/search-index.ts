// The trigram index of sessions (session_search) is written in batches: a session's write only
// queues its rowid (migration 10), and catchUp indexes the queue. The maintenance timer catches
// up ten times a second; a search also tests the rows still queued (session-list.ts), so that it
// never misses a session however recent, and a read never writes.
import type { Db } from './database.js';

export function searchIndexRepository(db: Db) {
  const anyPending = db.prepare('SELECT 1 FROM session_search_pending LIMIT 1').pluck();
  // The oldest queued rowids first, at most @limit of them: the timer indexes in small steps, so
  // that no request waits long behind it.
  const index = db.prepare(`INSERT INTO session_search (rowid, id, email, name)
    SELECT s.rowid, s.id, IFNULL(s.email_search, ''), IFNULL(s.name_search, '')
    FROM (SELECT session_rowid FROM session_search_pending ORDER BY session_rowid LIMIT @limit) p
    JOIN payment_sessions s ON s.rowid = p.session_rowid`);
  const clear = db.prepare('DELETE FROM session_search_pending WHERE session_rowid IN (SELECT session_rowid FROM session_search_pending ORDER BY session_rowid LIMIT @limit)');
  const step = db.transaction((limit: number) => {
    index.run({ limit });
    clear.run({ limit });
  });
  return {
    /** Indexes up to `limit` queued sessions (all of them by default); one read when none is queued. */
    catchUp(limit = -1): void {
      if (anyPending.get() !== undefined) step.immediate(limit);
    },
  };
}
