// Claim: which due deliveries of an endpoint go out now. As many as it has free slots, oldest event
// first, none already in flight, and only the oldest pending delivery of each resource
// (store/deliveries.ts): one resource's events go one at a time, in order, even through failures.
import type { SandboxStore } from '../store/store.js';
import type { DueDelivery, WebhookEndpoint } from '../store/deliveries.js';
import type { InFlight } from './in-flight.js';

export async function claimDue(
  store: SandboxStore,
  endpoint: WebhookEndpoint,
  inFlight: InFlight,
): Promise<DueDelivery[]> {
  const free = inFlight.freeSlots(endpoint.id);
  if (free <= 0) return [];
  // Due on the channel's clock, which helpers advance: a retry comes as soon as its time is reached.
  return await store.read(
    async () =>
      await store.deliveries.due(endpoint.id, await store.clock.now(endpoint.channel), {
        skip: inFlight.deliveryIds(endpoint.id),
        limit: free,
      }),
  );
}
