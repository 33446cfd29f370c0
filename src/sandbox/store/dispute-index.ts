// Which session a dispute belongs to, so that a dispute id finds its session's document, and the
// channel's disputes newest first, by cursor, for the /v1/disputes listing.
import type { Db } from './database.js';

export function disputesRepository(db: Db) {
  const insert = db.prepare(
    'INSERT INTO disputes (dispute_id, channel, session_id, seq) VALUES (?, ?, ?, (SELECT IFNULL(MAX(seq), 0) + 1 ' +
      'FROM disputes))',
  );
  const sessionOf = db.prepare('SELECT session_id FROM disputes WHERE channel = ? AND dispute_id = ?').pluck();
  // One row more than the page, to tell whether another page follows.
  const page = db.prepare(
    'SELECT dispute_id, session_id, seq FROM disputes WHERE channel = @channel AND seq < @before ORDER BY seq ' +
      'DESC LIMIT @limit + 1',
  );
  return {
    register(channel: string, disputeId: string, sessionId: string): void {
      insert.run(disputeId, channel, sessionId);
    },
    sessionOf(channel: string, disputeId: string): string | undefined {
      return sessionOf.get(channel, disputeId) as string | undefined;
    },
    /** A page of the channel's disputes, newest first, before a cursor (a sequence number). */
    page(
      channel: string,
      before: number,
      limit: number,
    ): { rows: Array<{ dispute_id: string; session_id: string; seq: number }>; hasMore: boolean } {
      const rows = page.all({ channel, before, limit }) as Array<{
        dispute_id: string;
        session_id: string;
        seq: number;
      }>;
      return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
    },
  };
}
