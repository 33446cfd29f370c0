// The webhook dispatcher: POSTs each due delivery to its endpoint, signed with the project's own
// signing code (or flat and unsigned, for a legacy endpoint), and records every attempt.
// - Only a 204 succeeds. Any other status, a timeout (10 s) or a refused connection is a failure,
//   retried with exponential backoff and jitter, due on the channel's clock, for up to 7 days;
//   after that the delivery has failed.
// - An endpoint gets each resource's events one at a time, oldest first, even through failures,
//   so that it sees every resource's events in the order they happened; up to 8 deliveries of
//   different resources are in flight at once, and endpoints are served side by side.
// - It runs beside the requests, never inside one: the API answers first, then a queued delivery
//   wakes the dispatcher. A timer makes retries run as their time comes (or the clock is advanced).
// - The signature carries the real time, which the receiver checks against its own clock.
import { signWebhook } from '../../webhooks/signature.js';
import type { Store } from '../store/index.js';
import type { DueDelivery, WebhookEndpoint } from '../store/deliveries.js';

export const DELIVERY_TIMEOUT_MS = 10_000;
export const RETRY_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 60 * 60 * 1000;
const TICK_MS = 250;
const LAST_TIME = Date.parse('9999-12-31T23:59:59.999Z');
/** Marks the dispatcher's requests, so that the sandbox refuses one sent to itself (a loop). */
export const DELIVERY_HEADER = 'x-sandbox-webhook-delivery';
const BATCH = 50;
/** Deliveries in flight at once per endpoint, each of another resource. */
const PARALLEL = 8;
/** The first bytes of a receiver's answer kept in the log (then decoded as UTF-8). */
const RESPONSE_EXCERPT = 200;

/** The first bytes of an answer, read no further. */
async function excerpt(answer: Response): Promise<string> {
  if (!answer.body) return '';
  const reader = answer.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < RESPONSE_EXCERPT) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => {});
  return Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT).toString('utf8');
}

/** When a delivery that failed for the nth time is due again: doubling from 1 s to 1 h, ±20 %; null after 7 days. */
export function nextAttemptAt(failures: number, firstDueAt: string, now: string, random: () => number = Math.random): string | null {
  const delay = Math.min(FIRST_RETRY_MS * 2 ** (failures - 1), LONGEST_RETRY_MS) * (0.8 + 0.4 * random());
  const due = Date.parse(now) + delay;
  // The clock stops at the end of year 9999: a retry that could only come then has failed for good.
  if (due - Date.parse(firstDueAt) > RETRY_WINDOW_MS || due > LAST_TIME) return null;
  return new Date(due).toISOString();
}

/** The request a delivery sends: the signed envelope, or a legacy endpoint's flat data object. */
export function deliveryRequest(endpoint: WebhookEndpoint, payload: string, now: () => number = Date.now): { body: string; headers: Record<string, string> } {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'hsa-fsa-sandbox-webhooks', [DELIVERY_HEADER]: '1' };
  if (endpoint.mode === 'legacy') {
    return { body: JSON.stringify((JSON.parse(payload) as { data: unknown }).data), headers: { ...headers, 'x-service-api-key': endpoint.secret } };
  }
  const signed = signWebhook(payload, endpoint.secret, Math.floor(now() / 1000));
  return { body: signed.body, headers: { ...headers, 'x-service-signature': signed.signatureHeader } };
}

export interface Dispatcher {
  /** Looks for due deliveries now (also done on a timer and whenever one is queued). */
  wake(): void;
  /** Stops taking deliveries and waits for the attempts in flight; the rest stay due for the next start. */
  stop(): Promise<void>;
}

export function startDispatcher(store: Store, options: { timeoutMs?: number; tickMs?: number } = {}): Dispatcher {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  let stopped = false;
  let scheduled = false;

  async function attempt(endpoint: WebhookEndpoint, delivery: DueDelivery): Promise<void> {
    const { body, headers } = deliveryRequest(endpoint, delivery.payload);
    const attemptedAt = store.clock.now(endpoint.channel);
    const started = performance.now();
    let status: number | null = null;
    let response: string | null = null;
    let error: string | null = null;
    try {
      const answer = await fetch(endpoint.url, { method: 'POST', body, headers, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      status = answer.status;
      response = await excerpt(answer);
    } catch (cause) {
      const failure = cause as Error & { cause?: { code?: string; message?: string } };
      error = failure.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : failure.cause?.code ?? failure.cause?.message ?? failure.message;
    }
    const latency = Math.round(performance.now() - started);
    store.transaction(() => {
      // A reset, or the endpoint's removal, may have ended the delivery while it was in flight.
      if (!store.deliveries.isPending(delivery.id)) return;
      const now = store.clock.now(endpoint.channel);
      const record = { channel: endpoint.channel, delivery_id: delivery.id, attempted_at: attemptedAt, status, latency_ms: latency, response, error };
      if (status === 204) store.deliveries.delivered(record, delivery.outbox_id, now);
      else store.deliveries.failed(record, nextAttemptAt(delivery.attempts + 1, delivery.first_due_at, now));
    });
  }

  /** Sends the endpoint's due deliveries one by one until none is due. */
  async function drain(endpoint: WebhookEndpoint): Promise<void> {
    do {
      again.delete(endpoint.id);
      for (;;) {
        if (stopped) return;
        const batch = store.read(() => store.deliveries.due(endpoint.id, store.clock.now(endpoint.channel), BATCH));
        if (batch.length === 0) break;
        // A batch holds at most one delivery per resource (the oldest pending one), so its
        // deliveries may go side by side; the next of a resource comes in a later batch.
        let next = 0;
        const worker = async () => {
          while (next < batch.length) {
            // Stopped, or the endpoint removed meanwhile: the rest of the batch is not sent.
            if (stopped || !store.deliveries.hasEndpoint(endpoint.id)) return;
            await attempt(endpoint, batch[next++]!);
          }
        };
        await Promise.all(Array.from({ length: Math.min(PARALLEL, batch.length) }, worker));
        if (stopped || !store.deliveries.hasEndpoint(endpoint.id)) return;
      }
    } while (again.has(endpoint.id) && !stopped);
  }

  function wake(): void {
    scheduled = false;
    if (stopped) return;
    for (const endpoint of store.deliveries.allEndpoints()) {
      if (running.has(endpoint.id)) {
        again.add(endpoint.id);
        continue;
      }
      // A failure of the dispatcher itself (the database) is reported, never fatal: what is due stays due.
      const run = drain(endpoint)
        .catch((failure: Error) => console.error(`webhook dispatcher: ${failure.message}`))
        .finally(() => running.delete(endpoint.id));
      running.set(endpoint.id, run);
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
      await Promise.allSettled([...running.values()]);
    },
  };
}
