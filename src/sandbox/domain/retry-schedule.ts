// When a webhook delivery that failed is tried again. The reference says only "retried with backoff
// for up to 7 days"; the steps are the sandbox's choice (openapi/sandbox.yaml, Webhook delivery).
import { LAST_STORED_TIME } from './stored-time.js';

export const RETRY_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 60 * 60 * 1000;

/** When a delivery that failed for the nth time is due again: doubling from 1 s to 1 h, ±20 %; null after 7 days. */
export function nextAttemptAt(
  failures: number,
  firstDueAt: string,
  now: string,
  random: () => number = Math.random,
): string | null {
  const delay = Math.min(FIRST_RETRY_MS * 2 ** (failures - 1), LONGEST_RETRY_MS) * (0.8 + 0.4 * random());
  const due = Date.parse(now) + delay;
  // The clock stops at the end of year 9999: a retry that could only come then has failed for good.
  if (due - Date.parse(firstDueAt) > RETRY_WINDOW_MS || due > LAST_STORED_TIME) return null;
  return new Date(due).toISOString();
}
