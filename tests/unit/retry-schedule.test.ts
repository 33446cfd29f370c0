// When a failed webhook delivery is due again: doubling from 1 s to 1 h, ±20 %, for 7 days.
import { describe, expect, it } from 'vitest';
import { RETRY_WINDOW_MS, nextAttemptAt } from '../../src/sandbox/domain/retry-schedule.js';
import { LAST_STORED_TIME, LAST_STORED_TIME_TEXT } from '../../src/sandbox/domain/stored-time.js';

const first = '2026-03-01T00:00:00.000Z';
const plus = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString();

describe('nextAttemptAt', () => {
  it('jitters the delay between 80 % and 120 % of the step', () => {
    expect(nextAttemptAt(1, first, first, () => 0)).toBe(plus(first, 800));
    expect(nextAttemptAt(1, first, first, () => 1)).toBe(plus(first, 1200));
    expect(nextAttemptAt(3, first, first, () => 0)).toBe(plus(first, 3200));
  });

  it('still retries at exactly 7 days after the first attempt was due, and not after', () => {
    const now = plus(first, RETRY_WINDOW_MS - 1000);
    expect(nextAttemptAt(1, first, now, () => 0.5)).toBe(plus(first, RETRY_WINDOW_MS));
    expect(nextAttemptAt(1, first, plus(now, 1), () => 0.5)).toBeNull();
  });

  it('still retries at the last time the sandbox stores, and not after', () => {
    const now = new Date(LAST_STORED_TIME - 1000).toISOString();
    expect(nextAttemptAt(1, now, now, () => 0.5)).toBe(LAST_STORED_TIME_TEXT);
    expect(nextAttemptAt(1, now, plus(now, 1), () => 0.5)).toBeNull();
  });
});
