// Which session a dispute belongs to, so that a dispute id finds its session's document.
import type { Db } from './database.js';

export function disputesRepository(db: Db) {
  const insert = db.prepare('INSERT INTO disputes (dispute_id, channel, session_id) VALUES (?, ?, ?)');
  const sessionOf = db.prepare('SELECT session_id FROM disputes WHERE channel = ? AND dispute_id = ?').pluck();
  return {
    register(channel: string, disputeId: string, sessionId: string): void {
      insert.run(disputeId, channel, sessionId);
    },
    sessionOf(channel: string, disputeId: string): string | undefined {
      return sessionOf.get(channel, disputeId) as string | undefined;
    },
  };
}
