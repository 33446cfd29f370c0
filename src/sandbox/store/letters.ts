// Letters of medical necessity, per customer and channel, oldest first.
import type { Letter, LetterStatus } from '../domain/letters.js';
import type { Db } from './database.js';

interface LetterRow extends Omit<Letter, 'skus'> {
  skus: string;
  channel: string;
}

export function lettersRepository(db: Db) {
  const insert =
    db.prepare(`INSERT INTO letters (channel, customer_key, provision_request_id, status, skus, expires_on, created_at)
    VALUES (@channel, @customer_key, @provision_request_id, @status, @skus, @expires_on, @created_at)`);
  const ofCustomer = db.prepare('SELECT * FROM letters WHERE channel = ? AND customer_key = ? ORDER BY seq');
  const decide = db.prepare('UPDATE letters SET status = ?, expires_on = ? WHERE provision_request_id = ?');
  const ofRequest = db.prepare('SELECT * FROM letters WHERE provision_request_id = ?');
  const read = (row: LetterRow): Letter => {
    const { channel: _channel, ...letter } = row;
    return { ...letter, skus: JSON.parse(row.skus) as string[] };
  };
  return {
    add(channel: string, letter: Omit<Letter, 'seq'>): void {
      insert.run({ ...letter, channel, skus: JSON.stringify(letter.skus) });
    },
    ofCustomer: (channel: string, customerKey: string) =>
      (ofCustomer.all(channel, customerKey) as LetterRow[]).map(read),
    ofRequest: (id: string) => {
      const row = ofRequest.get(id) as LetterRow | undefined;
      return row ? read(row) : undefined;
    },
    decide(provisionRequestId: string, status: LetterStatus, expiresOn: string | null): void {
      decide.run(status, expiresOn, provisionRequestId);
    },
  };
}
