// The trigram index of sessions (session_search) is written in batches: a session's write only
// queues it (session_search_pending), and catchUp indexes the queue. The maintenance timer catches
// up ten times a second; a search also tests its channel's rows still queued (session-search.ts),
// so that it never misses a session however recent, and a read never writes.
//
// Each channel's sessions form one range of rowids, newest last (search-channels.ts), so that the
// index answers one channel's matches without reading another's.
import type { Db } from './database.js';
import { SEQ_BITS } from './search-channels.js';

export function searchIndexRepository(db: Db) {
  const anyPending = db.prepare('SELECT 1 FROM session_search_pending LIMIT 1').pluck();
  // The oldest queued sessions first, at most @limit of them: the timer indexes in small steps, so
  // that no request waits long behind it. CROSS JOIN keeps the queue outermost: each queued
  // session is looked up, rather than every session tested against the queue.
  const index = db.prepare(`INSERT INTO session_search (rowid, id, email, name, user)
    SELECT (c.number << ${SEQ_BITS}) + s.seq, s.id, IFNULL(s.email_search, ''), IFNULL(s.name_search, ''),
      IFNULL(s.user_business_id, '')
    FROM (SELECT seq FROM session_search_pending ORDER BY seq LIMIT @limit) p
    CROSS JOIN payment_sessions s INDEXED BY payment_sessions_seq
    CROSS JOIN search_channels c
    WHERE s.seq = p.seq AND c.channel = s.channel`);
  const clear = db.prepare(
    'DELETE FROM session_search_pending WHERE seq IN (SELECT seq FROM session_search_pending ORDER BY seq LIMIT ' +
      '@limit)',
  );
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
