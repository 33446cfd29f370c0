// The delivery queue: per endpoint, claim the due deliveries for its free slots (delivery/claim.ts),
// send each (delivery/attempt.ts, or the send a test injects), and record its outcome
// (delivery/record.ts). A slot freed by one attempt claims the next due delivery at once.
import type { SandboxStore } from '../store/store.js';
import type { DueDelivery, WebhookEndpoint } from '../store/deliveries.js';
import { deliveryRequest, type SendAttempt } from './attempt.js';
import { claimDue } from './claim.js';
import { InFlight } from './in-flight.js';
import { recordAttempt } from './record.js';

/**
 * A failure of the queue itself (the database) is reported, never fatal: the delivery stays due,
 * and the next wake tries it again.
 */
function report(failure: unknown): void {
  console.error(`webhook dispatcher: ${(failure as Error).message}`);
}

export class DeliveryQueue {
  private readonly inFlight = new InFlight();
  /** Set by drain: no delivery is claimed after it. */
  private draining = false;
  /**
   * The fills, one after the other: a claim reads the due deliveries but those in flight, and only
   * once it has answered are its own added to them; a second claim between the two would send a
   * delivery twice.
   */
  private fills: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: SandboxStore,
    private readonly send: SendAttempt,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Claims and sends the due deliveries of every endpoint. Called on a timer too, which hands the
   * slot of an attempt that went unanswered to the next delivery, and sends retries as they come due.
   */
  async fillAll(): Promise<void> {
    if (this.draining) return;
    try {
      for (const endpoint of await this.store.deliveries.allEndpoints()) await this.fill(endpoint);
    } catch (failure) {
      report(failure);
    }
  }

  /** Claims no more deliveries, and resolves once every attempt in flight is recorded. The rest stay due. */
  async drain(): Promise<void> {
    this.draining = true;
    // A fill under way adds its attempts once its claim has answered: they are in flight too.
    await this.fills;
    await Promise.allSettled(this.inFlight.runs());
  }

  /** Called only by fillAll and refill, each of which first checks that the queue is not draining. */
  private fill(endpoint: WebhookEndpoint): Promise<void> {
    const filled = this.fills.then(() => this.claimAndSend(endpoint));
    this.fills = filled.catch(() => {});
    return filled;
  }

  private async claimAndSend(endpoint: WebhookEndpoint): Promise<void> {
    // Drained while this fill waited for the one before it.
    if (this.draining) return;
    for (const delivery of await claimDue(this.store, endpoint, this.inFlight)) {
      const run = this.attempt(endpoint, delivery).then(
        () => {
          this.inFlight.remove(endpoint.id, delivery.id);
          // refill reports its own failures.
          void this.refill(endpoint.id);
        },
        (failure: unknown) => {
          this.inFlight.remove(endpoint.id, delivery.id);
          report(failure);
        },
      );
      this.inFlight.add(endpoint.id, delivery.id, run);
    }
  }

  /** Send, then record: one attempt of one claimed delivery. */
  private async attempt(endpoint: WebhookEndpoint, delivery: DueDelivery): Promise<void> {
    const attemptedAt = await this.store.clock.now(endpoint.channel);
    const outcome = await this.send(deliveryRequest(endpoint, delivery.payload), this.timeoutMs);
    await recordAttempt(this.store, endpoint, delivery, attemptedAt, outcome);
  }

  /** A slot came free: the endpoint as it is now (repointed, or removed) takes the next due delivery. */
  private async refill(endpointId: string): Promise<void> {
    if (this.draining) return;
    try {
      const endpoint = await this.store.deliveries.endpoint(endpointId);
      if (endpoint) await this.fill(endpoint);
    } catch (failure) {
      report(failure);
    }
  }
}
