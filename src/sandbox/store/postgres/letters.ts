// Letters of medical necessity, per customer and channel, oldest first: the twin of ../letters.ts.
// seq is the table's identity: it orders the letters as SQLite's AUTOINCREMENT does (never reused;
// under the store's write lock, in the order the letters were written), and is no part of an answer.
import type { Letter, LetterStatus } from '../../domain/letters.js';
import type { PgQueries } from './queries.js';

interface LetterRow extends Omit<Letter, 'skus'> {
  skus: string;
}

/** A letter's columns but its channel, in the order of SQLite's table (what its `SELECT *` answers). */
const SELECT = 'SELECT seq, customer_key, provision_request_id, status, skus, expires_on, created_at FROM letters';

export function lettersRepository(q: PgQueries) {
  const read = (row: LetterRow): Letter => ({ ...row, skus: JSON.parse(row.skus) as string[] });
  return {
    async add(channel: string, letter: Omit<Letter, 'seq'>): Promise<void> {
      await q.run(
        `INSERT INTO letters (channel, customer_key, provision_request_id, status, skus, expires_on, created_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          channel,
          letter.customer_key,
          letter.provision_request_id,
          letter.status,
          JSON.stringify(letter.skus),
          letter.expires_on,
          letter.created_at,
        ],
      );
    },
    ofCustomer: async (channel: string, customerKey: string): Promise<Letter[]> =>
      (
        await q.all<LetterRow & Record<string, unknown>>(
          `${SELECT} WHERE channel = $1 AND customer_key = $2 ORDER BY seq`,
          [channel, customerKey],
        )
      ).map(read),
    ofRequest: async (id: string): Promise<Letter | undefined> => {
      const row = await q.one<LetterRow & Record<string, unknown>>(`${SELECT} WHERE provision_request_id = $1`, [id]);
      return row ? read(row) : undefined;
    },
    async decide(provisionRequestId: string, status: LetterStatus, expiresOn: string | null): Promise<void> {
      await q.run('UPDATE letters SET status = $1, expires_on = $2 WHERE provision_request_id = $3', [
        status,
        expiresOn,
        provisionRequestId,
      ]);
    },
  };
}
