// Faults armed by POST /sandbox/v1/faults: the next calls of an operation fail with ServerError.
import type { Db } from './database.js';

export function faultsRepository(db: Db) {
  const arm = db.prepare(`INSERT INTO faults (channel, operation_id, status, remaining) VALUES (?, ?, ?, ?)
    ON CONFLICT (channel, operation_id) DO UPDATE SET status = excluded.status, remaining = excluded.remaining`);
  const get = db.prepare('SELECT status, remaining FROM faults WHERE channel = ? AND operation_id = ? AND remaining > 0');
  const spend = db.prepare('UPDATE faults SET remaining = remaining - 1 WHERE channel = ? AND operation_id = ?');
  const armed = db.prepare('SELECT 1 FROM faults WHERE channel = ? AND remaining > 0 LIMIT 1').pluck();
  return {
    /** Whether the channel has any fault left: a read, so that most requests never take a write lock for faults. */
    anyArmed(channel: string): boolean {
      return armed.get(channel) !== undefined;
    },
    arm(channel: string, operationId: string, status: 400 | 500, count: number): void {
      arm.run(channel, operationId, status, count);
    },
    /** Spends one armed fault of the operation (a write); its status, or undefined when none is armed. */
    take(channel: string, operationId: string): 400 | 500 | undefined {
      const row = get.get(channel, operationId) as { status: 400 | 500; remaining: number } | undefined;
      if (!row) return undefined;
      spend.run(channel, operationId);
      return row.status;
    },
  };
}
