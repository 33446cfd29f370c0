// Record: the outcome of one attempt, in one transaction. The attempt joins the delivery log, and
// the delivery is delivered, due again, or failed for good (domain/delivery-outcome.ts).
import { deliveryOutcome } from '../domain/delivery-outcome.js';
import type { SandboxStore } from '../store/store.js';
import type { DueDelivery, WebhookEndpoint } from '../store/deliveries.js';
import type { AttemptOutcome } from './attempt.js';

/** `attemptedAt` is when the attempt was sent, on the channel's clock. */
export async function recordAttempt(
  store: SandboxStore,
  endpoint: WebhookEndpoint,
  delivery: DueDelivery,
  attemptedAt: string,
  outcome: AttemptOutcome,
): Promise<void> {
  await store.transaction(async () => {
    // A reset, or the endpoint's removal, may have ended the delivery while it was in flight.
    if (!(await store.deliveries.isPending(delivery.id))) return;
    const now = await store.clock.now(endpoint.channel);
    const record = {
      channel: endpoint.channel,
      delivery_id: delivery.id,
      attempted_at: attemptedAt,
      status: outcome.status,
      latency_ms: outcome.latencyMs,
      response: outcome.response,
      error: outcome.error,
    };
    const next = deliveryOutcome(outcome.status, delivery, now);
    if (next.kind === 'delivered') await store.deliveries.delivered(record, delivery.outbox_id, now);
    else await store.deliveries.failed(record, next.kind === 'retry' ? next.dueAt : null);
  });
}
