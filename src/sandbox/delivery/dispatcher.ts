// The webhook dispatcher: POSTs each due delivery to its endpoint and records every attempt. The
// work is the delivery queue's (delivery/queue.ts: claim, send, record); this module starts it and
// wakes it.
// - Only a 204 succeeds. Any other status, a timeout (10 s) or a refused connection is a failure,
//   retried with backoff (domain/retry-schedule.ts), due on the channel's clock, for up to 7 days;
//   after that the delivery has failed (domain/delivery-outcome.ts).
// - Each endpoint is sent up to 8 deliveries at once, each on its own: a slot freed by one attempt
//   takes the next due delivery at once. An attempt still unanswered after 1 s gives up its slot
//   (it stays open until its answer or the timeout), so a receiver that hangs on some requests
//   delays only the events that must wait for them; at most 64 attempts per endpoint are open
//   (domain/delivery-slots.ts).
// - An endpoint gets each resource's events one at a time, oldest first, even through failures:
//   only the oldest pending delivery of a resource is ever due (store/deliveries.ts), so a later
//   event of a resource waits while an earlier one is in flight or waiting for its retry, and the
//   events of other resources do not wait for it.
// - It runs beside the requests, never inside one: the API answers first, then a queued delivery
//   wakes the dispatcher. A timer makes retries run as their time comes (or the clock is advanced).
// - Several sandboxes on one database share the queue: each delivery is claimed by one of them,
//   under a lease (delivery/claim.ts), and sent once per endpoint. A delivery queued through one
//   sandbox wakes that sandbox's dispatcher at once; the others find it at their next tick (TICK_MS).
import type { SandboxStore } from '../store/store.js';
import { DELIVERY_TIMEOUT_MS, sendAttempt, type SendAttempt } from './attempt.js';
import { DeliveryQueue } from './queue.js';
import type { AttemptObserver } from './record.js';

const TICK_MS = 250;

export interface DispatcherOptions {
  /** How long an attempt waits for its answer. */
  timeoutMs?: number;
  /** How often the timer looks for due deliveries. */
  tickMs?: number;
  /** Sends one attempt; the POST by default. A test passes its own to see every request. */
  send?: SendAttempt;
  /** How long a claim holds a delivery (DISPATCH_LEASE_MS); a test shortens it to see a lease end. */
  leaseMs?: number;
  /** Told of each attempt's outcome as it is recorded (the metrics). */
  onAttempt?: AttemptObserver;
}

export interface Dispatcher {
  /** Looks for due deliveries now (also done on a timer and whenever one is queued). */
  wake(): void;
  /**
   * Stops taking deliveries and waits for the attempts in flight, at most `graceMs` (then gives
   * their claims back); the rest stay due for the next start, or for another sandbox.
   */
  stop(graceMs?: number): Promise<void>;
}

export function startDispatcher(store: SandboxStore, options: DispatcherOptions = {}): Dispatcher {
  const queue = new DeliveryQueue(
    store,
    options.send ?? sendAttempt,
    options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
    options.leaseMs,
    options.onAttempt,
  );
  /** A wake is already set for after the current turn: more deliveries queued in it need no other. */
  let wakeSet = false;
  const wake = () => {
    wakeSet = false;
    // fillAll reports its own failures.
    void queue.fillAll();
  };

  // Told inside the writing transaction: wake once it has committed and the answer is on its way.
  const unsubscribe = store.deliveryWakeUp.add(() => {
    if (wakeSet) return;
    wakeSet = true;
    setImmediate(wake);
  });
  const timer = setInterval(wake, options.tickMs ?? TICK_MS);
  timer.unref();
  wake();

  return {
    wake,
    async stop(graceMs) {
      clearInterval(timer);
      unsubscribe();
      await queue.drain(graceMs);
    },
  };
}
