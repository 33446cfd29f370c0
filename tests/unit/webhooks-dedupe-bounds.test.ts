// createDeliveryDeduplicator at its bounds: an id is forgotten once exactly ttlMs old, and
// maxEntries ids are all kept (the oldest goes only when one more arrives).
import { describe, expect, it } from 'vitest';
import { createDeliveryDeduplicator } from '../../src/webhooks/index.js';

describe('createDeliveryDeduplicator at its bounds', () => {
  it('remembers an id for less than ttlMs: exactly ttlMs later, it is new again', () => {
    let clock = 0;
    const dedupe = createDeliveryDeduplicator({ ttlMs: 1000, now: () => clock });
    dedupe.recordIfNew('dlv_1');
    clock = 1000;
    expect(dedupe.recordIfNew('dlv_1')).toBe(true);
  });

  it('keeps maxEntries ids, all of them retries', () => {
    const dedupe = createDeliveryDeduplicator({ maxEntries: 2 });
    dedupe.recordIfNew('dlv_1');
    dedupe.recordIfNew('dlv_2');
    expect(dedupe.size).toBe(2);
    expect(dedupe.recordIfNew('dlv_1')).toBe(false);
    expect(dedupe.recordIfNew('dlv_2')).toBe(false);
  });

  // Eviction runs when an id arrives: an expired id is counted until then, and so, with ttlMs 0, is
  // the id just recorded (reaching maxEntries, not passing it, drops nothing).
  it('with ttlMs 0 deduplicates nothing, and counts the id just recorded until the next call', () => {
    const dedupe = createDeliveryDeduplicator({ ttlMs: 0, maxEntries: 1, now: () => 0 });
    expect(dedupe.recordIfNew('dlv_1')).toBe(true);
    expect(dedupe.size).toBe(1);
    expect(dedupe.recordIfNew('dlv_1')).toBe(true);
    expect(dedupe.size).toBe(1);
  });
});
