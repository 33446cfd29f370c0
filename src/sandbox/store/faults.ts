// Faults armed by POST /sandbox/v1/faults: the next calls of an operation fail with ServerError, or
// with another code of the operation's 400.
import type { Db } from './database.js';
import type { FactCache } from './fact-cache.js';

/** A failure to answer: the status, and the `error` code (of the operation's 400 enum, or ServerError). */
export interface ArmedFault {
  status: 400 | 500 | 501;
  error: string;
}

export function faultsRepository(db: Db, facts: FactCache) {
  const arm = db.prepare(`INSERT INTO faults (channel, operation_id, status, error, remaining) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (channel, operation_id) DO UPDATE SET status = excluded.status, error = excluded.error,
      remaining = excluded.remaining`);
  const get = db.prepare(
    'SELECT status, error, remaining FROM faults WHERE channel = ? AND operation_id = ? AND remaining > 0',
  );
  const spend = db.prepare('UPDATE faults SET remaining = remaining - 1 WHERE channel = ? AND operation_id = ?');
  const armed = db.prepare('SELECT 1 FROM faults WHERE channel = ? AND remaining > 0 LIMIT 1').pluck();
  const anyArmedIn = facts.map<boolean>();
  return {
    /** Whether the channel has any fault left (cached): most requests never take a write lock for faults. */
    anyArmed(channel: string): boolean {
      let any = anyArmedIn.get(channel);
      if (any === undefined) {
        any = armed.get(channel) !== undefined;
        anyArmedIn.set(channel, any);
      }
      return any;
    },
    arm(channel: string, operationId: string, fault: ArmedFault, count: number): void {
      arm.run(channel, operationId, fault.status, fault.error, count);
      anyArmedIn.delete(channel);
    },
    /** Spends one armed fault of the operation (a write); the fault, or undefined when none is armed. */
    take(channel: string, operationId: string): ArmedFault | undefined {
      const row = get.get(channel, operationId) as ArmedFault | undefined;
      if (!row) return undefined;
      spend.run(channel, operationId);
      anyArmedIn.delete(channel);
      return { status: row.status, error: row.error ?? 'ServerError' };
    },
  };
}
