// The delivery queue's stop with a grace (delivery/queue.ts, `drain`): an attempt answered within
// the grace is recorded and the stop ends with it, leaving no timer behind (a sandbox stopping
// exits at once, not when the grace would have ended); an attempt still unanswered when the grace
// ends has its claim given back, due at once to another sandbox. The grace runs on a fake clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AttemptOutcome, SendAttempt } from '../../src/sandbox/delivery/attempt.js';
import { DeliveryQueue } from '../../src/sandbox/delivery/queue.js';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';
import type { SandboxStore } from '../../src/sandbox/store/store.js';

const NOW = '2026-01-01T00:00:00.000Z';
const DELIVERED: AttemptOutcome = { status: 204, response: null, error: null, latencyMs: 1 };
const GRACE_MS = 60_000;

const closers: Array<() => void> = [];
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
  for (const close of closers.splice(0)) close();
});

/** A store with one endpoint and one event queued for it: one delivery due. */
async function oneDeliveryDue(): Promise<SandboxStore> {
  const db = openDatabase(':memory:');
  closers.push(() => db.close());
  const store = sqliteBackend(createStore(db));
  await store.deliveries.addEndpoint({
    id: 'we_1',
    channel: 'dev',
    url: 'http://127.0.0.1:9/we_1',
    event_types: ['*'],
    secret: 'whsec_we_1',
    mode: 'signed',
    created_at: NOW,
  });
  await store.transaction(() =>
    store.outbox.enqueue('dev', { event_type: 'payment.completed', data: { payment_id: 'ps_1' } }, NOW, 'dlv_1'),
  );
  return store;
}

/** A send the test answers: `sent` resolves as the request goes out, `answer` gives its outcome. */
function heldSend() {
  let answer: (outcome: AttemptOutcome) => void = () => {};
  let markSent: () => void = () => {};
  const sent = new Promise<void>((resolve) => {
    markSent = resolve;
  });
  const send: SendAttempt = () => {
    markSent();
    return new Promise<AttemptOutcome>((resolve) => {
      answer = resolve;
    });
  };
  return { send, sent, answer: (outcome: AttemptOutcome) => answer(outcome) };
}

describe('a stop with a grace of the delivery queue', () => {
  it('ends once the attempt in flight is recorded, leaving no timer behind', async () => {
    const store = await oneDeliveryDue();
    const { send, sent, answer } = heldSend();
    const queue = new DeliveryQueue(store, send, 1000);
    await queue.fillAll();
    await sent;
    const stopping = queue.drain(GRACE_MS);
    answer(DELIVERED);
    await stopping;
    expect((await store.deliveries.lastAttempt(1))?.status).toBe(204);
    expect(await store.deliveries.isPending(1)).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('gives back, as the grace ends, the claim of an attempt still unanswered: due at once to another', async () => {
    const store = await oneDeliveryDue();
    const { send, sent } = heldSend();
    const queue = new DeliveryQueue(store, send, 1000);
    await queue.fillAll();
    await sent;
    expect(await store.deliveries.claim('we_1', NOW, 10, 'another', 60_000)).toEqual([]);
    const stopping = queue.drain(GRACE_MS);
    await vi.advanceTimersByTimeAsync(GRACE_MS);
    await stopping;
    expect((await store.deliveries.claim('we_1', NOW, 10, 'another', 60_000)).map((delivery) => delivery.id)).toEqual([
      1,
    ]);
  });
});
