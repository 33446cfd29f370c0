// How many deliveries an endpoint may be sent now: 8 answering at once, 64 open at once.
import { describe, expect, it } from 'vitest';
import {
  CONCURRENT_PER_ENDPOINT,
  OPEN_PER_ENDPOINT,
  UNANSWERED_AFTER_MS,
  freeSlots,
} from '../../src/sandbox/domain/delivery-slots.js';

const now = 50_000;

describe('freeSlots', () => {
  it('allows CONCURRENT_PER_ENDPOINT deliveries to an idle endpoint', () => {
    expect(freeSlots([], now)).toBe(CONCURRENT_PER_ENDPOINT);
  });

  it('counts attempts opened within UNANSWERED_AFTER_MS against the concurrent bound', () => {
    expect(freeSlots([now - 10, now - (UNANSWERED_AFTER_MS - 1)], now)).toBe(CONCURRENT_PER_ENDPOINT - 2);
    expect(freeSlots(Array(CONCURRENT_PER_ENDPOINT).fill(now), now)).toBe(0);
  });

  it('frees the slot of an attempt unanswered for UNANSWERED_AFTER_MS', () => {
    expect(freeSlots([now - UNANSWERED_AFTER_MS, now - 10], now)).toBe(CONCURRENT_PER_ENDPOINT - 1);
  });

  it('still bounds the open attempts, unanswered ones included, by OPEN_PER_ENDPOINT', () => {
    expect(freeSlots(Array(OPEN_PER_ENDPOINT).fill(now - 5 * UNANSWERED_AFTER_MS), now)).toBe(0);
    expect(freeSlots(Array(OPEN_PER_ENDPOINT - 3).fill(now - 5 * UNANSWERED_AFTER_MS), now)).toBe(3);
  });
});
