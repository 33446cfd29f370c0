// Deduplication of deliveries: webhook_delivery_id is stable across retries of one event, and the
// service retries for up to 7 days.

export interface DeliveryDeduplicatorOptions {
  /** How long an id is remembered, in ms. Default 7 days, the retry window. */
  ttlMs?: number;
  /** Most ids kept in memory; the oldest go first. Default 100 000. */
  maxEntries?: number;
  /** Current time in ms (for tests). */
  now?: () => number;
}

export interface DeliveryDeduplicator {
  /**
   * Records the id unless it is already recorded. True when it was new (handle the event); false
   * for a retry or a duplicate (answer 204 without handling it again).
   */
  recordIfNew(webhookDeliveryId: string): boolean;
  /** Forgets an id, e.g. when handling the event failed and the retry must be processed. */
  forget(webhookDeliveryId: string): void;
  readonly size: number;
}

const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

/** An in-memory deduplicator for one process; use a shared store when several processes receive. */
export function createDeliveryDeduplicator(options: DeliveryDeduplicatorOptions = {}): DeliveryDeduplicator {
  const ttlMs = options.ttlMs ?? SEVEN_DAYS_MS;
  const maxEntries = options.maxEntries ?? 100_000;
  const now = options.now ?? Date.now;
  const seenAt = new Map<string, number>(); // insertion order = age order

  function evict(at: number) {
    for (const [id, time] of seenAt) {
      if (at - time < ttlMs && seenAt.size <= maxEntries) break;
      seenAt.delete(id);
    }
  }

  return {
    recordIfNew(id) {
      const at = now();
      evict(at);
      if (seenAt.has(id)) return false;
      seenAt.set(id, at);
      if (seenAt.size > maxEntries) evict(at);
      return true;
    },
    forget(id) {
      seenAt.delete(id);
    },
    get size() {
      return seenAt.size;
    },
  };
}
