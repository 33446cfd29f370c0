// How many deliveries an endpoint may be sent at once. Pure: the caller says when each of the
// endpoint's open attempts started, and what time it is (performance.now(), not the sandbox clock:
// this is about connections, which real time governs).

/** Deliveries sent at once per endpoint, each of another resource. */
export const CONCURRENT_PER_ENDPOINT = 8;
/** An attempt unanswered this long no longer counts toward CONCURRENT_PER_ENDPOINT. */
export const UNANSWERED_AFTER_MS = 1_000;
/** Attempts open at once per endpoint, unanswered ones included: the bound on its connections. */
export const OPEN_PER_ENDPOINT = 64;

/**
 * How many more deliveries the endpoint may be sent now. An attempt still unanswered after
 * UNANSWERED_AFTER_MS gives up its slot, so that a receiver that hangs on some requests delays
 * only the events that must wait for them; it still counts toward OPEN_PER_ENDPOINT.
 */
export function freeSlots(openSince: readonly number[], now: number): number {
  const answering = openSince.filter((startedAt) => now - startedAt < UNANSWERED_AFTER_MS).length;
  return Math.min(CONCURRENT_PER_ENDPOINT - answering, OPEN_PER_ENDPOINT - openSince.length);
}
