// The delivery queue: per endpoint, claim the due deliveries for its free slots (delivery/claim.ts),
// send each (delivery/attempt.ts, or the send a test injects), and record its outcome
// (delivery/record.ts). A slot freed by one attempt claims the next due delivery at once. Claims
// are leases in the database: the queues of several sandboxes on one database never send the same
// delivery twice, and a report whose lease was lost is dropped.
import { randomBytes } from 'node:crypto';
import type { SandboxStore } from '../store/store.js';
import type { ClaimedDelivery, WebhookEndpoint } from '../store/deliveries.js';
import { deliveryRequest, type SendAttempt } from './attempt.js';
import { claimDue, DISPATCH_LEASE_MS } from './claim.js';
import { InFlight } from './in-flight.js';
import { type AttemptObserver, recordAttempt } from './record.js';

/**
 * A failure of the queue itself (the database) is reported, never fatal: the delivery stays due,
 * and the next wake tries it again.
 */
function report(failure: unknown): void {
  console.error(`webhook dispatcher: ${(failure as Error).message}`);
}

export class DeliveryQueue {
  private readonly inFlight = new InFlight();
  /** The deliveries this queue has in flight, as claimed: a claim of one again renews its lease. */
  private readonly sending = new Map<number, ClaimedDelivery>();
  /** This queue's name in its claims: another sandbox's queue (or this one's after a restart) is another owner. */
  private readonly owner = `dispatcher_${process.pid}_${randomBytes(6).toString('hex')}`;
  /** Set by drain: no delivery is claimed after it. */
  private draining = false;
  /**
   * The fills, one after the other: a fill counts the endpoint's free slots before its claim, and
   * adds its attempts only once the claim has answered; two at once would both take the same slots.
   */
  private fills: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: SandboxStore,
    private readonly send: SendAttempt,
    private readonly timeoutMs: number,
    private readonly leaseMs: number = DISPATCH_LEASE_MS,
    private readonly observe: AttemptObserver = () => {},
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

  /**
   * Claims no more deliveries, and resolves once every attempt in flight is recorded, or once
   * `graceMs` has passed: then the claims of the attempts still unanswered are given back, due at
   * once to another sandbox (under the same webhook_delivery_id) rather than after their lease, and
   * their late reports are dropped (a released claim is no longer theirs). The rest stay due.
   */
  async drain(graceMs = Number.POSITIVE_INFINITY): Promise<void> {
    this.draining = true;
    // A fill under way adds its attempts once its claim has answered: they are in flight too.
    await this.fills;
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace over'>((resolve) => {
      if (Number.isFinite(graceMs)) timer = setTimeout(() => resolve('grace over'), graceMs);
    });
    const settled = await Promise.race([Promise.allSettled(this.inFlight.runs()), graceOver]);
    clearTimeout(timer);
    if (settled !== 'grace over') return;
    await Promise.all(
      [...this.sending.values()].map((delivery) =>
        this.store.deliveries.release(delivery.id, delivery.claim).catch(() => false),
      ),
    );
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
    for (const delivery of await claimDue(this.store, endpoint, this.inFlight, this.owner, this.leaseMs)) {
      // Its lease ran out while its answer was awaited, and this queue claimed it again: the
      // attempt in flight reports under the new claim, rather than sending the event twice.
      const sending = this.sending.get(delivery.id);
      if (sending) {
        sending.claim = delivery.claim;
        continue;
      }
      this.sending.set(delivery.id, delivery);
      const run = this.attempt(endpoint, delivery).then(
        () => {
          this.sending.delete(delivery.id);
          this.inFlight.remove(endpoint.id, delivery.id);
          // refill reports its own failures.
          void this.refill(endpoint.id);
        },
        (failure: unknown) => {
          this.sending.delete(delivery.id);
          this.inFlight.remove(endpoint.id, delivery.id);
          report(failure);
        },
      );
      this.inFlight.add(endpoint.id, delivery.id, run);
    }
  }

  /** Send, then record: one attempt of one claimed delivery. */
  private async attempt(endpoint: WebhookEndpoint, delivery: ClaimedDelivery): Promise<void> {
    const attemptedAt = await this.store.clock.now(endpoint.channel);
    const outcome = await this.send(deliveryRequest(endpoint, delivery.payload), this.timeoutMs);
    try {
      this.observe((await recordAttempt(this.store, endpoint, delivery, attemptedAt, outcome)) ?? 'dropped');
    } catch (failure) {
      // Unrecorded, the delivery is given back, due at once to the next wake of any sandbox rather
      // than after its lease; a release that fails too leaves it to the lease's end.
      await this.store.deliveries.release(delivery.id, delivery.claim).catch(() => false);
      throw failure;
    }
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
