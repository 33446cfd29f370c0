// The webhook dispatcher: POSTs each due delivery to its endpoint (delivery/attempt.ts) and records
// every attempt.
// - Only a 204 succeeds. Any other status, a timeout (10 s) or a refused connection is a failure,
//   retried with backoff (domain/retry-schedule.ts), due on the channel's clock, for up to 7 days;
//   after that the delivery has failed.
// - Each endpoint is sent up to 8 deliveries at once, each on its own: a slot freed by one attempt
//   takes the next due delivery at once. An attempt still unanswered after 1 s gives up its slot
//   (it stays open until its answer or the timeout), so a receiver that hangs on some requests
//   delays only the events that must wait for them; at most 64 attempts per endpoint are open.
// - An endpoint gets each resource's events one at a time, oldest first, even through failures:
//   only the oldest pending delivery of a resource is ever due (store/deliveries.ts), so a later
//   event of a resource waits while an earlier one is in flight or waiting for its retry, and the
//   events of other resources do not wait for it.
// - It runs beside the requests, never inside one: the API answers first, then a queued delivery
//   wakes the dispatcher. A timer makes retries run as their time comes (or the clock is advanced).
import { deliveryOutcome } from '../domain/delivery-outcome.js';
import { freeSlots } from '../domain/delivery-slots.js';
import type { Store } from '../store/index.js';
import type { DueDelivery, WebhookEndpoint } from '../store/deliveries.js';
import { DELIVERY_TIMEOUT_MS, deliveryRequest, sendAttempt } from './attempt.js';

const TICK_MS = 250;

interface Flight {
  run: Promise<void>;
  startedAt: number;
}

export interface Dispatcher {
  /** Looks for due deliveries now (also done on a timer and whenever one is queued). */
  wake(): void;
  /** Stops taking deliveries and waits for the attempts in flight; the rest stay due for the next start. */
  stop(): Promise<void>;
}

export function startDispatcher(store: Store, options: { timeoutMs?: number; tickMs?: number } = {}): Dispatcher {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  /** Per endpoint, its deliveries in flight, by delivery id. */
  const inFlight = new Map<string, Map<number, Flight>>();
  let stopped = false;
  let scheduled = false;

  async function attempt(endpoint: WebhookEndpoint, delivery: DueDelivery): Promise<void> {
    const attemptedAt = store.clock.now(endpoint.channel);
    const outcome = await sendAttempt(deliveryRequest(endpoint, delivery.payload), timeoutMs);
    store.transaction(() => {
      // A reset, or the endpoint's removal, may have ended the delivery while it was in flight.
      if (!store.deliveries.isPending(delivery.id)) return;
      const now = store.clock.now(endpoint.channel);
      const record = {
        channel: endpoint.channel, delivery_id: delivery.id, attempted_at: attemptedAt, status: outcome.status,
        latency_ms: outcome.latencyMs, response: outcome.response, error: outcome.error,
      };
      const next = deliveryOutcome(outcome.status, delivery, now);
      if (next.kind === 'delivered') store.deliveries.delivered(record, delivery.outbox_id, now);
      else store.deliveries.failed(record, next.kind === 'retry' ? next.dueAt : null);
    });
  }

  /**
   * Starts due deliveries of the endpoint in its free slots; those in flight are not due again.
   * The timer calls it too, which hands the slot of an attempt that went unanswered to the next.
   */
  function fill(endpoint: WebhookEndpoint): void {
    const flying = inFlight.get(endpoint.id) ?? new Map<number, Flight>();
    const free = freeSlots([...flying.values()].map((flight) => flight.startedAt), performance.now());
    if (stopped || free <= 0) return;
    const due = store.read(() => store.deliveries.due(endpoint.id, store.clock.now(endpoint.channel), { skip: [...flying.keys()], limit: free }));
    for (const delivery of due) {
      const run = attempt(endpoint, delivery).then(
        () => {
          flying.delete(delivery.id);
          refill(endpoint.id);
        },
        (failure: Error) => {
          // A failure of the dispatcher itself (the database) is reported, never fatal: the
          // delivery stays due, and the timer tries it again.
          flying.delete(delivery.id);
          console.error(`webhook dispatcher: ${failure.message}`);
        },
      );
      flying.set(delivery.id, { run, startedAt: performance.now() });
    }
    if (flying.size > 0) inFlight.set(endpoint.id, flying);
    else inFlight.delete(endpoint.id);
  }

  /** A slot came free: the endpoint as it is now (repointed, or removed), takes the next due delivery. */
  function refill(endpointId: string): void {
    if (stopped) return;
    try {
      const endpoint = store.deliveries.endpoint(endpointId);
      if (endpoint) fill(endpoint);
      else if (inFlight.get(endpointId)?.size === 0) inFlight.delete(endpointId);
    } catch (failure) {
      console.error(`webhook dispatcher: ${(failure as Error).message}`);
    }
  }

  function wake(): void {
    scheduled = false;
    if (stopped) return;
    try {
      for (const endpoint of store.deliveries.allEndpoints()) fill(endpoint);
    } catch (failure) {
      console.error(`webhook dispatcher: ${(failure as Error).message}`);
    }
  }

  // Told inside the writing transaction: wake once it has committed and the answer is on its way.
  const unsubscribe = store.onDeliveryQueued(() => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(wake);
  });
  const timer = setInterval(wake, options.tickMs ?? TICK_MS);
  timer.unref();
  wake();

  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(timer);
      unsubscribe();
      await Promise.allSettled([...inFlight.values()].flatMap((flying) => [...flying.values()].map((flight) => flight.run)));
    },
  };
}
