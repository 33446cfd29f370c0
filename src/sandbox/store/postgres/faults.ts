// Faults armed by POST /sandbox/v1/faults (../faults.ts): the next calls of an operation fail.
// Whether a channel has any is cached under the PostgreSQL cache's rule (fact-cache.ts).
import type { ArmedFault } from '../faults.js';
import type { PgFactCache } from './fact-cache.js';
import type { PgQueries } from './queries.js';

export function faultsRepository(q: PgQueries, facts: PgFactCache) {
  const anyArmedIn = facts.factMap<boolean>();
  return {
    /** Whether the channel has any fault left (cached): most requests never take the write lock for faults. */
    anyArmed: (channel: string): Promise<boolean> =>
      anyArmedIn.fetch(
        channel,
        async () =>
          (await q.value('SELECT 1 FROM faults WHERE channel = $1 AND remaining > 0 LIMIT 1', [channel])) !== undefined,
      ),
    async arm(channel: string, operationId: string, fault: ArmedFault, count: number): Promise<void> {
      await q.run(
        `INSERT INTO faults (channel, operation_id, status, error, remaining) VALUES ($1, $2, $3, $4, $5)
          ON CONFLICT (channel, operation_id) DO UPDATE SET status = excluded.status, error = excluded.error,
            remaining = excluded.remaining`,
        [channel, operationId, fault.status, fault.error, count],
      );
      anyArmedIn.drop(channel);
    },
    /**
     * Spends one armed fault of the operation (a write); the fault, or undefined when none is
     * armed. Read then spent under the write lock: two sandboxes never spend the same one.
     */
    async take(channel: string, operationId: string): Promise<ArmedFault | undefined> {
      const row = await q.one<{ status: ArmedFault['status']; error: string | null }>(
        'SELECT status, error FROM faults WHERE channel = $1 AND operation_id = $2 AND remaining > 0',
        [channel, operationId],
      );
      if (!row) return undefined;
      await q.run('UPDATE faults SET remaining = remaining - 1 WHERE channel = $1 AND operation_id = $2', [
        channel,
        operationId,
      ]);
      anyArmedIn.drop(channel);
      return { status: row.status, error: row.error ?? 'ServerError' };
    },
  };
}
