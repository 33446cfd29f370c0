// Which session a dispute belongs to, and the channel's disputes newest first by cursor, on
// PostgreSQL: the twin of store/dispute-index.ts.
import type { DisputesRepository } from '../store.js';
import type { Async } from './async.js';
import { holdsNul } from './nul.js';
import type { PgQueries } from './queries.js';

type DisputeRow = { dispute_id: string; session_id: string; seq: number };

export function disputesRepository(q: PgQueries): Async<DisputesRepository> {
  return {
    // The next sequence number is read, then written: this relies on the store's write transactions
    // holding its one advisory lock, so that no other process registers a dispute in between (the
    // unique index disputes_seq would refuse the second, rather than number two alike).
    async register(channel: string, disputeId: string, sessionId: string) {
      await q.run(
        `INSERT INTO disputes (dispute_id, channel, session_id, seq)
          VALUES ($1, $2, $3, (SELECT COALESCE(MAX(seq), 0) + 1 FROM disputes))`,
        [disputeId, channel, sessionId],
      );
    },
    // An id with a NUL names no dispute (nul.ts).
    sessionOf: async (channel: string, disputeId: string) =>
      holdsNul(disputeId)
        ? undefined
        : q.value<string>('SELECT session_id FROM disputes WHERE channel = $1 AND dispute_id = $2', [
            channel,
            disputeId,
          ]),
    /** A page of the channel's disputes, newest first, before a cursor (a sequence number). On disputes_channel_seq. */
    async page(channel: string, before: number, limit: number) {
      // One row more than the page, to tell whether another page follows.
      const rows = await q.all<DisputeRow>(
        `SELECT dispute_id, session_id, seq FROM disputes WHERE channel = $1 AND seq < $2
          ORDER BY seq DESC LIMIT $3::integer + 1`,
        [channel, before, limit],
      );
      return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
    },
  };
}
