// The dashboard's server side, in process: the page's headers (its policy, no frame, no CORS), the
// Resend route's checks in their order (key, origin, token) and its refusals, and the three helpers
// it reads (a session's timeline, the webhook events with their attempts, the revision), with the
// indexes their pages are read on.
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formTokens } from '../../src/sandbox/checkout/form-token.js';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { ATTEMPTS_PER_EVENT } from '../../src/sandbox/store/activity.js';
import { DEV_KEY, OTHER_KEY, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';
import { planOf, statementsRun } from '../support/statements.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

const HOST = '127.0.0.1:4010';
const OWN = { host: HOST, origin: `http://${HOST}`, 'sec-fetch-site': 'same-origin' };

async function page(app = s.app) {
  const reply = await app.inject({ method: 'GET', url: '/dashboard/', headers: { host: HOST } });
  const token = /<script type="application\/json" id="dashboard-settings">\{"token":"([^"]+)"\}<\/script>/.exec(
    reply.body,
  )?.[1];
  return { reply, token: token! };
}

/** Resend as the page sends it, with `headers` changed. */
const resend = (eventId: string, headers: Record<string, string>, key: string | null = DEV_KEY) =>
  s.call('POST', `/dashboard/outbox/${eventId}/redeliver`, { key, headers, undocumented: true });

/** Deliveries queued, over every event: what a Resend adds. */
const deliveries = () => s.db.prepare('SELECT count(*) FROM deliveries').pluck().get() as number;

/** A captured one-time payment with an endpoint subscribed, and the id of its first event. */
async function capturedWithEndpoint() {
  await s.post('/sandbox/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hooks', secret: 'whsec_x' });
  const id = await s.capturedOneTime();
  const events = await s.outbox();
  return { id, eventId: events[0]!.id };
}

const inlineHash = (html: string, tag: 'script' | 'style') => {
  const text = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(html)![1]!;
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
};

describe('the dashboard page', () => {
  it('needs no key, holds no data, and allows only its own style, script and origin', async () => {
    await s.createSession();
    const { reply } = await page();
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    const policy = String(reply.headers['content-security-policy']).split('; ');
    expect(policy).toEqual([
      "default-src 'none'",
      `style-src ${inlineHash(reply.body, 'style')}`,
      `script-src ${inlineHash(reply.body, 'script')}`,
      "connect-src 'self'",
      "form-action 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ]);
    expect(reply.headers).toMatchObject({
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
    });
    expect(reply.body).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('carries no CORS header, even for a page of this machine, to which the API answers one', async () => {
    const origin = 'http://localhost:5173';
    const api = await s.get('/sandbox/v1/revision', { headers: { origin } });
    expect(api.headers['access-control-allow-origin']).toBe(origin);
    const { reply } = await page();
    const fromThere = await s.app.inject({ method: 'GET', url: '/dashboard/', headers: { origin } });
    for (const answer of [reply, fromThere]) expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('moves /dashboard to /dashboard/, and renders a new token each time, each of which Resend takes', async () => {
    const moved = await s.app.inject({ method: 'GET', url: '/dashboard' });
    expect([moved.statusCode, moved.headers.location]).toEqual([308, '/dashboard/']);
    const [a, b] = [await page(), await page()];
    expect(a.token).not.toBe(b.token);
    const { eventId } = await capturedWithEndpoint();
    for (const token of [a.token, b.token])
      expect((await resend(eventId, { ...OWN, 'x-dashboard-token': token })).status).toBe(200);
  });

  it('keeps the script from closing its element, and the settings block from running', async () => {
    const { reply } = await page();
    const script = /<script>([\s\S]*?)<\/script>/.exec(reply.body)![1]!;
    expect(script).not.toMatch(/<\/script|<!--/i);
    expect(reply.body.match(/<script[ >]/g)).toHaveLength(2);
    expect(reply.body).toContain('<script type="application/json" id="dashboard-settings">');
  });
});

describe('Resend', () => {
  it('queues the event again, as the redeliver helper does, from the page with its token', async () => {
    const { eventId } = await capturedWithEndpoint();
    const before = deliveries();
    const { token } = await page();
    const reply = await resend(eventId, { ...OWN, 'x-dashboard-token': token });
    expect(reply.status).toBe(200);
    const [event] = (await s.outbox()).filter((e) => e.id === eventId);
    expect(reply.body).toEqual({
      event_id: eventId,
      webhook_delivery_id: event!.payload.webhook_delivery_id,
      deliveries: 1,
    });
    expect(deliveries()).toBe(before + 1);
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    expect(reply.headers['cache-control']).toBe('no-store');
  });

  it("refuses, in the contract's error shape and changing nothing: no key 401, another origin or no token 403, another channel's event 404", async () => {
    const { eventId } = await capturedWithEndpoint();
    const { token } = await page();
    const value = token.split('.')[0]!;
    const before = deliveries();
    const cases: Array<[string, Record<string, string>, string | null, number, string]> = [
      ['no key', { ...OWN, 'x-dashboard-token': token }, null, 401, 'Unauthorized'],
      ['an unknown key', { ...OWN, 'x-dashboard-token': token }, 'nope', 401, 'Unauthorized'],
      ['no Origin (not a browser page)', { host: HOST, 'x-dashboard-token': token }, DEV_KEY, 403, 'Forbidden'],
      [
        'another origin',
        { ...OWN, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'x-dashboard-token': token },
        DEV_KEY,
        403,
        'Forbidden',
      ],
      [
        'another port of this host',
        { ...OWN, origin: 'http://127.0.0.1:5173', 'sec-fetch-site': 'same-site', 'x-dashboard-token': token },
        DEV_KEY,
        403,
        'Forbidden',
      ],
      ['an opaque origin', { ...OWN, origin: 'null', 'x-dashboard-token': token }, DEV_KEY, 403, 'Forbidden'],
      [
        'a cross-site fetch that names this origin',
        { ...OWN, 'sec-fetch-site': 'cross-site', 'x-dashboard-token': token },
        DEV_KEY,
        403,
        'Forbidden',
      ],
      ['no token', OWN, DEV_KEY, 403, 'Forbidden'],
      [
        'a forged token',
        { ...OWN, 'x-dashboard-token': `${token.split('.')[0]}.${'A'.repeat(43)}` },
        DEV_KEY,
        403,
        'Forbidden',
      ],
      [
        "a token of another page kind (the checkout form's, for the same value)",
        {
          ...OWN,
          'x-dashboard-token': `${value}.${formTokens(() => s.store.pageSecret.get()).issue('checkout', value)}`,
        },
        DEV_KEY,
        403,
        'Forbidden',
      ],
      ["another channel's event", { ...OWN, 'x-dashboard-token': token }, OTHER_KEY, 404, 'NotFound'],
    ];
    for (const [why, headers, key, status, error] of cases) {
      const reply = await resend(eventId, headers, key);
      expect([why, reply.status, reply.body.error, typeof reply.body.message]).toEqual([why, status, error, 'string']);
      expect(Object.keys(reply.body).sort()).toEqual(['error', 'message']);
      expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect(deliveries()).toBe(before);
  });

  it('checks the key before anything else, and the origin before the token', async () => {
    const { eventId } = await capturedWithEndpoint();
    expect((await resend(eventId, { origin: 'https://evil.example' }, null)).status).toBe(401);
    expect((await resend(eventId, { origin: 'https://evil.example' })).body.message).toMatch(/own page/);
  });

  it('accepts a token rendered by another sandbox on the same database (the page secret is stored)', async () => {
    const { eventId } = await capturedWithEndpoint();
    const other = buildSandbox({ store: sqliteBackend(s.store) });
    try {
      const { token } = await page(other);
      expect((await resend(eventId, { ...OWN, 'x-dashboard-token': token })).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('reads no body, whatever its type, and refuses a preflight without CORS headers', async () => {
    const { eventId } = await capturedWithEndpoint();
    const { token } = await page();
    const sent = await s.app.inject({
      method: 'POST',
      url: `/dashboard/outbox/${eventId}/redeliver`,
      headers: { ...OWN, 'x-service-api-key': DEV_KEY, 'x-dashboard-token': token, 'content-type': 'text/plain' },
      payload: '{not json',
    });
    expect(sent.statusCode).toBe(200);
    const preflight = await s.app.inject({
      method: 'OPTIONS',
      url: `/dashboard/outbox/${eventId}/redeliver`,
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-service-api-key, x-dashboard-token',
      },
    });
    expect(preflight.statusCode).toBe(405);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-headers']).toBeUndefined();
  });
});

describe('the helpers the dashboard reads', () => {
  it("gives a session's timeline: its record's steps and the events it fired, a page at a time", async () => {
    const id = await s.authorized();
    expect((await s.post(`${s.session(id)}/capture`, { total_amount: 7799, idempotency_key: 'cap-1' })).status).toBe(
      200,
    );
    expect(
      (
        await s.post('/payments/v1/refund', {
          payment_id: id,
          amount: 1000,
          idempotency_key: 'ref-1',
          reason: 'customer_request',
        })
      ).status,
    ).toBe(200);
    await s.createSession();
    const whole = await s.get(`/sandbox/v1/payment_sessions/${id}/timeline`);
    expect(whole.status).toBe(200);
    expect(whole.body.entries.map((e: any) => [e.step, e.amount, e.webhook?.event_type ?? null])).toEqual([
      ['created', 7799, null],
      ['authorized', null, 'payment_session_complete'],
      ['captured', 7799, 'payment_session_complete'],
      ['refunded', 1000, null],
    ]);
    expect([whole.body.has_more, whole.body.next_after]).toEqual([false, null]);

    const first = await s.get(`/sandbox/v1/payment_sessions/${id}/timeline?limit=1`);
    expect(first.body.entries.map((e: any) => e.step)).toEqual(['created', 'authorized']);
    expect(first.body.has_more).toBe(true);
    const second = await s.get(`/sandbox/v1/payment_sessions/${id}/timeline?limit=1&after=${first.body.next_after}`);
    expect(second.body.entries.map((e: any) => e.step)).toEqual(['captured', 'refunded']);
    expect(second.body.has_more).toBe(false);
  });

  it("refuses a timeline cursor that is no event of the session, a bad limit, and another channel's session", async () => {
    const id = await s.capturedOneTime();
    const other = await s.capturedOneTime();
    const otherEvent = (await s.get(`/sandbox/v1/payment_sessions/${other}/timeline`)).body.entries.find(
      (e: any) => e.webhook,
    ).webhook.event_id;
    expect((await s.get(`/sandbox/v1/payment_sessions/${id}/timeline?after=${otherEvent}`)).body.error).toBe(
      'InvalidRequest',
    );
    for (const query of ['limit=0', 'limit=101', 'after=x'])
      expect((await s.get(`/sandbox/v1/payment_sessions/${id}/timeline?${query}`)).status).toBe(400);
    expect((await s.get(`/sandbox/v1/payment_sessions/${id}/timeline`, { key: OTHER_KEY })).status).toBe(404);
  });

  it('lists webhook events newest first, a page at a time, each with its latest attempts', async () => {
    for (let i = 0; i < 3; i++) await s.capturedOneTime();
    const all = (await s.outbox()).map((e) => e.id);
    const first = await s.get('/sandbox/v1/webhook_events?limit=4');
    expect(first.body.events.map((e: any) => e.id)).toEqual(all.slice(-4).reverse());
    const rest = await s.get(`/sandbox/v1/webhook_events?limit=4&before=${first.body.next_before}`);
    expect(rest.body.events.map((e: any) => e.id)).toEqual(all.slice(0, -4).reverse());
    expect([rest.body.has_more, rest.body.next_before]).toEqual([false, null]);
    expect((await s.get('/sandbox/v1/webhook_events', { key: OTHER_KEY })).body.events).toEqual([]);
    for (const query of ['limit=0', 'limit=101', 'before=-1'])
      expect((await s.get(`/sandbox/v1/webhook_events?${query}`)).status).toBe(400);
  });

  it("shows an event's newest attempts first, at most five, and says when there are more", async () => {
    const { eventId } = await capturedWithEndpoint();
    const [delivery] = s.db
      .prepare('SELECT id FROM deliveries WHERE outbox_id = ?')
      .pluck()
      .all(Number(eventId)) as number[];
    const log = s.db.prepare(
      "INSERT INTO delivery_attempts (channel, delivery_id, attempted_at, status, latency_ms, response, error) VALUES ('dev', ?, ?, ?, 3, ?, NULL)",
    );
    for (let i = 0; i < ATTEMPTS_PER_EVENT + 2; i++)
      log.run(
        delivery,
        `2026-11-20T10:00:0${i}.000Z`,
        500 + i,
        JSON.stringify({ text: `answer ${i}`, truncated: false, body_bytes: 8 }),
      );
    const [event] = (await s.get('/sandbox/v1/webhook_events?limit=100')).body.events.filter(
      (e: any) => e.id === eventId,
    );
    expect(event.attempts.map((a: any) => a.status)).toEqual([506, 505, 504, 503, 502]);
    expect(event.attempts[0]).toMatchObject({
      event_id: eventId,
      url: 'http://127.0.0.1:9/hooks',
      response_excerpt: { text: 'answer 6' },
      delivery_status: 'pending',
    });
    expect(event.more_attempts).toBe(true);
  });

  it('changes the revision with every write, whatever it wrote, and keeps it while nothing is written', async () => {
    const revision = async (key = DEV_KEY) => (await s.get('/sandbox/v1/revision', { key })).body.revision as string;
    const idle = await revision();
    expect(await revision()).toBe(idle);
    expect(await revision(OTHER_KEY)).not.toBe(idle);
    const id = await s.capturedOneTime();
    const afterCapture = await revision();
    expect(afterCapture).not.toBe(idle);
    // A refund fires no webhook, and the revision still moves.
    await s.post('/payments/v1/refund', {
      payment_id: id,
      amount: 100,
      idempotency_key: 'r',
      reason: 'customer_request',
    });
    expect(await revision()).not.toBe(afterCapture);
    // Another channel's write moves it too: it is a cue to read again, nothing more.
    const beforeOther = await revision();
    await s.createSession({}, { key: OTHER_KEY });
    expect(await revision()).not.toBe(beforeOther);
  });

  it('reads every page on an index, never the whole table, and the revision reads no table', async () => {
    const id = await s.capturedOneTime();
    const { activity } = s.store;
    const plans = statementsRun(s.db, () => {
      activity.sessionEvents('dev', id, { after: 0, limit: 10 });
      activity.sessionEventTime('dev', id, 1);
      const newest = activity.newestEvents('dev', { before: Number.MAX_SAFE_INTEGER, limit: 10 });
      activity.latestAttempts(newest.rows[0]!);
    }).map((statement) => planOf(s.db, statement));
    expect(plans[0]).toMatch(/SEARCH outbox USING INDEX outbox_payment_session/);
    expect(plans[1]).toMatch(/SEARCH outbox USING INTEGER PRIMARY KEY/);
    expect(plans[2]).toMatch(/SEARCH outbox USING INDEX outbox_channel \(channel=\? AND id<\?\)/);
    expect(plans[3]).toMatch(/SEARCH d USING INDEX deliveries_outbox/);
    for (const plan of plans) expect(plan).not.toMatch(/\bSCAN\b(?! CONSTANT)/);
    const revision = statementsRun(s.db, () => activity.revision('dev')).map((statement) => statement.sql);
    expect(revision.sort()).toEqual(['PRAGMA data_version', 'SELECT total_changes()']);
  });
});
