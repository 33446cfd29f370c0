// Webhook delivery from an in-process sandbox to real HTTP receivers on 127.0.0.1, each signed
// delivery verified with this package's verifyWebhook: every event reaches every subscribed
// endpoint, signed or legacy; failures are retried on the channel's clock until a 204, for up to
// 7 days; nothing is lost or duplicated after dedupe on webhook_delivery_id.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDispatcher, type Dispatcher } from '../../src/sandbox/delivery/dispatcher.js';
import { OTHER_KEY, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';
import { freePort } from '../../testkit/processes.js';
import { seededRandom } from '../../testkit/random.js';
import { startReceiver, until, type Receiver } from '../../testkit/webhook-receiver.js';
import { parseLegacyWebhook } from '../../src/webhooks/index.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

let s: TestSandbox;
let dispatcher: Dispatcher;
const receivers: Array<{ close(): Promise<void> }> = [];
beforeEach(() => {
  s = testSandbox();
  // A generous timeout: a slow answer on a loaded machine must not count as a failure.
  dispatcher = startDispatcher(sqliteBackend(s.store), { tickMs: 20, timeoutMs: 5000 });
});
afterEach(async () => {
  // Receivers first: an attempt a receiver still holds open then ends, and the dispatcher stops at once.
  for (const receiver of receivers.splice(0)) await receiver.close();
  await dispatcher.stop();
  await s.close();
});

const SECRET = 'whsec_test_secret';
const HOUR = 3600;
async function receiver(options: Parameters<typeof startReceiver>[0] = {}) {
  const started = await startReceiver({ secret: SECRET, ...options });
  receivers.push(started);
  return started;
}
const addEndpoint = (url: string, extra: Record<string, unknown> = {}) =>
  s.post('/sandbox/v1/webhook_endpoints', { url, secret: SECRET, ...extra });
const advance = (seconds: number) => s.post('/sandbox/v1/clock/advance', { seconds });
const outboxCount = async () => (await s.outbox()).length;
const unique = (received: Receiver['accepted']) => new Set(received.map((r) => r.body.webhook_delivery_id)).size;
// What the dispatcher has left to do, read where it reads it: a delivery still pending may be sent
// again; one that is due (or in flight: it stays due until its attempt is recorded) is about to be.
// Waiting for these, instead of for some milliseconds, is what makes "nothing more was sent" a fact.
const deliveryStatuses = () => s.db.prepare('SELECT status FROM deliveries ORDER BY id').pluck().all() as string[];
const settled = () => deliveryStatuses().every((status) => status !== 'pending');
// Neither due nor in flight (an attempt's lease ends with its record).
const nothingDue = () =>
  s.store.deliveries
    .allEndpoints()
    .every(
      (e) =>
        s.store.deliveries.due(e.id, s.store.clock.now(e.channel), { skip: [], limit: 1 }).length === 0 &&
        s.store.deliveries.leasedCount(e.id) === 0,
    );
const attemptCount = () => s.db.prepare('SELECT COUNT(*) FROM delivery_attempts').pluck().get() as number;

describe('signed delivery', () => {
  it("delivers a payment and a dispute, each event verified, each resource's in the order they happened", async () => {
    const r = await receiver();
    expect((await addEndpoint(r.url)).body).toMatchObject({
      id: expect.stringMatching(/^we_/),
      mode: 'signed',
      event_types: ['*'],
    });
    const id = await s.capturedOneTime();
    const dispute = (await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, {})).body;
    await s.post(`/sandbox/v1/disputes/${dispute.dispute_id}/sync`, { state: 'under_review' });
    await s.post(`/sandbox/v1/disputes/${dispute.dispute_id}/sync`, { state: 'under_review' }); // silent
    await s.post(`/sandbox/v1/disputes/${dispute.dispute_id}/resolve`, { outcome: 'won' });
    await s.post(`/sandbox/v1/disputes/${dispute.dispute_id}/resolve`, { outcome: 'won' }); // re-sync of a terminal dispute: silent
    await until(() => r.accepted.length === 5, 5000, 'five deliveries');
    expect(r.rejected).toEqual([]);
    // Each resource's events in the order they happened.
    expect(r.accepted.filter((d) => d.body.data.payment_id === id).map((d) => d.body.data.status)).toEqual([
      'processing',
      'captured',
    ]);
    expect(
      r.accepted
        .filter((d) => d.body.data.dispute_id === dispute.dispute_id)
        .map((d) => [d.body.event_type, d.body.data.state]),
    ).toEqual([
      ['dispute.created', 'needs_response'],
      ['dispute.updated', 'under_review'],
      ['dispute.closed', 'won'],
    ]);
    expect(r.accepted[2]!.headers['x-service-signature']).toMatch(/^t=\d+,v0=[0-9a-f]{64}$/);
    expect(r.accepted.map((d) => d.body.webhook_delivery_id).sort()).toEqual(
      (await s.outbox()).map((e) => e.payload.webhook_delivery_id).sort(),
    );
    // The receiver answers before the dispatcher records the attempt: wait for the log.
    await until(
      async () => (await s.get('/sandbox/v1/webhook_deliveries')).body.attempts.length === 5,
      5000,
      'five logged attempts',
    );
    const log = (await s.get('/sandbox/v1/webhook_deliveries')).body;
    expect(log.attempts[0]).toMatchObject({ status: 204, delivery_status: 'delivered', url: r.url, error: null });
  });

  it('delivers the inquiry rules: created, created again on escalation, closed once; an inquiry closed before it was seen, nothing', async () => {
    const r = await receiver();
    await addEndpoint(r.url, { event_types: ['dispute.created', 'dispute.updated', 'dispute.closed'] });
    const id = await s.capturedOneTime();
    const unseen = (
      await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, {
        kind: 'inquiry',
        already_closed: true,
        amount: 100,
      })
    ).body;
    const inquiry = (await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, { kind: 'inquiry', amount: 200 }))
      .body;
    await s.post(`/sandbox/v1/disputes/${inquiry.dispute_id}/escalate`);
    await s.post(`/sandbox/v1/disputes/${inquiry.dispute_id}/sync`, { phase: 'dispute' }); // no change: silent
    await s.post(`/sandbox/v1/disputes/${inquiry.dispute_id}/resolve`, { outcome: 'lost' });
    const dropped = (await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, { kind: 'inquiry', amount: 300 }))
      .body;
    await s.post(`/sandbox/v1/disputes/${dropped.dispute_id}/drop`);
    await s.post(`/sandbox/v1/disputes/${dropped.dispute_id}/drop`); // re-sync of a terminal dispute: silent
    await until(() => r.accepted.length === 5, 5000, 'five dispute deliveries');
    // Every delivery settled: nothing more can reach the receiver.
    await until(settled, 5000, 'every delivery settled');
    expect(deliveryStatuses()).toEqual(Array(5).fill('delivered'));
    expect(r.accepted).toHaveLength(5);
    // In order per dispute (the order across disputes is not promised).
    const of = (disputeId: string) =>
      r.accepted.filter((d) => d.body.data.dispute_id === disputeId).map((d) => [d.body.event_type, d.body.data.phase]);
    expect(of(inquiry.dispute_id)).toEqual([
      ['dispute.created', 'inquiry'],
      ['dispute.created', 'dispute'],
      ['dispute.closed', 'dispute'],
    ]);
    expect(of(dropped.dispute_id)).toEqual([
      ['dispute.created', 'inquiry'],
      ['dispute.closed', 'inquiry'],
    ]);
    expect(r.accepted.some((d) => d.body.data.dispute_id === unseen.dispute_id)).toBe(false);
  });

  it('sends an endpoint only the events it subscribes to, and legacy endpoints the flat data with the shared secret', async () => {
    const disputes = await receiver();
    const legacy = await receiver({ legacyKey: 'shared-secret' });
    await addEndpoint(disputes.url, { event_types: ['dispute.created', 'dispute.closed'] });
    await addEndpoint(legacy.url, { mode: 'legacy', secret: 'shared-secret' });
    const id = await s.capturedOneTime();
    const dispute = (await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, {})).body;
    await s.post(`/sandbox/v1/disputes/${dispute.dispute_id}/evidence`);
    await s.post(`/sandbox/v1/disputes/${dispute.dispute_id}/resolve`, { outcome: 'lost' });
    await until(() => legacy.accepted.length === 6 && disputes.accepted.length === 2, 5000, 'both receivers');
    expect(disputes.accepted.map((d) => d.body.event_type)).toEqual(['dispute.created', 'dispute.closed']);
    expect(legacy.rejected).toEqual([]);
    // Legacy: the data object itself, no envelope, no event_type, no signature.
    const first = legacy.accepted.find((d) => d.body.payment_id === id)!;
    expect(first.body).toMatchObject({ payment_id: id, status: 'processing' });
    expect(first.body).not.toHaveProperty('event_type');
    expect(first.headers).not.toHaveProperty('x-service-signature');
    expect(legacy.accepted.filter((d) => d.body.dispute_id === dispute.dispute_id).at(-1)!.body).toMatchObject({
      state: 'lost',
    });
    // Every flat body is one the contract declares and the package's parser recognises: the four
    // dispute events (created, evidence_submitted, updated, closed) arrive as the flat dispute.
    const parsed = legacy.accepted.map((d) =>
      parseLegacyWebhook(d.raw, {
        apiKeyHeader: d.headers['x-service-api-key'] as string,
        sharedSecret: 'shared-secret',
      }),
    );
    expect(parsed.map((p) => p.kind).sort()).toEqual([
      'dispute',
      'dispute',
      'dispute',
      'dispute',
      'payment_session_complete',
      'payment_session_complete',
    ]);
    expect(parsed.filter((p) => p.kind === 'dispute').map((p) => p.data.state)).toEqual([
      'needs_response',
      'under_review',
      'under_review',
      'lost',
    ]);
  });

  it('sends an endpoint subscribed to dispute.* every dispute event and nothing else', async () => {
    const disputes = await receiver();
    const everything = await receiver();
    const added = await addEndpoint(disputes.url, { event_types: ['dispute.*'] });
    expect({ status: added.status, event_types: added.body.event_types }).toEqual({
      status: 200,
      event_types: ['dispute.*'],
    });
    await addEndpoint(everything.url);
    const id = await s.capturedOneTime(); // payment_session_complete twice: not a dispute event
    const dispute = (await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, {})).body;
    await s.post(`/sandbox/v1/disputes/${dispute.dispute_id}/evidence`);
    await s.post(`/sandbox/v1/disputes/${dispute.dispute_id}/resolve`, { outcome: 'won' });
    await until(() => everything.accepted.length === 6 && disputes.accepted.length === 4, 5000, 'both receivers');
    await until(settled, 5000, 'every delivery settled');
    expect(deliveryStatuses()).toEqual(Array(10).fill('delivered'));
    expect(disputes.rejected).toEqual([]);
    expect(disputes.accepted.map((d) => d.body.event_type)).toEqual([
      'dispute.created',
      'dispute.evidence_submitted',
      'dispute.updated',
      'dispute.closed',
    ]);
    expect(
      everything.accepted.filter((d) => !d.body.event_type.startsWith('dispute.')).map((d) => d.body.event_type),
    ).toEqual(['payment_session_complete', 'payment_session_complete']);
    // Only dispute.* is a wildcard besides *: another prefix is refused.
    const refused = await addEndpoint(disputes.url, { event_types: ['payment_token.*'] });
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: 'InvalidRequest' });
  });

  it("sends each channel's events only to that channel's endpoints", async () => {
    const mine = await receiver();
    const theirs = await receiver();
    await addEndpoint(mine.url);
    const other = (
      await s.post('/sandbox/v1/webhook_endpoints', { url: theirs.url, secret: SECRET }, { key: OTHER_KEY })
    ).body as { id: string };
    await s.post(`/payments/v1/payment_session/${await s.createSession()}/cancel`);
    // The fan-out is written with the event: the other channel's endpoint got no delivery of it.
    const deliveriesTo = (endpointId: string) =>
      s.db.prepare('SELECT COUNT(*) AS n FROM deliveries WHERE endpoint_id = ?').pluck().get(endpointId);
    expect(deliveriesTo(other.id)).toBe(0);
    // And an event of the other channel reaches only its endpoint.
    const theirSession = await s.createSession({}, { key: OTHER_KEY });
    await s.post(`/payments/v1/payment_session/${theirSession}/cancel`, undefined, { key: OTHER_KEY });
    expect(deliveriesTo(other.id)).toBe(1);
    await until(
      () => mine.accepted.length === 1 && theirs.accepted.length === 1,
      5000,
      'one delivery at each endpoint',
    );
    const idsOf = (r: Receiver) =>
      r.arrived.map((raw) => (JSON.parse(raw) as { webhook_delivery_id: string }).webhook_delivery_id);
    expect(idsOf(mine)).toEqual((await s.outbox()).map((e) => e.payload.webhook_delivery_id));
    expect(idsOf(theirs)).toEqual(
      (await s.get('/sandbox/v1/outbox', { key: OTHER_KEY })).body.events.map(
        (e: { payload: { webhook_delivery_id: string } }) => e.payload.webhook_delivery_id,
      ),
    );
    expect(theirs.accepted[0]!.body.data.payment_id).toBe(theirSession);
  });

  it('redelivers an event by hand under the same webhook_delivery_id', async () => {
    const r = await receiver();
    await addEndpoint(r.url);
    const id = await s.createSession();
    await s.post(`/payments/v1/payment_session/${id}/cancel`);
    await until(() => r.accepted.length === 1);
    const [event] = await s.outbox();
    const again = await s.post(`/sandbox/v1/outbox/${event!.id}/redeliver`);
    expect(again.body).toEqual({
      event_id: event!.id,
      webhook_delivery_id: event!.payload.webhook_delivery_id,
      deliveries: 1,
    });
    await until(() => r.accepted.length === 2);
    expect(r.accepted[1]!.raw).toBe(r.accepted[0]!.raw);
    expect((await s.post('/sandbox/v1/outbox/999999/redeliver')).status).toBe(404);
  });
});

describe('failures and retries', () => {
  it('a receiver that fails at random (500s, timeouts, resets) still ends with every event, once after dedupe', async () => {
    // A short timeout here, so that the hung answers cost little.
    await dispatcher.stop();
    dispatcher = startDispatcher(sqliteBackend(s.store), { tickMs: 20, timeoutMs: 300 });
    const answers: Array<'ok' | 'fail' | 'hang' | 'reset'> = [
      'fail',
      'ok',
      'hang',
      'ok',
      'reset',
      'ok',
      'fail',
      'fail',
      'ok',
    ];
    const r = await receiver({ answer: (n) => answers[n % answers.length]! });
    await addEndpoint(r.url);
    for (let i = 0; i < 10; i++) await s.capturedOneTime();
    const events = await outboxCount();
    expect(events).toBe(20);
    // Each advance makes the failed ones due again (the longest backoff is an hour).
    await until(
      async () => {
        if (unique(r.accepted) < events) await advance(HOUR);
        return unique(r.accepted) === events;
      },
      20_000,
      'every event',
    );
    expect(r.rejected).toEqual([]);
    // An answer that came after the dispatcher gave up on it is retried, and delivered again: the
    // receiver's dedupe on webhook_delivery_id absorbs it. Every delivery ends delivered.
    const log = async () =>
      (await s.get('/sandbox/v1/webhook_deliveries?limit=1000')).body.attempts as Array<{
        status: number | null;
        error: string | null;
        delivery_status: string;
      }>;
    await until(
      async () => {
        const done = (await log()).every((a) => a.delivery_status === 'delivered');
        if (!done) await advance(HOUR);
        return done;
      },
      20_000,
      'every delivery delivered',
    );
    const attempts = await log();
    expect(attempts.filter((a) => a.status === 500).length).toBeGreaterThan(0);
    expect(attempts.filter((a) => a.error !== null).length).toBeGreaterThan(0);
  });

  it('only a 204 succeeds: a 200 and a 202 are failures, retried until the receiver answers 204', async () => {
    const answers: Array<'ok-200' | 'ok-202' | 'ok'> = ['ok-200', 'ok-202', 'ok'];
    const r = await receiver({ answer: (n) => answers[Math.min(n, 2)]! });
    await addEndpoint(r.url);
    await s.post(`/payments/v1/payment_session/${await s.createSession()}/cancel`);
    const log = async () =>
      (await s.get('/sandbox/v1/webhook_deliveries')).body.attempts as Array<{
        status: number | null;
        error: string | null;
        delivery_status: string;
        event_id: string;
      }>;
    // The 200 is logged, and the delivery stays pending: it is not delivered.
    await until(async () => (await log()).length === 1, 10_000, 'the first attempt');
    expect(await log()).toMatchObject([{ status: 200, delivery_status: 'pending' }]);
    expect(r.accepted).toEqual([]);
    const deliveredAt = async () => (await s.get('/sandbox/v1/outbox')).body.events[0].delivered_at as string | null;
    expect(await deliveredAt()).toBeNull();
    await until(
      async () => {
        if (r.accepted.length === 0) await advance(60);
        return r.accepted.length === 1;
      },
      10_000,
      'the 204',
    );
    await until(async () => (await log()).every((a) => a.delivery_status === 'delivered'), 5000, 'delivered');
    const attempts = await log();
    expect(attempts.map((a) => a.status).sort()).toEqual([200, 202, 204]);
    expect(new Set(attempts.map((a) => a.event_id)).size).toBe(1);
    // The outbox's delivered_at follows the 204 only.
    expect(await deliveredAt()).not.toBeNull();
  });

  it("a retry carries the webhook_delivery_id of the first attempt, the receiver's key to deduplicate", async () => {
    const r = await receiver({ answer: (n) => (n < 2 ? 'fail' : 'ok') });
    await addEndpoint(r.url);
    await s.post(`/payments/v1/payment_session/${await s.createSession()}/cancel`);
    const [event] = await s.outbox();
    await until(
      async () => {
        if (r.accepted.length === 0) await advance(60);
        return r.accepted.length === 1;
      },
      10_000,
      'the third attempt, answered 204',
    );
    // Two failed attempts, then the one accepted: all three under the event's id, the same body each time.
    expect(r.arrived.map((raw) => (JSON.parse(raw) as { webhook_delivery_id: string }).webhook_delivery_id)).toEqual(
      Array(3).fill(event!.payload.webhook_delivery_id),
    );
    expect(r.accepted[0]!.body.webhook_delivery_id).toBe(event!.payload.webhook_delivery_id);
    expect(r.arrived).toEqual([r.accepted[0]!.raw, r.accepted[0]!.raw, r.accepted[0]!.raw]);
  });

  it("keeps one resource's events in order when an attempt fails", async () => {
    const r = await receiver({ answer: (n) => (n === 0 ? 'fail' : 'ok') });
    await addEndpoint(r.url);
    const id = await s.capturedOneTime();
    const dispute = (await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, {})).body;
    await s.post(`/sandbox/v1/disputes/${dispute.dispute_id}/evidence`);
    await s.post(`/sandbox/v1/disputes/${dispute.dispute_id}/resolve`, { outcome: 'won' });
    await until(
      async () => {
        if (r.accepted.length < 6) await advance(60);
        return r.accepted.length === 6;
      },
      10_000,
      'six deliveries',
    );
    const ofDispute = r.accepted
      .filter((d) => d.body.data.dispute_id === dispute.dispute_id)
      .map((d) => d.body.event_type);
    expect(ofDispute).toEqual(['dispute.created', 'dispute.evidence_submitted', 'dispute.updated', 'dispute.closed']);
    expect(r.accepted.filter((d) => d.body.data.payment_id === id).map((d) => d.body.data.status)).toEqual([
      'processing',
      'captured',
    ]);
  });

  it('a receiver down for 3 days on the sandbox clock gets everything when it comes back', async () => {
    const first = await receiver();
    const port = first.port;
    await addEndpoint(first.url);
    await first.close();
    receivers.splice(receivers.indexOf(first), 1);
    for (let i = 0; i < 3; i++) await s.capturedOneTime();
    await until(() => attemptCount() >= 3 && nothingDue(), 5000, 'the first attempts');
    // Six hours is more than the longest backoff: each step makes every waiting delivery due, and
    // its attempt is recorded before nothing is due again.
    for (let hours = 0; hours < 72; hours += 6) {
      const before = attemptCount();
      await advance(6 * HOUR);
      await until(nothingDue, 5000, `the retries after ${hours + 6} h`);
      // (One more may come by itself: the first backoffs are shorter than a step takes on a slow machine.)
      expect({ hours: hours + 6, retried: attemptCount() - before >= 3 }).toEqual({ hours: hours + 6, retried: true });
    }
    const log = (await s.get('/sandbox/v1/webhook_deliveries?limit=1000')).body.attempts as Array<{
      status: number | null;
      delivery_status: string;
      event_id: string;
    }>;
    // Retried all along, and only each session's first event: its later one waits behind it.
    expect(log.length).toBeGreaterThanOrEqual(3 + 12 * 3);
    expect(log.every((a) => a.status === null && a.delivery_status === 'pending')).toBe(true);
    expect(new Set(log.map((a) => a.event_id)).size).toBe(3);
    const back = await receiver({ port });
    // More than the longest backoff (an hour, +20 %) that 3 days of retries have reached.
    await advance(2 * HOUR);
    await until(() => unique(back.accepted) === 6, 5000, 'the six events');
    expect(back.accepted.map((d) => d.body.data.status)).toEqual(expect.arrayContaining(['processing', 'captured']));
  });

  it('after 7 days of failures the delivery has failed, and is not tried again', async () => {
    const r = await receiver({ answer: () => 'fail' });
    await addEndpoint(r.url);
    const id = await s.createSession();
    await s.post(`/payments/v1/payment_session/${id}/cancel`);
    await until(() => attemptCount() > 0 && nothingDue(), 5000, 'the first attempt');
    // Four hours is more than the longest backoff: while the delivery is pending, each step makes it
    // due, and its retry is recorded before nothing is due again.
    for (let step = 1; step <= 8 * 6; step++) {
      const [pendingBefore, before] = [!settled(), attemptCount()];
      await advance(4 * HOUR);
      await until(nothingDue, 5000, `the retry after ${step * 4} h`);
      if (pendingBefore) expect({ step, retried: attemptCount() - before >= 1 }).toEqual({ step, retried: true });
    }
    expect(deliveryStatuses()).toEqual(['failed']);
    const log = (await s.get('/sandbox/v1/webhook_deliveries?limit=1000')).body.attempts as Array<{
      attempted_at: string;
      delivery_status: string;
    }>;
    // Tried through the 7 days (a retry every 4 h at the least), none after them.
    expect(log.length).toBeGreaterThanOrEqual(7 * 6);
    // (The last came due within the 7 days; it ran once the dispatcher took it, well within a minute.)
    expect(Date.parse(log.at(-1)!.attempted_at) - Date.parse(log[0]!.attempted_at)).toBeLessThanOrEqual(
      7 * 24 * HOUR * 1000 + 60_000,
    );
    // Failed, it is never due again, however far the clock goes.
    const tried = attemptCount();
    await advance(24 * HOUR);
    expect(nothingDue()).toBe(true);
    expect(deliveryStatuses()).toEqual(['failed']);
    expect(attemptCount()).toBe(tried);
  });
});

describe('endpoints', () => {
  it('adds, lists and removes endpoints per channel; refuses bad ones', async () => {
    const made = (await addEndpoint('http://127.0.0.1:9/webhooks')).body;
    expect((await s.get('/sandbox/v1/webhook_endpoints')).body.endpoints).toEqual([made]);
    expect((await s.get('/sandbox/v1/webhook_endpoints', { key: 'sandbox-other-key' })).body.endpoints).toEqual([]);
    expect(
      (await s.call('DELETE', `/sandbox/v1/webhook_endpoints/${made.id}`, { key: 'sandbox-other-key' })).status,
    ).toBe(404);
    expect((await s.call('DELETE', `/sandbox/v1/webhook_endpoints/${made.id}`)).body).toEqual(made);
    expect((await s.get('/sandbox/v1/webhook_endpoints')).body.endpoints).toEqual([]);
    for (const body of [
      { url: 'ftp://a.example' },
      { url: 'not a url' },
      { url: 'http://a.example', event_types: ['dispute.maybe'] },
    ]) {
      expect((await s.post('/sandbox/v1/webhook_endpoints', body)).body.error).toBe('InvalidRequest');
    }
    expect((await s.post('/sandbox/v1/webhook_endpoints', { url: 'https://a.example/hook' })).body.secret).toMatch(
      /^whsec_/,
    );
  });
});

describe("the helpers' document says which webhook endpoint URLs the sandbox takes", () => {
  it('POST /sandbox/v1/webhook_endpoints refuses url "0", as the document\'s url pattern does', async () => {
    const { status, body } = await s.post('/sandbox/v1/webhook_endpoints', {
      event_types: ['*'],
      mode: 'legacy',
      secret: 'whsec_conformance',
      url: '0',
    });
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequest' });
    const { components } = (await import('../../generated/sandbox.json', { with: { type: 'json' } })).default as any;
    const url = components.schemas.WebhookEndpointRequest.properties.url;
    const pattern = new RegExp(url.pattern, 'u');
    expect(url.format).toBe('uri');
    expect(['0', 'ftp://hooks.example/x', 'https://user:pw@hooks.example/x'].filter((u) => pattern.test(u))).toEqual(
      [],
    );
    expect(['https://hooks.example/webhooks', 'HTTP://127.0.0.1:9000'].every((u) => pattern.test(u))).toBe(true);
  });
});

describe('what happens to a delivery in flight', () => {
  async function slowReceiver() {
    // Answers 204 after 300 ms, so that a test can act while the attempt is in flight.
    const http = await import('node:http');
    const received: string[] = [];
    const arrived: string[] = [];
    const server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        arrived.push('x');
        setTimeout(() => {
          received.push('x');
          response.writeHead(204).end();
        }, 300);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    receivers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    return { url: `http://127.0.0.1:${port}/hook`, received, arrived };
  }

  it('a reset of the channel during an attempt ends the delivery; the sandbox goes on', async () => {
    const slow = await slowReceiver();
    await addEndpoint(slow.url);
    const id = await s.createSession();
    await s.post(`/payments/v1/payment_session/${id}/cancel`);
    await until(() => slow.arrived.length === 1, 5000, 'the attempt in flight');
    await s.post('/sandbox/v1/reset');
    await until(() => slow.received.length === 1, 5000, 'the answer');
    // Endpoints stay across a reset, and the dispatcher still delivers.
    const again = await s.createSession();
    await s.post(`/payments/v1/payment_session/${again}/cancel`);
    const [later] = await s.outbox();
    await until(() => slow.received.length === 2, 5000, 'a later delivery');
    // Stopping waits for every attempt in flight: the answer to the one the reset ended included.
    await dispatcher.stop();
    const log = (await s.get('/sandbox/v1/webhook_deliveries')).body.attempts as Array<{
      event_id: string;
      status: number;
    }>;
    expect(log.map((a) => [a.event_id, a.status])).toEqual([[later!.id, 204]]);
  });

  it('removing the endpoint during an attempt ends its deliveries; nothing more is sent there', async () => {
    // A dispute's four events go one at a time: the first is held in flight, the others wait for it.
    const held = await receiver({ answer: () => 'hold' });
    const endpoint = (
      await addEndpoint(held.url, {
        event_types: ['dispute.created', 'dispute.evidence_submitted', 'dispute.updated', 'dispute.closed'],
      })
    ).body;
    const dispute = (await s.post(`/sandbox/v1/payment_sessions/${await s.capturedOneTime()}/disputes`, {})).body;
    await s.post(`/sandbox/v1/disputes/${dispute.dispute_id}/evidence`);
    await s.post(`/sandbox/v1/disputes/${dispute.dispute_id}/resolve`, { outcome: 'won' });
    await until(() => held.held().length === 1, 5000, 'an attempt in flight');
    await s.call('DELETE', `/sandbox/v1/webhook_endpoints/${endpoint.id}`);
    held.releaseHeld();
    // Then an event for another endpoint goes through the dispatcher: it is still delivering.
    const other = await receiver();
    await addEndpoint(other.url);
    await s.post(`/payments/v1/payment_session/${await s.createSession()}/cancel`);
    await until(() => other.accepted.length === 1, 5000, "the other endpoint's event");
    expect(held.accepted.length + held.held().length).toBe(1);
    const log = (await s.get('/sandbox/v1/webhook_deliveries')).body.attempts;
    expect(log.filter((a: { endpoint_id: string }) => a.endpoint_id === endpoint.id)).toEqual([]);
  });
});

describe('endpoints the sandbox refuses, and deliveries that cannot go on', () => {
  it('an endpoint pointed at the sandbox itself (a redeliver URL, with a key as its secret) does not loop', async () => {
    // Stored before the sandbox listened there (an endpoint of an earlier run, say), so that it was
    // not refused: the delivery is refused where it arrives.
    const port = await freePort();
    const id = await s.createSession();
    await s.post(`/payments/v1/payment_session/${id}/cancel`);
    const [event] = await s.outbox();
    await addEndpoint(`http://127.0.0.1:${port}/sandbox/v1/outbox/${event!.id}/redeliver`, {
      mode: 'legacy',
      secret: 'sandbox-dev-key',
    });
    await s.app.listen({ host: '127.0.0.1', port });
    await s.post(`/sandbox/v1/outbox/${event!.id}/redeliver`);
    await until(
      async () => (await s.get('/sandbox/v1/webhook_deliveries')).body.attempts.length > 0,
      5000,
      'an attempt',
    );
    // An hour is more than the backoff of these first retries: each step makes the delivery due,
    // and waiting until nothing is due waits for its attempt (and for any delivery a loop would add).
    await until(nothingDue, 5000, 'the first attempt recorded');
    for (let i = 0; i < 5; i++) {
      await advance(HOUR);
      await until(nothingDue, 5000, 'the retry');
    }
    const attempts = (await s.get('/sandbox/v1/webhook_deliveries?limit=1000')).body.attempts;
    expect(attempts.length).toBeGreaterThanOrEqual(6);
    expect(
      attempts.every(
        (a: { status: number | null; response_excerpt: { text: string } }) =>
          a.status === 400 && a.response_excerpt.text.includes('MalformedRequest'),
      ),
    ).toBe(true);
    expect(new Set(attempts.map((a: { event_id: string }) => a.event_id))).toEqual(new Set([event!.id]));
    expect(attempts.length).toBeLessThan(10);
  });

  it('a retry that could only come after the end of the clock (9999-12-31) fails the delivery instead of spinning', async () => {
    const r = await receiver({ answer: () => 'fail' });
    await addEndpoint(r.url);
    const target = Date.parse('9999-12-31T23:59:58Z');
    for (
      let left = (target - Date.parse((await s.get('/sandbox/v1/clock')).body.now)) / 1000;
      left > 1;
      left = (target - Date.parse((await s.get('/sandbox/v1/clock')).body.now)) / 1000
    ) {
      await advance(Math.min(315_360_000, Math.floor(left)));
    }
    const id = await s.createSession();
    await s.post(`/payments/v1/payment_session/${id}/cancel`);
    await until(
      async () =>
        (await s.get('/sandbox/v1/webhook_deliveries?limit=1000')).body.attempts.at(-1)?.delivery_status === 'failed',
      5000,
      'failed',
    );
    // Failed for good: never due again, so the dispatcher has nothing to spin on.
    expect(deliveryStatuses()).toEqual(['failed']);
    expect(nothingDue()).toBe(true);
    expect(attemptCount()).toBeLessThan(20);
  });

  it('refuses credentials in the URL, a secret with spaces or line breaks, and a 21st endpoint', async () => {
    for (const body of [
      { url: 'http://user:pass@127.0.0.1:9/hook' },
      { url: 'http://127.0.0.1:9/hook', secret: ' whsec_padded ' },
      { url: 'http://127.0.0.1:9/hook', secret: 'a\r\nb' },
    ]) {
      expect((await s.post('/sandbox/v1/webhook_endpoints', body)).body.error).toBe('InvalidRequest');
    }
    for (let i = 0; i < 20; i++) expect((await addEndpoint(`http://127.0.0.1:9/hook${i}`)).status).toBe(200);
    expect((await addEndpoint('http://127.0.0.1:9/one-more')).body.message).toContain('at most 20');
  });
});

describe('a receiver that never answers holds back only its own resources', () => {
  const statusesOf = (r: Receiver, paymentId: string) =>
    r.accepted.filter((d) => d.body.data.payment_id === paymentId).map((d) => d.body.data.status);

  it("requests that never answer hold back only their own resources: the others' events arrive meanwhile, and each resource's later event follows its earlier one", async () => {
    // A timeout longer than the test: a held request stays open until the receiver answers it.
    await dispatcher.stop();
    dispatcher = startDispatcher(sqliteBackend(s.store), { tickMs: 20, timeoutMs: 120_000 });
    // The first 10 requests get no answer: more than the 8 deliveries an endpoint is sent at once.
    const r = await receiver({ answer: (n) => (n < 10 ? 'hold' : 'ok') });
    await addEndpoint(r.url);
    const hung: string[] = [];
    for (let i = 0; i < 10; i++) hung.push(await s.capturedOneTime());
    await until(() => r.held().length === 10, 5000, 'ten requests held');
    const others: string[] = [];
    for (let i = 0; i < 20; i++) others.push(await s.capturedOneTime());
    await until(
      () => others.every((id) => statusesOf(r, id).length === 2),
      10_000,
      "the other sessions' events, while ten requests hang",
    );
    // Each held session's first event (its `processing`) is in flight; its `captured` waits for it.
    expect(r.held().length).toBe(10);
    expect(hung.map((id) => statusesOf(r, id))).toEqual(hung.map(() => []));
    r.releaseHeld();
    await until(() => hung.every((id) => statusesOf(r, id).length === 2), 10_000, "the held sessions' events");
    for (const id of [...hung, ...others])
      expect({ id, statuses: statusesOf(r, id) }).toEqual({ id, statuses: ['processing', 'captured'] });
    expect(r.rejected).toEqual([]);
  });

  it("with 5 % of requests never answered, the events that do not wait for one arrive meanwhile, and every event arrives in its resource's order, each hang costing one retry", async () => {
    // A timeout longer than the test: the test ends the held requests itself, as the timeout would.
    await dispatcher.stop();
    dispatcher = startDispatcher(sqliteBackend(s.store), { tickMs: 20, timeoutMs: 120_000 });
    const random = seededRandom(7);
    let hangs = 0;
    const r = await receiver({
      answer: () => {
        if (random() >= 0.05) return 'ok';
        hangs++;
        return 'hold';
      },
    });
    await addEndpoint(r.url);
    // 195 events of 130 resources: each session's `processing` and `captured`, and a dispute opened on it.
    for (let i = 0; i < 65; i++) await s.post(`/sandbox/v1/payment_sessions/${await s.capturedOneTime()}/disputes`, {});
    const outbox = await s.outbox();
    expect(outbox.length).toBe(195);
    const resourceOf = (data: Record<string, unknown>) => String(data.dispute_id ?? data.payment_id);
    const arrived = () => new Set(r.accepted.map((d) => d.body.webhook_delivery_id as string));
    let rounds = 0;
    while (arrived().size < outbox.length) {
      // Every event of a resource no held request is about arrives while the held ones hang.
      await until(
        () => {
          const waiting = new Set(
            r.held().map((raw) => resourceOf((JSON.parse(raw) as { data: Record<string, unknown> }).data)),
          );
          const delivered = arrived();
          return outbox.every(
            (e) => waiting.has(resourceOf(e.payload.data)) || delivered.has(e.payload.webhook_delivery_id),
          );
        },
        10_000,
        'every event that waits for no held request',
      );
      // The held requests end as a timeout ends them, and the sandbox clock reaches their retries.
      r.releaseHeld('reset');
      await advance(60);
      rounds++;
      await until(() => r.held().length > 0 || arrived().size === outbox.length, 10_000, 'the retries');
    }
    expect(rounds).toBeGreaterThan(0);
    expect(r.rejected).toEqual([]);
    // Each resource's events arrived in the order they happened.
    const order = (deliveries: Array<{ webhook_delivery_id: string; data: Record<string, unknown> }>) => {
      const byResource = new Map<string, string[]>();
      for (const d of deliveries)
        byResource.set(resourceOf(d.data), [...(byResource.get(resourceOf(d.data)) ?? []), d.webhook_delivery_id]);
      return byResource;
    };
    expect(
      order(r.accepted.map((d) => d.body as { webhook_delivery_id: string; data: Record<string, unknown> })),
    ).toEqual(order(outbox.map((e) => e.payload)));
    // Every delivery ended delivered, within the retry window: the only failed attempts are the hangs.
    // The receiver has the last event before the sandbox has read its 204 and recorded it: wait for that.
    const statuses = () => s.db.prepare('SELECT status, COUNT(*) AS n FROM deliveries GROUP BY status').all();
    await until(
      () => JSON.stringify(statuses()) === JSON.stringify([{ status: 'delivered', n: 195 }]),
      5000,
      'the last answer recorded',
    ).catch(() => undefined);
    expect(statuses()).toEqual([{ status: 'delivered', n: 195 }]);
    const attempts = (await s.get('/sandbox/v1/webhook_deliveries?limit=1000')).body.attempts as Array<{
      status: number | null;
      error: string | null;
    }>;
    expect(attempts.length).toBe(195 + hangs);
    expect(attempts.filter((a) => a.status !== 204).every((a) => a.status === null && a.error !== null)).toBe(true);
  });
});

describe("a published key reads no internal address: excerpts only, and not the sandbox's own", () => {
  /** A service of the machine that is not a webhook receiver: its pages answer 200 with a body. */
  async function internalService(pages: Record<string, string | Buffer>) {
    const http = await import('node:http');
    const server = http.createServer((request, response) => {
      request.resume();
      const page = pages[request.url ?? ''];
      response
        .writeHead(page === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' })
        .end(page ?? 'Not Found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receivers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    return `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
  }

  it('the delivery log keeps the status and a labelled excerpt of at most 200 characters, never the whole answer', async () => {
    const admin = `<!doctype html><title>Admin</title><h1>Admin</h1><p>${'Settings. '.repeat(40)}</p><p>root token: ADMIN-SECRET-7f3a</p>${'<p>more</p>'.repeat(400)}`;
    const origin = await internalService({
      '/admin': admin,
      '/short': 'OK',
      '/accents': 'é'.repeat(300),
      '/huge': Buffer.alloc(2 * 1024 * 1024, 'a'),
    });
    // The reproduction: an endpoint at an internal address, then any event.
    expect((await s.post('/sandbox/v1/webhook_endpoints', { url: `${origin}/admin` })).status).toBe(200);
    for (const page of ['/short', '/accents', '/huge']) await addEndpoint(`${origin}${page}`);
    await s.post(`/payments/v1/payment_session/${await s.createSession()}/cancel`);
    await until(
      async () => (await s.get('/sandbox/v1/webhook_deliveries')).body.attempts.length === 4,
      10_000,
      'an attempt at each address',
    );
    const log = (await s.get('/sandbox/v1/webhook_deliveries')).body;
    const at = (page: string) => log.attempts.find((a: { url: string }) => a.url === `${origin}${page}`);
    expect(at('/admin')).toMatchObject({
      status: 200,
      error: null,
      response_excerpt: { text: admin.slice(0, 200), truncated: true, body_bytes: Buffer.byteLength(admin) },
    });
    expect(JSON.stringify(log)).not.toContain('ADMIN-SECRET');
    expect(at('/short')).toMatchObject({
      status: 200,
      response_excerpt: { text: 'OK', truncated: false, body_bytes: 2 },
    });
    // Characters, not bytes: no character is cut in two.
    expect(at('/accents')).toMatchObject({
      status: 200,
      response_excerpt: { text: 'é'.repeat(200), truncated: true, body_bytes: 600 },
    });
    // Past 1 MiB the body is not read on: its length is not known.
    expect(at('/huge')).toMatchObject({
      status: 200,
      response_excerpt: { text: 'a'.repeat(200), truncated: true, body_bytes: null },
    });
  });

  it('reads an attempt logged before as a labelled excerpt: its first 200 bytes, kept as text', async () => {
    const origin = await internalService({ '/admin': 'Internal Server Error' });
    await addEndpoint(`${origin}/admin`);
    await s.post(`/payments/v1/payment_session/${await s.createSession()}/cancel`);
    await s.post(`/payments/v1/payment_session/${await s.createSession()}/cancel`);
    await until(
      async () => (await s.get('/sandbox/v1/webhook_deliveries')).body.attempts.length === 2,
      10_000,
      'two attempts',
    );
    // What the earlier log kept: a short body whole, and a longer one cut at 200 bytes.
    s.db
      .prepare('UPDATE delivery_attempts SET response = ? WHERE id = (SELECT MIN(id) FROM delivery_attempts)')
      .run('Internal Server Error');
    s.db
      .prepare('UPDATE delivery_attempts SET response = ? WHERE id = (SELECT MAX(id) FROM delivery_attempts)')
      .run('x'.repeat(200));
    const [short, long] = (await s.get('/sandbox/v1/webhook_deliveries')).body.attempts;
    expect(short.response_excerpt).toEqual({ text: 'Internal Server Error', truncated: false, body_bytes: 21 });
    expect(long.response_excerpt).toEqual({ text: 'x'.repeat(200), truncated: true, body_bytes: null });
  });

  it("refuses an endpoint at the sandbox's own address, under any of its names", async () => {
    const base = await s.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = new URL(base);
    const names = [
      `http://127.0.0.1:${port}/admin`,
      `http://localhost:${port}/sandbox/v1/reset`,
      `http://LOCALHOST.:${port}/`,
      `http://api.localhost:${port}/`,
      `http://[::1]:${port}/`,
      `http://0.0.0.0:${port}/`,
      `http://0:${port}/`,
      `http://[::]:${port}/`,
      `http://127.1:${port}/`,
      `http://2130706433:${port}/`,
      `http://0x7f.0.0.1:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `https://localhost:${port}/`,
    ];
    for (const url of names) {
      const refused = await s.post('/sandbox/v1/webhook_endpoints', { url });
      expect({ url, status: refused.status, error: refused.body.error }).toEqual({
        url,
        status: 400,
        error: 'InvalidRequest',
      });
      expect(refused.body.message).toMatch(/^url points at the sandbox itself \(.+:\d+\)/);
    }
    expect((await s.get('/sandbox/v1/webhook_endpoints')).body.endpoints).toEqual([]);
    // Another port of the same machine is another receiver.
    const other = await receiver();
    expect((await addEndpoint(other.url)).status).toBe(200);
  });

  it("bound to every interface, the sandbox also refuses the machine's own addresses and name at its port", async () => {
    const everywhere = testSandbox();
    try {
      const { port } = new URL(await everywhere.app.listen({ host: '0.0.0.0', port: 0 }));
      const { hostname, networkInterfaces } = await import('node:os');
      const addresses = Object.values(networkInterfaces()).flatMap((list) =>
        (list ?? []).filter((entry) => entry.family === 'IPv4').map((entry) => entry.address),
      );
      for (const host of [hostname(), ...addresses]) {
        const refused = await everywhere.post('/sandbox/v1/webhook_endpoints', { url: `http://${host}:${port}/hooks` });
        expect({ host, status: refused.status }).toEqual({ host, status: 400 });
      }
    } finally {
      await everywhere.close();
    }
  });
});
