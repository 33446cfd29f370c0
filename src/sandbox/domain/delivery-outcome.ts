// What one attempt's answer makes of its delivery. Only a 204 delivers it; any other status, or no
// answer, is a failure: due again as the retry schedule says, or failed for good once that gives up.
import { nextAttemptAt } from './retry-schedule.js';

/** The one status that delivers an event: a 200 or a 202 is not the 204 receivers owe. */
export const DELIVERED_STATUS = 204;

export type DeliveryOutcome =
  | { kind: 'delivered' }
  /** Due again at `dueAt` (the channel's clock). */
  | { kind: 'retry'; dueAt: string }
  /** Failed for good: past the 7 days of retries, or past the end of the clock. */
  | { kind: 'failed' };

/**
 * The outcome of an attempt answered `status` (null: no answer), `now` on the channel's clock.
 * `delivery` is as it was claimed: its earlier attempts, and when it was first due.
 */
export function deliveryOutcome(
  status: number | null,
  delivery: { attempts: number; first_due_at: string },
  now: string,
  random?: () => number,
): DeliveryOutcome {
  if (status === DELIVERED_STATUS) return { kind: 'delivered' };
  const dueAt = nextAttemptAt(delivery.attempts + 1, delivery.first_due_at, now, random);
  return dueAt === null ? { kind: 'failed' } : { kind: 'retry', dueAt };
}
