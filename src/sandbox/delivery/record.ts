// Record: the outcome of one attempt, in one transaction. The attempt joins the delivery log, and
// the delivery is delivered, due again, or failed for good (domain/delivery-outcome.ts), only while
// the claim that sent it still holds it.
import { deliveryOutcome } from '../domain/delivery-outcome.js';
import type { SandboxStore } from '../store/store.js';
import type { DeliveryClaim, WebhookEndpoint } from '../store/deliveries.js';
import type { AttemptOutcome } from './attempt.js';

/** What a report needs of the delivery as it was claimed: its earlier attempts, when it was first due. */
export interface ReportedDelivery {
  id: number;
  outbox_id: number;
  attempts: number;
  first_due_at: string;
  claim: DeliveryClaim;
}

/** What a recorded attempt did to its delivery: delivered, due again, or failed for good. */
export type RecordedOutcome = 'delivered' | 'retry' | 'failed';

/** Told of each attempt's outcome as it is recorded, or `dropped` when its report came too late (the metrics). */
export type AttemptObserver = (outcome: RecordedOutcome | 'dropped') => void;

/**
 * `attemptedAt` is when the attempt was sent, on the channel's clock. What it did, once recorded: not
 * when a reset or the endpoint's removal ended the delivery while it was in flight, nor when its
 * lease ran out and another claim took it since (that claim's report is the one that counts).
 */
export async function recordAttempt(
  store: SandboxStore,
  endpoint: WebhookEndpoint,
  delivery: ReportedDelivery,
  attemptedAt: string,
  outcome: AttemptOutcome,
): Promise<RecordedOutcome | undefined> {
  return await store.transaction(async () => {
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
    const recorded =
      next.kind === 'delivered'
        ? await store.deliveries.deliveredByClaim(delivery.claim, record, delivery.outbox_id, now)
        : await store.deliveries.failedByClaim(delivery.claim, record, next.kind === 'retry' ? next.dueAt : null);
    return recorded ? next.kind : undefined;
  });
}
