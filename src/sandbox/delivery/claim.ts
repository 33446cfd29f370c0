// Claim: which due deliveries of an endpoint go out now. As many as it has free slots, oldest event
// first, and only the oldest pending delivery of each resource (store/deliveries.ts): one
// resource's events go one at a time, in order, even through failures. Each is leased to this
// sandbox for DISPATCH_LEASE_MS, so that the other sandboxes of the database skip it; one killed
// mid-delivery leaves it to another once the lease ends, sent under the same webhook_delivery_id.
import type { SandboxStore } from '../store/store.js';
import type { ClaimedDelivery, WebhookEndpoint } from '../store/deliveries.js';
import { DELIVERY_TIMEOUT_MS } from './attempt.js';
import type { InFlight } from './in-flight.js';

/**
 * How long a claim holds a delivery: three times the attempt's timeout (10 s), so that the answer
 * and then its record, which waits for the database's write lock (SQLite's busy timeout is 5 s),
 * land well inside it; a report after it could lose to another sandbox's claim and be dropped. A
 * longer lease costs only the wait after a sandbox stopped mid-delivery.
 */
export const DISPATCH_LEASE_MS = 3 * DELIVERY_TIMEOUT_MS;

export async function claimDue(
  store: SandboxStore,
  endpoint: WebhookEndpoint,
  inFlight: InFlight,
  owner: string,
  leaseMs: number = DISPATCH_LEASE_MS,
): Promise<ClaimedDelivery[]> {
  const free = inFlight.freeSlots(endpoint.id);
  if (free <= 0) return [];
  // Due on the channel's clock, which helpers advance: a retry comes as soon as its time is reached.
  const now = await store.clock.now(endpoint.channel);
  return await store.deliveries.claim(endpoint.id, now, free, owner, leaseMs);
}
