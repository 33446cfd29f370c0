// What the tests of several sandboxes sharing one database's delivery queue run, whatever the
// backend: each is handed two stores on one database (two sandboxes), and starts a dispatcher on
// each, with a send that answers as the test says and notes who sent what.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AttemptOutcome, DeliveryRequest, SendAttempt } from '../../src/sandbox/delivery/attempt.js';
import { type Dispatcher, startDispatcher } from '../../src/sandbox/delivery/dispatcher.js';
import { WebhookListeners } from '../../src/sandbox/delivery/listeners.js';
import { recordAttempt } from '../../src/sandbox/delivery/record.js';
import type { EventAttempt } from '../../src/sandbox/store/deliveries.js';
import type { SandboxStore } from '../../src/sandbox/store/store.js';

export const NOW = '2026-01-01T00:00:00.000Z';
export const DELIVERED: AttemptOutcome = { status: 204, response: null, error: null, latencyMs: 1 };

/** One request a sandbox sent: which sandbox, to which endpoint, and the event's webhook_delivery_id. */
export interface Sent {
  by: string;
  url: string;
  webhookDeliveryId: string;
}

export async function addEndpoint(store: SandboxStore, id: string): Promise<void> {
  await store.deliveries.addEndpoint({
    id,
    channel: 'dev',
    url: `http://127.0.0.1:9/${id}`,
    event_types: ['*'],
    secret: `whsec_${id}`,
    mode: 'signed',
    created_at: NOW,
  });
}

/** Fires `count` events, each about a resource of its own, each in its own write. */
export async function fire(store: SandboxStore, count: number, from = 1): Promise<void> {
  for (let n = from; n < from + count; n++)
    await store.transaction(() =>
      store.outbox.enqueue(
        'dev',
        { event_type: 'payment.completed', data: { payment_id: `ps_${n}` } },
        NOW,
        `dlv_${n}`,
      ),
    );
}

/** Every attempt of the channel's log, oldest first. */
export async function attemptLog(store: SandboxStore): Promise<EventAttempt[]> {
  return (await store.deliveries.attempts('dev', { after: 0, limit: 10_000 })).rows;
}

export async function until(condition: () => Promise<boolean> | boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A dispatcher on `store` named `by`, whose sends are noted in `sent` and answered by `answer`. */
export function dispatcherOf(
  store: SandboxStore,
  by: string,
  sent: Sent[],
  options: { answer?: (request: DeliveryRequest) => Promise<AttemptOutcome>; leaseMs?: number } = {},
): Dispatcher {
  const send: SendAttempt = async (request) => {
    sent.push({ by, url: request.url, webhookDeliveryId: JSON.parse(request.body).webhook_delivery_id });
    if (options.answer) return options.answer(request);
    await sleep(2);
    return DELIVERED;
  };
  return startDispatcher(store, { send, tickMs: 20, ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}) });
}

/** A promise, and what settles it: a send the test holds until it lets it answer. */
export function held<T>(): { promise: Promise<T>; settle: (value: T) => void } {
  let settle!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

/** Two sandboxes on one database, and what closes them. */
export interface TwoSandboxes {
  a: SandboxStore;
  b: SandboxStore;
  close(): Promise<void>;
}

/** The rules of a shared delivery queue, held on the backend `open` makes two stores of. */
export function sharedDeliveryRules(open: () => Promise<TwoSandboxes>): void {
  let pair: TwoSandboxes;
  const dispatchers: Dispatcher[] = [];
  /** Sends a test holds: answered before the dispatchers stop, whatever the test's end. */
  const stuck: Array<{ settle: (outcome: AttemptOutcome) => void }> = [];
  beforeEach(async () => {
    pair = await open();
  });
  afterEach(async () => {
    for (const send of stuck.splice(0)) send.settle(DELIVERED);
    await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.stop()));
    await pair.close();
  });

  it('delivers each of 30 events once per endpoint, by one of two sandboxes dispatching at once', async () => {
    const { a, b } = pair;
    await addEndpoint(a, 'we_1');
    await addEndpoint(a, 'we_2');
    const sent: Sent[] = [];
    dispatchers.push(dispatcherOf(a, 'a', sent), dispatcherOf(b, 'b', sent));
    // Fired through both, so that each sandbox is woken by some at once and finds the others on its
    // timer; one after the other, since two SQLite connections of one thread cannot wait for each other.
    await fire(a, 15, 1);
    await fire(b, 15, 16);
    await until(
      async () => (await attemptLog(b)).filter((row) => row.delivery_status === 'delivered').length === 60,
      'the 60 deliveries',
    );
    await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.stop()));
    const sends = sent.map(({ url, webhookDeliveryId }) => `${url} ${webhookDeliveryId}`);
    expect(sends).toHaveLength(60);
    expect(new Set(sends).size).toBe(60);
    const log = await attemptLog(a);
    expect(log).toHaveLength(60);
    expect(log.every((row) => row.status === 204)).toBe(true);
  });

  it("sends a delivery again after the lease of a sandbox killed mid-delivery, under the same webhook_delivery_id, and drops that sandbox's late report", async () => {
    const { a, b } = pair;
    await addEndpoint(a, 'we_1');
    await fire(a, 1);
    // A sandbox claims the delivery, sends it, and is killed before it reports.
    const [lost] = await a.deliveries.claim('we_1', NOW, 8, 'killed', 300);
    expect(JSON.parse(lost!.payload).webhook_delivery_id).toBe('dlv_1');
    const sent: Sent[] = [];
    dispatchers.push(dispatcherOf(b, 'b', sent, { leaseMs: 300 }));
    await until(() => sent.length === 1, "b's send after the lease");
    expect(sent.map(({ by, webhookDeliveryId }) => [by, webhookDeliveryId])).toEqual([['b', 'dlv_1']]);
    await until(async () => (await attemptLog(b)).length === 1, "b's attempt recorded");
    // The killed sandbox's report, had it come late, counts for nothing: its claim was taken since.
    const late = { channel: 'dev', delivery_id: lost!.id, attempted_at: NOW, status: 500, latency_ms: 9999 };
    expect(await a.deliveries.failedByClaim(lost!.claim, { ...late, response: null, error: null }, null)).toBe(false);
    expect(await a.deliveries.deliveredByClaim(lost!.claim, { ...late, response: null, error: null }, 1, NOW)).toBe(
      false,
    );
    const log = await attemptLog(a);
    expect(log.map((row) => [row.status, row.delivery_status, row.webhook_delivery_id])).toEqual([
      [204, 'delivered', 'dlv_1'],
    ]);
  });

  it('renews the lease of a delivery still in flight when its own sandbox claims it again: sent once', async () => {
    const { a, b } = pair;
    await addEndpoint(a, 'we_1');
    const sent: Sent[] = [];
    const slow = held<AttemptOutcome>();
    stuck.push(slow);
    // A lease shorter than the answer takes (in the sandbox, 30 s against a 10 s timeout).
    dispatchers.push(dispatcherOf(a, 'a', sent, { answer: () => slow.promise, leaseMs: 100 }));
    await fire(a, 1);
    await until(() => sent.length === 1, "a's send");
    await sleep(500);
    slow.settle(DELIVERED);
    await until(async () => (await attemptLog(a)).length === 1, "a's attempt recorded");
    expect(sent).toHaveLength(1);
    expect((await attemptLog(b)).map((row) => row.delivery_status)).toEqual(['delivered']);
  });

  it('keeps a delivery from the other sandbox while its lease holds, and sends one resource event at a time', async () => {
    const { a, b } = pair;
    await addEndpoint(a, 'we_1');
    const sent: Sent[] = [];
    const slow = held<AttemptOutcome>();
    stuck.push(slow);
    dispatchers.push(dispatcherOf(a, 'a', sent, { answer: () => slow.promise }));
    await a.transaction(async () => {
      for (const n of [1, 2])
        await a.outbox.enqueue(
          'dev',
          { event_type: 'payment.completed', data: { payment_id: 'ps_1' } },
          NOW,
          `dlv_${n}`,
        );
    });
    await until(() => sent.length === 1, "a's send");
    dispatchers.push(dispatcherOf(b, 'b', sent));
    // b's timer looks many times meanwhile: the first event is leased, the second waits behind it.
    await sleep(300);
    expect(sent.map(({ by, webhookDeliveryId }) => [by, webhookDeliveryId])).toEqual([['a', 'dlv_1']]);
    slow.settle(DELIVERED);
    await until(() => sent.length === 2, 'the second event');
    expect(sent[1]!.webhookDeliveryId).toBe('dlv_2');
  });

  it("hands a listener's delivery claimed through one sandbox to no other, and takes its report through the other, once", async () => {
    const { a, b } = pair;
    const listener = {
      id: 'wl_1',
      channel: 'dev',
      url: 'http://localhost:3999/webhooks',
      event_types: ['*'],
      secret: 'whsec_listener',
      mode: 'signed' as const,
      created_at: NOW,
      polled_at: Date.now(),
    };
    await a.listeners.add(listener);
    await fire(a, 1);
    const [hereHub, thereHub] = [new WebhookListeners(a), new WebhookListeners(b)];
    try {
      const [claimed] = await a.write(() => hereHub.claim(listener));
      expect(JSON.parse(claimed!.delivery.payload).webhook_delivery_id).toBe('dlv_1');
      expect(await b.write(() => thereHub.claim(listener))).toEqual([]);
      expect(await thereHub.hasDue(listener)).toBe(false);
      const held = await thereHub.held(listener.id, claimed!.delivery.id, claimed!.claimId);
      expect(held).toBeDefined();
      const report = () => recordAttempt(b, listener, { id: claimed!.delivery.id, ...held! }, NOW, DELIVERED);
      // Recorded once, as what it did to the delivery; the same report again is not recorded.
      expect(await report()).toBe('delivered');
      expect(await report()).toBeUndefined();
      expect(await thereHub.held(listener.id, claimed!.delivery.id, claimed!.claimId)).toBeUndefined();
      expect((await attemptLog(a)).map((row) => [row.endpoint_id, row.delivery_status])).toEqual([
        ['wl_1', 'delivered'],
      ]);
    } finally {
      hereHub.close();
      thereHub.close();
    }
  });
}
