// Every attempt of one event, seen where the dispatcher hands it to the network: a send injected
// into the dispatcher keeps each request and answers as the test says. So the exact bytes and
// headers of each attempt are known without a receiver, and so is what the store recorded of it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttemptOutcome, DeliveryRequest } from '../../src/sandbox/delivery/attempt.js';
import { startDispatcher, type Dispatcher } from '../../src/sandbox/delivery/dispatcher.js';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { testSandbox, type TestSandbox } from '../../testkit/sandbox.js';
import { until } from '../../testkit/webhook-receiver.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

const SECRET = 'whsec_test_secret';
/** Never reached: the injected send answers for it. */
const ENDPOINT_URL = 'http://127.0.0.1:9/hooks';

interface DeliveryRow {
  status: string;
  attempts: number;
  due_at: string;
}

interface Sent {
  request: DeliveryRequest;
  /** Date.now() when the dispatcher sent it. */
  sentAt: number;
  /** The delivery as stored when the request went out: what the attempts before it recorded. */
  deliveryBefore: DeliveryRow;
}

let s: TestSandbox;
let dispatcher: Dispatcher | undefined;
beforeEach(() => {
  s = testSandbox();
});
afterEach(async () => {
  await dispatcher?.stop();
  await s.close();
});

const delivery = () => s.db.prepare('SELECT status, attempts, due_at FROM deliveries').get() as DeliveryRow;
const attemptCount = () => s.db.prepare('SELECT COUNT(*) FROM delivery_attempts').pluck().get() as number;
const nothingDue = () =>
  s.store.deliveries
    .allEndpoints()
    .every((e) => s.store.deliveries.due(e.id, s.store.clock.now(e.channel), { skip: [], limit: 1 }).length === 0);

/** A dispatcher whose attempts are answered by `answers`, in turn; every request is kept in `sent`. */
function dispatcherAnswering(answers: AttemptOutcome[]) {
  const sent: Sent[] = [];
  dispatcher = startDispatcher(sqliteBackend(s.store), {
    tickMs: 20,
    send: async (request) => {
      sent.push({ request, sentAt: Date.now(), deliveryBefore: delivery() });
      return answers[sent.length - 1] ?? answers.at(-1)!;
    },
  });
  return sent;
}

describe('each attempt of a delivery, as sent and as recorded', () => {
  it('a failure and its retry send the same bytes under the same webhook_delivery_id, each signed for its body, and each is recorded with its outcome', async () => {
    const serverError = { text: 'Internal Server Error', truncated: false, body_bytes: 21 };
    const sent = dispatcherAnswering([
      { status: 500, response: serverError, error: null, latencyMs: 12 },
      { status: 204, response: { text: '', truncated: false, body_bytes: 0 }, error: null, latencyMs: 7 },
    ]);
    expect((await s.post('/sandbox/v1/webhook_endpoints', { url: ENDPOINT_URL, secret: SECRET })).status).toBe(200);
    await s.post(`/payments/v1/payment_session/${await s.createSession()}/cancel`);
    const [event] = await s.outbox();
    const stored = s.db.prepare('SELECT payload FROM outbox').pluck().get() as string;

    // The first attempt, answered 500, is recorded before the delivery is due again.
    await until(() => attemptCount() >= 1, 5000, 'the first attempt recorded');
    // Its retry comes by itself within 1.2 s; a minute on the channel's clock makes it due at once.
    await until(
      async () => {
        if (sent.length < 2) await s.post('/sandbox/v1/clock/advance', { seconds: 60 });
        return sent.length === 2;
      },
      5000,
      'the retry',
    );
    await until(() => delivery().status !== 'pending', 5000, 'the retry recorded');

    // Two attempts, no more: the delivery is settled, so it is never due again.
    expect(nothingDue()).toBe(true);
    expect(sent).toHaveLength(2);
    for (const [n, { request, sentAt }] of sent.entries()) {
      // The event exactly as queued, to the endpoint's URL, with exactly these headers.
      expect({ n, url: request.url, body: request.body }).toEqual({ n, url: ENDPOINT_URL, body: stored });
      expect(request.headers).toEqual({
        'content-type': 'application/json',
        'user-agent': 'hsa-fsa-sandbox-webhooks',
        'x-sandbox-webhook-delivery': '1',
        'x-service-signature': expect.stringMatching(/^t=\d+,v0=[0-9a-f]{64}$/),
      });
      // Signed for this body, at the real time it was sent (a minute behind the channel's clock).
      const verified = verifyWebhook({
        rawBody: request.body,
        signatureHeader: request.headers['x-service-signature'],
        secret: SECRET,
        toleranceSeconds: 1,
        now: sentAt,
      });
      expect(verified.webhook_delivery_id).toBe(event!.payload.webhook_delivery_id);
    }
    expect(sent[1]!.request.body).toBe(sent[0]!.request.body);

    // What was recorded of each attempt. The first was sent while nothing was recorded; the second
    // once the 500 was: one attempt, the delivery still pending, due again after the first backoff
    // (1 s, ±20 %).
    const log = (await s.get('/sandbox/v1/webhook_deliveries')).body.attempts as Array<Record<string, unknown>>;
    expect(
      log.map(({ event_id, webhook_delivery_id, url, status, latency_ms, error, response_excerpt }) => ({
        event_id,
        webhook_delivery_id,
        url,
        status,
        latency_ms,
        error,
        response_excerpt,
      })),
    ).toEqual([
      {
        event_id: event!.id,
        webhook_delivery_id: event!.payload.webhook_delivery_id,
        url: ENDPOINT_URL,
        status: 500,
        latency_ms: 12,
        error: null,
        response_excerpt: serverError,
      },
      {
        event_id: event!.id,
        webhook_delivery_id: event!.payload.webhook_delivery_id,
        url: ENDPOINT_URL,
        status: 204,
        latency_ms: 7,
        error: null,
        response_excerpt: { text: '', truncated: false, body_bytes: 0 },
      },
    ]);
    expect(sent[0]!.deliveryBefore).toMatchObject({ status: 'pending', attempts: 0 });
    expect(sent[1]!.deliveryBefore).toMatchObject({ status: 'pending', attempts: 1 });
    const backoff = Date.parse(sent[1]!.deliveryBefore.due_at) - Date.parse(log[0]!.attempted_at as string);
    expect(backoff).toBeGreaterThanOrEqual(800);
    expect(backoff).toBeLessThanOrEqual(1_200 + 250);
    // The 204 delivered it, and the outbox says when.
    expect(delivery()).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(log.map((a) => a.delivery_status)).toEqual(['delivered', 'delivered']);
    expect((await s.outbox())[0]).toMatchObject({ delivered_at: expect.any(String) });
  });
});
