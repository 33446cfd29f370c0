// Webhook listeners (openapi/sandbox.yaml, Webhook listeners): the helpers that `hsa-fsa-sandbox
// listen` drives, in process. A listener gets a delivery of each event it subscribes to; its
// command line claims the due ones (a long poll), with the exact signed request to forward, and
// reports each attempt, which joins the delivery log and follows the retry schedule on the
// channel's clock. The dispatcher never POSTs to one. Its secret is derived, the same on every
// registration of the channel and URL. Every claim has its own id, and only the current claim's
// report is taken. A registration with the same URL and events takes the live listener up, with
// what was fired meanwhile, unless another command line uses it now (a claim of it waits, or it
// asked within the last 35 s). It expires when nobody asks; every refusal has its code.
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startDispatcher } from '../../src/sandbox/delivery/dispatcher.js';
import type { DeliveryRequest } from '../../src/sandbox/delivery/attempt.js';
import { IDLE_EXPIRY_MS, IN_USE_MS, LEASE_MS, WebhookListeners } from '../../src/sandbox/delivery/listeners.js';
import { createStore, openDatabase } from '../../src/sandbox/store/index.js';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { OTHER_KEY, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(async () => {
  vi.useRealTimers();
  await s.close();
});

const FORWARD = 'http://localhost:3000/webhooks';
const listen = (body: Record<string, unknown> = {}, key?: string) =>
  s.post('/sandbox/v1/webhook_listeners', { forward_url: FORWARD, ...body }, key ? { key } : {});
const receive = (id: string, query = '', key?: string) =>
  s.get(`/sandbox/v1/webhook_listeners/${id}/deliveries${query}`, key ? { key } : {});
const report = (id: string, body: Record<string, unknown>, key?: string) =>
  s.post(`/sandbox/v1/webhook_listeners/${id}/attempts`, body, key ? { key } : {});
/** What a claim answers of one delivery: its id and the claim's, which a report names. */
interface Claim {
  delivery_id: string;
  claim_id: string;
}
const delivered = ({ delivery_id, claim_id }: Claim) => ({
  delivery_id,
  claim_id,
  status: 204,
  latency_ms: 3,
  response_excerpt: { text: '', truncated: false, body_bytes: 0 },
});
/** A claim no listener made. */
const NO_CLAIM: Claim = { delivery_id: '1', claim_id: 'lc_none' };
const advance = (seconds: number) => s.post('/sandbox/v1/clock/advance', { seconds });
const pendingOf = (endpointId: string) =>
  s.db
    .prepare("SELECT COUNT(*) FROM deliveries WHERE endpoint_id = ? AND status = 'pending'")
    .pluck()
    .get(endpointId) as number;
const rowsOf = (endpointId: string) =>
  s.db.prepare('SELECT COUNT(*) FROM webhook_endpoints WHERE id = ?').pluck().get(endpointId) as number;

describe('registering a listener', () => {
  it('answers a secret derived from the channel and the URL: the same on every registration, another for another URL or channel', async () => {
    const first = await listen();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      id: expect.stringMatching(/^wl_/),
      forward_url: FORWARD,
      event_types: ['*'],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{32}$/),
    });
    // Another listener of the same URL (other events): the same secret.
    const again = await listen({ forward_url: 'HTTP://LocalHost:3000/webhooks', event_types: ['dispute.*'] });
    expect(again.body.forward_url).toBe(FORWARD);
    expect(again.body.id).not.toBe(first.body.id);
    expect(again.body.secret).toBe(first.body.secret);
    expect((await listen({ forward_url: 'http://localhost:3001/webhooks' })).body.secret).not.toBe(first.body.secret);
    expect((await listen({}, OTHER_KEY)).body.secret).not.toBe(first.body.secret);
    // Another database (another sandbox) derives another: the secret is not the URL's alone.
    const elsewhere = testSandbox();
    try {
      expect((await elsewhere.post('/sandbox/v1/webhook_listeners', { forward_url: FORWARD })).body.secret).not.toBe(
        first.body.secret,
      );
    } finally {
      await elsewhere.close();
    }
  });

  it('keeps the secret across a reset, and keeps the listener', async () => {
    const { body } = await listen();
    await s.post('/sandbox/v1/reset');
    expect((await s.get('/sandbox/v1/webhook_listeners')).body.listeners.map((l: { id: string }) => l.id)).toEqual([
      body.id,
    ]);
    expect((await listen()).body.secret).toBe(body.secret);
  });

  it("lists the channel's listeners only, apart from its webhook endpoints", async () => {
    const mine = (await listen({ event_types: ['dispute.*', 'payment_token_updated'] })).body;
    expect(mine.event_types).toEqual(['dispute.*', 'payment_token.updated']);
    await listen({}, OTHER_KEY);
    await s.post('/sandbox/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/webhooks' });
    const { body } = await s.get('/sandbox/v1/webhook_listeners');
    expect(body.listeners).toEqual([mine]);
    expect((await s.get('/sandbox/v1/webhook_endpoints')).body.endpoints.map((e: { url: string }) => e.url)).toEqual([
      'http://127.0.0.1:9/webhooks',
    ]);
    // Another channel's listener is not found by this one.
    const theirs = (await s.get('/sandbox/v1/webhook_listeners', { key: OTHER_KEY })).body.listeners[0].id as string;
    expect((await receive(theirs)).status).toBe(404);
    expect((await report(theirs, delivered(NO_CLAIM))).status).toBe(404);
    expect((await s.call('DELETE', `/sandbox/v1/webhook_listeners/${theirs}`)).status).toBe(404);
  });

  it('refuses a URL that is not http(s), one with credentials, an unknown event type, a bad body, and a 21st listener: 400 InvalidRequest', async () => {
    for (const body of [
      { forward_url: 'ftp://localhost/webhooks' },
      { forward_url: 'localhost:3000/webhooks' },
      { forward_url: 'http://user:pass@localhost:3000/webhooks' },
      { forward_url: FORWARD, event_types: ['payment_session.created'] },
      { forward_url: FORWARD, event_types: [] },
      { forward_url: FORWARD, secret: 'whsec_mine' },
      {},
    ]) {
      const reply = await s.post('/sandbox/v1/webhook_listeners', body);
      expect({ body, status: reply.status, error: reply.body.error }).toEqual({
        body,
        status: 400,
        error: 'InvalidRequest',
      });
    }
    for (let i = 0; i < 20; i++) expect((await listen({ forward_url: `${FORWARD}/${i}` })).status).toBe(200);
    const full = await listen({ forward_url: `${FORWARD}/20` });
    expect(full.status).toBe(400);
    expect(full.body).toMatchObject({
      error: 'InvalidRequest',
      message: expect.stringContaining('at most 20 webhook listeners'),
    });
    // Listeners do not count against the 20 webhook endpoints.
    expect((await s.post('/sandbox/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/webhooks' })).status).toBe(200);
  });

  it('needs a key: 401 Unauthorized on every listener route', async () => {
    const id = (await listen()).body.id as string;
    for (const [method, url] of [
      ['POST', '/sandbox/v1/webhook_listeners'],
      ['GET', '/sandbox/v1/webhook_listeners'],
      ['DELETE', `/sandbox/v1/webhook_listeners/${id}`],
      ['GET', `/sandbox/v1/webhook_listeners/${id}/deliveries`],
      ['POST', `/sandbox/v1/webhook_listeners/${id}/attempts`],
    ] as const) {
      const reply = await s.call(method, url, { key: null, body: {} });
      expect([url, reply.status, reply.body.error]).toEqual([url, 401, 'Unauthorized']);
    }
    expect((await s.call('PUT', `/sandbox/v1/webhook_listeners/${id}`)).status).toBe(405);
  });
});

describe('claiming deliveries', () => {
  it("hands each due delivery once, with the exact request to forward, signed with the listener's secret", async () => {
    const listener = (await listen()).body;
    expect((await receive(listener.id)).body).toEqual({ deliveries: [] });
    const id = await s.authorized();
    const { body } = await receive(listener.id);
    expect(body.deliveries).toHaveLength(1);
    const [delivery] = body.deliveries;
    expect(delivery).toMatchObject({
      delivery_id: expect.stringMatching(/^\d+$/),
      claim_id: expect.stringMatching(/^lc_[0-9a-f]{20}$/),
      event_type: 'payment_session_complete',
      object_id: id,
      attempt: 1,
    });
    expect(delivery.request_headers).toMatchObject({
      'content-type': 'application/json',
      'x-sandbox-webhook-delivery': '1',
      'x-service-signature': expect.stringMatching(/^t=\d+,v0=[0-9a-f]{64}$/),
    });
    const event = verifyWebhook({
      rawBody: delivery.request_body,
      signatureHeader: delivery.request_headers['x-service-signature'],
      secret: listener.secret,
    });
    expect(event).toMatchObject({
      webhook_delivery_id: delivery.webhook_delivery_id,
      event_type: 'payment_session_complete',
      data: { payment_id: id, status: 'authorized' },
    });
    // Signed with the real time, whatever the sandbox clock says.
    const t = Number(/t=(\d+)/.exec(delivery.request_headers['x-service-signature'])![1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(300);
    // Held by the listener until its report: not handed again.
    expect((await receive(listener.id)).body.deliveries).toEqual([]);
  });

  it('gets only the events it subscribes to', async () => {
    const listener = (await listen({ event_types: ['dispute.created'] })).body;
    const session = await s.capturedOneTime();
    const dispute = (await s.post(`/sandbox/v1/payment_sessions/${session}/disputes`, {})).body;
    const { deliveries } = (await receive(listener.id)).body;
    expect(deliveries.map((d: { event_type: string; object_id: string }) => [d.event_type, d.object_id])).toEqual([
      ['dispute.created', dispute.dispute_id],
    ]);
  });

  it('answers a long poll as soon as an event is queued', async () => {
    const listener = (await listen()).body;
    const waiting = receive(listener.id, '?wait=30');
    const id = await s.authorized();
    const { status, body } = await waiting;
    expect(status).toBe(200);
    expect(body.deliveries.map((d: { object_id: string }) => d.object_id)).toEqual([id]);
  });

  it('answers a waiting claim when the sandbox closes, instead of holding the close', async () => {
    const listener = (await listen()).body;
    const waiting = receive(listener.id, '?wait=30');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await s.app.close();
    expect((await waiting).body).toEqual({ deliveries: [] });
  });

  it('hands at most `limit` (8 by default) per claim, each of another resource', async () => {
    const listener = (await listen()).body;
    for (let i = 0; i < 12; i++) await s.authorized();
    const first = (await receive(listener.id)).body.deliveries as Array<{ delivery_id: string; object_id: string }>;
    expect(first).toHaveLength(8);
    const second = (await receive(listener.id, '?limit=3')).body.deliveries as typeof first;
    expect(second).toHaveLength(3);
    const third = (await receive(listener.id)).body.deliveries as typeof first;
    expect(third).toHaveLength(1);
    expect(new Set([...first, ...second, ...third].map((d) => d.object_id)).size).toBe(12);
    for (const query of ['?limit=0', '?limit=9'])
      expect((await receive(listener.id, query)).body.error).toBe('InvalidRequest');
  });

  it("hands a resource's later event only after its earlier one is settled", async () => {
    const listener = (await listen()).body;
    const id = await s.createSession();
    await s.complete(id);
    await s.review(id, 'accept');
    const [processing] = (await receive(listener.id)).body.deliveries;
    expect(JSON.parse(processing.request_body).data.status).toBe('processing');
    expect((await receive(listener.id)).body.deliveries).toEqual([]);
    await report(listener.id, delivered(processing));
    const [captured] = (await receive(listener.id)).body.deliveries;
    expect(JSON.parse(captured.request_body).data.status).toBe('captured');
  });

  it('refuses a wait that is not 0 to 30 seconds: 400 InvalidRequest; an unknown listener: 404 NotFound', async () => {
    const listener = (await listen()).body;
    for (const query of ['?wait=31', '?wait=-1', '?wait=x', '?wait=1.5']) {
      const reply = await receive(listener.id, query);
      expect([query, reply.status, reply.body.error]).toEqual([query, 400, 'InvalidRequest']);
    }
    const unknown = await receive('wl_nope');
    expect([unknown.status, unknown.body.error]).toEqual([404, 'NotFound']);
  });

  it('is never POSTed by the dispatcher', async () => {
    const sent: DeliveryRequest[] = [];
    const dispatcher = startDispatcher(sqliteBackend(s.store), {
      tickMs: 10,
      send: async (request) => {
        sent.push(request);
        return { status: 204, response: null, error: null, latencyMs: 1 };
      },
    });
    try {
      const listener = (await listen()).body;
      await s.post('/sandbox/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/webhooks' });
      await s.authorized();
      await vi.waitFor(() => expect(sent).toHaveLength(1));
      expect(sent[0]!.url).toBe('http://127.0.0.1:9/webhooks');
      expect(pendingOf(listener.id)).toBe(1);
      expect((await receive(listener.id)).body.deliveries).toHaveLength(1);
    } finally {
      await dispatcher.stop();
    }
    expect(sent).toHaveLength(1);
  });
});

describe('reporting attempts', () => {
  it("records a failure in the delivery log and retries it on the channel's clock; a 204 delivers it", async () => {
    const listener = (await listen()).body;
    await s.authorized();
    const [delivery] = (await receive(listener.id)).body.deliveries;
    const failed = await report(listener.id, {
      delivery_id: delivery.delivery_id,
      claim_id: delivery.claim_id,
      status: 500,
      latency_ms: 4,
      response_excerpt: { text: 'Internal Server Error', truncated: false, body_bytes: 21 },
      error: null,
    });
    expect(failed.status).toBe(200);
    expect(failed.body.attempt).toMatchObject({
      event_type: 'payment_session_complete',
      webhook_delivery_id: delivery.webhook_delivery_id,
      endpoint_id: listener.id,
      url: FORWARD,
      status: 500,
      latency_ms: 4,
      delivery_status: 'pending',
    });
    const retryIn = Date.parse(failed.body.next_attempt_at) - Date.parse(failed.body.attempt.attempted_at);
    expect(retryIn).toBeGreaterThanOrEqual(800);
    expect(retryIn).toBeLessThanOrEqual(1300);
    const log = (await s.get('/sandbox/v1/webhook_deliveries')).body.attempts;
    expect(log).toEqual([failed.body.attempt]);

    // Not due until the channel's clock reaches the retry.
    expect((await receive(listener.id)).body.deliveries).toEqual([]);
    await advance(2);
    const [retry] = (await receive(listener.id)).body.deliveries;
    expect(retry).toMatchObject({
      delivery_id: delivery.delivery_id,
      webhook_delivery_id: delivery.webhook_delivery_id,
      attempt: 2,
    });
    expect(retry.claim_id).not.toBe(delivery.claim_id);
    const ok = await report(listener.id, delivered(retry));
    expect(ok.body).toMatchObject({ attempt: { status: 204, delivery_status: 'delivered' }, next_attempt_at: null });
    expect((await s.outbox())[0]!).toMatchObject({ delivered_at: expect.any(String) });
    expect(
      (await s.get('/sandbox/v1/webhook_deliveries')).body.attempts.map((a: { status: number }) => a.status),
    ).toEqual([500, 204]);
  });

  it('counts no answer as a failure', async () => {
    const listener = (await listen()).body;
    await s.authorized();
    const [delivery] = (await receive(listener.id)).body.deliveries;
    const { delivery_id, claim_id } = delivery;
    const error = 'no answer within 10 s';
    const { body } = await report(listener.id, { delivery_id, claim_id, status: null, latency_ms: 10000, error });
    expect(body.attempt).toMatchObject({
      status: null,
      response_excerpt: null,
      error: 'no answer within 10 s',
      delivery_status: 'pending',
    });
    expect(body.next_attempt_at).toEqual(expect.any(String));
  });

  it('refuses a report of a delivery the listener does not hold: 400 InvalidState', async () => {
    const listener = (await listen()).body;
    const other = (await listen({ forward_url: 'http://localhost:3001/' })).body;
    await s.authorized();
    // Claimed by the first: the second never held it.
    const [delivery] = (await receive(listener.id)).body.deliveries;
    expect((await report(other.id, delivered(delivery))).body.error).toBe('InvalidState');
    const unknown = delivered({ ...delivery, delivery_id: '999999' });
    expect((await report(listener.id, unknown)).body.error).toBe('InvalidState');
    // The delivery, under a claim that was never made.
    expect((await report(listener.id, delivered({ ...delivery, claim_id: 'lc_0' }))).body.error).toBe('InvalidState');
    expect((await report(listener.id, delivered(delivery))).status).toBe(200);
    // Reported already.
    const twice = await report(listener.id, delivered(delivery));
    expect([twice.status, twice.body.error]).toEqual([400, 'InvalidState']);
    expect((await s.get('/sandbox/v1/webhook_deliveries')).body.attempts).toHaveLength(1);
  });

  it('refuses a report that breaks its schema: 400 InvalidRequest; of an unknown listener: 404 NotFound', async () => {
    const listener = (await listen()).body;
    const claim = { delivery_id: '1', claim_id: 'lc_1' };
    for (const body of [
      { ...claim, status: 42, latency_ms: 1 },
      { ...claim, status: 204 },
      { ...claim, delivery_id: 'one', status: 204, latency_ms: 1 },
      { delivery_id: '1', status: 204, latency_ms: 1 },
      { ...claim, claim_id: 'lease-1', status: 204, latency_ms: 1 },
      { ...claim, claim_id: 'lc_', status: 204, latency_ms: 1 },
      { ...claim, status: 204, latency_ms: -1 },
      { ...claim, status: 204, latency_ms: 1, error: 'x'.repeat(501) },
      {
        ...claim,
        status: 204,
        latency_ms: 1,
        response_excerpt: { text: 'x'.repeat(201), truncated: true, body_bytes: 300 },
      },
      { ...claim, status: 204, latency_ms: 1, extra: true },
    ]) {
      const reply = await report(listener.id, body);
      expect({ body, status: reply.status, error: reply.body.error }).toEqual({
        body,
        status: 400,
        error: 'InvalidRequest',
      });
    }
    const unknown = await report('wl_nope', delivered(NO_CLAIM));
    expect([unknown.status, unknown.body.error]).toEqual([404, 'NotFound']);
  });

  it('refuses a report without claim_id (from a listen older than claim ids) saying what to run', async () => {
    const listener = (await listen()).body;
    await s.authorized();
    const [delivery] = (await receive(listener.id)).body.deliveries;
    const { delivery_id } = delivery;
    const old = await report(listener.id, { delivery_id, status: 204, latency_ms: 3, error: null });
    expect([old.status, old.body]).toEqual([
      400,
      {
        error: 'InvalidRequest',
        message:
          "claim_id is required: this listen is older than the sandbox; run the listen of the sandbox's version.",
      },
    ]);
    expect((await s.get('/sandbox/v1/webhook_deliveries')).body.attempts).toEqual([]);
    // Still held under its claim: the current listen's report is taken.
    expect((await report(listener.id, delivered(delivery))).status).toBe(200);
    // Any other violation keeps the schema's own message, and so does a body that is no object.
    const bad = await report(listener.id, { ...delivered(delivery), claim_id: 'lease-1' });
    const pattern = 'claim_id must match pattern "^lc_[0-9A-Za-z]{1,40}$".';
    expect(bad.body).toEqual({ error: 'InvalidRequest', message: pattern });
    for (const body of [[], null]) {
      const reply = await s.post(`/sandbox/v1/webhook_listeners/${listener.id}/attempts`, body);
      expect(reply.body).toEqual({ error: 'InvalidRequest', message: 'the body must be an object.' });
    }
  });
});

describe('a late report', () => {
  it('is refused once its lease ran out and the delivery was claimed again: 400 InvalidState', async () => {
    // Leases are on the wall clock the database's sandboxes share: faked, so that 30 s pass at once.
    vi.useFakeTimers({ toFake: ['Date'] });
    const listener = (await listen()).body;
    await s.authorized();
    const [first] = (await receive(listener.id)).body.deliveries;
    vi.advanceTimersByTime(LEASE_MS);
    const [second] = (await receive(listener.id)).body.deliveries;
    expect(second).toMatchObject({ delivery_id: first.delivery_id, attempt: 1 });
    expect(second.claim_id).not.toBe(first.claim_id);

    const late = await report(listener.id, delivered(first));
    expect([late.status, late.body.error]).toEqual([400, 'InvalidState']);
    expect(late.body.message).toBe(
      `Listener ${listener.id} holds no delivery "${first.delivery_id}" ` +
        `under claim "${first.claim_id}": that claim was never made, its attempt was reported already, ` +
        'its 30 s lease ran out and the delivery is due again (or claimed again, under another claim id), ' +
        'or its delivery was ended since (turning the drill off ends its added_later deliveries).',
    );
    expect((await s.get('/sandbox/v1/webhook_deliveries')).body.attempts).toEqual([]);
    // The current claim's report is the one taken.
    const current = await report(listener.id, delivered(second));
    expect(current.status).toBe(200);
    expect(current.body.attempt).toMatchObject({ status: 204, delivery_status: 'delivered' });
    expect((await s.get('/sandbox/v1/webhook_deliveries')).body.attempts).toHaveLength(1);
  });

  it('is refused when the lease ran out, before any claim since; a new claim has a new id', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const listener = (await listen()).body;
    await s.authorized();
    const [first] = (await receive(listener.id)).body.deliveries;
    vi.advanceTimersByTime(LEASE_MS - 1);
    // Still its lease: nothing is due, and nothing to claim.
    expect((await receive(listener.id)).body.deliveries).toEqual([]);
    vi.advanceTimersByTime(1);
    expect((await report(listener.id, delivered(first))).body.error).toBe('InvalidState');
    const [again] = (await receive(listener.id)).body.deliveries;
    expect(again.delivery_id).toBe(first.delivery_id);
    expect(again.claim_id).not.toBe(first.claim_id);
    expect((await report(listener.id, delivered(again))).status).toBe(200);
  });

  it('is taken when it comes within the lease', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const listener = (await listen()).body;
    await s.authorized();
    const [first] = (await receive(listener.id)).body.deliveries;
    vi.advanceTimersByTime(LEASE_MS - 1);
    expect((await report(listener.id, delivered(first))).status).toBe(200);
  });
});

describe('a listener started again', () => {
  it('is taken up before it expires by the same key, URL and events: what was fired meanwhile comes once', async () => {
    const first = (await listen({ event_types: ['payment_session_complete', 'dispute.*'] })).body;
    // Fired while no command line asks.
    const sessions = [await s.authorized(), await s.authorized()];
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start + IDLE_EXPIRY_MS - 1000 });
    // Started again: the same URL in another spelling, the same events in another order.
    const events = ['dispute.*', 'payment_session_complete'];
    const again = await listen({ forward_url: 'HTTP://LocalHost:3000/webhooks', event_types: events });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first, expires_at: new Date(start + 2 * IDLE_EXPIRY_MS - 1000).toISOString() });
    expect((await s.get('/sandbox/v1/webhook_listeners')).body.listeners).toEqual([again.body]);
    // Past the first expiry, it is still there: the registration counted as asking.
    vi.setSystemTime(start + IDLE_EXPIRY_MS + 1000);
    const { deliveries } = (await receive(first.id)).body;
    expect(deliveries.map((d: { object_id: string }) => d.object_id).sort()).toEqual([...sessions].sort());
    for (const delivery of deliveries) expect((await report(first.id, delivered(delivery))).status).toBe(200);
    expect((await receive(first.id)).body.deliveries).toEqual([]);
    expect((await s.get('/sandbox/v1/webhook_deliveries')).body.attempts).toHaveLength(2);
  });

  it('is taken up 1 s after its registration when it has not claimed since (a command line killed at once)', async () => {
    const first = (await listen()).body;
    expect((await listen()).body.id).not.toBe(first.id);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 1500 });
    expect((await listen()).body.id).toBe(first.id);
  });

  it('is taken up at once when the client of its waiting claim went away (a command line killed)', async () => {
    const first = (await listen()).body;
    await s.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = s.app.server.address() as AddressInfo;
    const killed = new AbortController();
    const claim = fetch(`http://127.0.0.1:${port}/sandbox/v1/webhook_listeners/${first.id}/deliveries?wait=10`, {
      headers: { 'x-service-api-key': 'sandbox-dev-key' },
      signal: killed.signal,
    }).catch((error: Error) => error.name);
    await new Promise((resolve) => setTimeout(resolve, 200));
    killed.abort();
    expect(await claim).toBe('AbortError');
    await new Promise((resolve) => setTimeout(resolve, 200));
    // It asked a moment ago, and its claim no longer waits: the restart takes it up.
    expect((await listen()).body.id).toBe(first.id);
  });

  it('is another listener for other events, another URL or another channel', async () => {
    const first = (await listen()).body;
    const ids = [
      (await listen({ event_types: ['dispute.*'] })).body.id,
      (await listen({ event_types: ['*', 'dispute.*'] })).body.id,
      (await listen({ forward_url: 'http://localhost:3000/other' })).body.id,
      (await listen({}, OTHER_KEY)).body.id,
    ];
    expect(new Set([first.id, ...ids]).size).toBe(5);
    // Its own events only: the one listening to disputes got no delivery of the payment.
    await s.authorized();
    expect((await receive(ids[0]!)).body.deliveries).toEqual([]);
    expect((await receive(first.id)).body.deliveries).toHaveLength(1);
  });

  it('is new once the listener expired: what was fired for the old one is gone with it', async () => {
    const first = (await listen()).body;
    await s.authorized();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + IDLE_EXPIRY_MS + 1000 });
    const again = (await listen()).body;
    expect(again.id).not.toBe(first.id);
    expect(pendingOf(first.id)).toBe(0);
    expect((await receive(again.id)).body.deliveries).toEqual([]);
  });

  it('is taken up even when the channel has its 20 listeners', async () => {
    for (let i = 0; i < 20; i++) await listen({ forward_url: `${FORWARD}/${i}` });
    // Their command lines gone: none has asked for longer than a claim waits, and none expired.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + IN_USE_MS + 1000 });
    const again = await listen({ forward_url: `${FORWARD}/7` });
    expect(again.status).toBe(200);
    expect((await s.get('/sandbox/v1/webhook_listeners')).body.listeners).toHaveLength(20);
  });
});

describe('a listener two command lines registered', () => {
  it('one stopping leaves the other receiving what was fired', async () => {
    const alice = (await s.post('/sandbox/v1/webhook_listeners', { forward_url: FORWARD })).body;
    // Alice's listen is claiming (a long poll), as a running one always is.
    expect((await s.get(`/sandbox/v1/webhook_listeners/${alice.id}/deliveries?wait=0`)).status).toBe(200);
    const bob = (await s.post('/sandbox/v1/webhook_listeners', { forward_url: FORWARD })).body;
    const fired = await s.authorized();
    // Bob presses Ctrl-C.
    expect((await s.call('DELETE', `/sandbox/v1/webhook_listeners/${bob.id}`)).status).toBe(200);
    const claim = await s.get(`/sandbox/v1/webhook_listeners/${alice.id}/deliveries?wait=0`);
    expect(claim.status).toBe(200);
    expect(claim.body.deliveries.map((d: { object_id: string }) => d.object_id)).toEqual([fired]);
    // Each had its own listener, and each got the event.
    expect(bob.id).not.toBe(alice.id);
    expect(bob.secret).toBe(alice.secret);
  });

  it('is not taken up while a claim of it waits, however long ago it asked', async () => {
    const first = (await listen()).body;
    const waiting = receive(first.id, '?wait=2');
    // The claim waits; its listener last asked longer ago than a command line between two claims.
    await new Promise((resolve) => setTimeout(resolve, 100));
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + IN_USE_MS + 1000 });
    const second = (await listen()).body;
    expect(second.id).not.toBe(first.id);
    expect((await waiting).status).toBe(200);
  });

  it('is taken up once it has not asked for 35 s, and no claim of it waits', async () => {
    const first = (await listen()).body;
    expect((await receive(first.id, '?wait=0')).status).toBe(200);
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start + IN_USE_MS - 1000 });
    const busy = (await listen()).body;
    expect(busy.id).not.toBe(first.id);
    expect((await receive(busy.id, '?wait=0')).status).toBe(200);
    vi.setSystemTime(start + IN_USE_MS + 1000);
    // The first, idle for 36 s, is a restart's to take up; the second, which asked 2 s ago, is not.
    expect((await listen()).body.id).toBe(first.id);
    // Taken up, it is in use again.
    expect((await listen()).body.id).not.toBe(first.id);
  });
});

describe('removing a listener', () => {
  it('removes it with its pending deliveries; it is then not found', async () => {
    const listener = (await listen()).body;
    await s.authorized();
    await s.authorized();
    const [tried] = (await receive(listener.id)).body.deliveries;
    await report(listener.id, { delivery_id: tried.delivery_id, claim_id: tried.claim_id, status: 500, latency_ms: 1 });
    expect(pendingOf(listener.id)).toBe(2);
    const removed = await s.call('DELETE', `/sandbox/v1/webhook_listeners/${listener.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ id: listener.id, forward_url: FORWARD });
    expect(pendingOf(listener.id)).toBe(0);
    expect(rowsOf(listener.id)).toBe(0);
    expect((await s.get('/sandbox/v1/webhook_listeners')).body.listeners).toEqual([]);
    // The attempt it made stays in the log, its URL gone with it.
    expect((await s.get('/sandbox/v1/webhook_deliveries')).body.attempts).toMatchObject([
      { endpoint_id: listener.id, url: null, delivery_status: 'failed' },
    ]);
    const removedAgain = await s.call('DELETE', `/sandbox/v1/webhook_listeners/${listener.id}`);
    for (const reply of [removedAgain, await receive(listener.id), await report(listener.id, delivered(tried))]) {
      expect([reply.status, reply.body.error]).toEqual([404, 'NotFound']);
    }
  });

  it('expires one that has not asked for 60 s of real time, and removes it with its deliveries', async () => {
    const listener = (await listen()).body;
    await s.authorized();
    expect(pendingOf(listener.id)).toBe(1);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + IDLE_EXPIRY_MS + 1000 });
    expect((await s.get('/sandbox/v1/webhook_listeners')).body.listeners).toEqual([]);
    expect((await receive(listener.id)).status).toBe(404);
    // The next registration sweeps it away (as the sweep every few seconds does).
    await listen({ forward_url: 'http://localhost:3001/' });
    expect(rowsOf(listener.id)).toBe(0);
    expect(pendingOf(listener.id)).toBe(0);
  });

  it('keeps one that keeps asking', async () => {
    const listener = (await listen()).body;
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start + IDLE_EXPIRY_MS - 1000 });
    expect((await receive(listener.id)).status).toBe(200);
    vi.setSystemTime(start + IDLE_EXPIRY_MS + 1000);
    const { body } = await s.get('/sandbox/v1/webhook_listeners');
    expect(body.listeners.map((l: { id: string }) => l.id)).toEqual([listener.id]);
    expect(Date.parse(body.listeners[0].expires_at)).toBeGreaterThan(Date.now());
  });
});

describe("the listeners' leases", () => {
  it('offers a claimed delivery again once its lease ran out unreported; only the current claim holds it', async () => {
    // Leases are on the wall clock the database's sandboxes share: faked, so that 30 s pass at once.
    vi.useFakeTimers({ toFake: ['Date'] });
    const hub = new WebhookListeners(sqliteBackend(s.store));
    try {
      const listener = (await listen()).body;
      await s.authorized();
      const stored = s.store.listeners.liveOne('dev', listener.id, hub.cutoff())!;
      const [claimed] = await sqliteBackend(s.store).transaction(() => hub.claim(stored));
      expect(await sqliteBackend(s.store).transaction(() => hub.claim(stored))).toEqual([]);
      vi.advanceTimersByTime(LEASE_MS - 1);
      expect(await hub.hasDue(stored)).toBe(false);
      vi.advanceTimersByTime(1);
      expect(await hub.hasDue(stored)).toBe(true);
      expect(await hub.held(listener.id, claimed!.delivery.id, claimed!.claimId)).toBeUndefined();
      const [again] = await sqliteBackend(s.store).transaction(() => hub.claim(stored));
      expect(again!.delivery.id).toBe(claimed!.delivery.id);
      expect(await hub.held(listener.id, claimed!.delivery.id, claimed!.claimId)).toBeUndefined();
      expect(await hub.held(listener.id, claimed!.delivery.id, again!.claimId)).toBeDefined();
    } finally {
      hub.close();
    }
  });

  it('removes the listeners past their idle expiry in every channel, and keeps the others', async () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    let now = 1_000_000;
    const hub = new WebhookListeners(sqliteBackend(store), { now: () => now });
    try {
      const endpoint = {
        id: 'wl_a',
        channel: 'dev',
        url: FORWARD,
        event_types: ['*'],
        secret: 'whsec_x',
        mode: 'signed' as const,
        created_at: new Date().toISOString(),
      };
      store.listeners.add({ ...endpoint, polled_at: now });
      store.listeners.add({ ...endpoint, id: 'wl_b', channel: 'other', polled_at: now + 30_000 });
      now += IDLE_EXPIRY_MS + 1;
      await sqliteBackend(store).transaction(() => hub.removeExpired());
      expect(db.prepare("SELECT id FROM webhook_endpoints WHERE origin = 'listener'").pluck().all()).toEqual(['wl_b']);
    } finally {
      hub.close();
      db.close();
    }
  });
});
