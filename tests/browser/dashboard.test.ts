// The dashboard in a real browser: Debian's chromium, headless, driven by playwright-core. The key
// is typed in; a flow driven through the API (create, checkout, capture, refund, with a receiver
// that answers 500 then 204) shows on the page without a reload; Resend makes a new attempt; the
// key is in no URL the page asks for; a page of another origin can neither read the data nor
// resend; axe-core finds nothing; each step leaves a screenshot (test-results/screenshots/dashboard-*.png).
//
// "Within a second" is the page's own time, not the machine's: the page's clock is Playwright's,
// and the test moves it on only while none of the page's requests is in flight, so a loaded
// machine slows the test but cannot fail it, and a page that needs more than a second of its own
// polling does.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { axeViolations, launchChromium, screenshot } from '../support/browser.js';
import { startDispatcher, type Dispatcher } from '../../src/sandbox/delivery/dispatcher.js';
import { repoRoot } from '../../testkit/contract.js';
import { DEV_KEY, sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';
import { autoSubmittingForm, framingPage, startSite, type Site } from '../support/site.js';
import { startReceiver, until, type Receiver } from '../../testkit/webhook-receiver.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

const SECRET = 'whsec_dashboard';
const RESULTS = path.join(repoRoot, 'test-results');
/** A host of no loopback address by name, so that the API's default CORS (this machine's pages) does not answer it. */
const HOSTILE_HOST = 'hostile.test';
/** How much of its own time the page may take to show a change. */
const PAGE_TIME_MS = 1000;
const STEP_MS = 50;

let browser: Browser;
let s: TestSandbox;
let dispatcher: Dispatcher;
let receiver: Receiver;
let base: string;
let page: Page;
/** Every URL the dashboard's tab asked for. */
let requests: string[];
let inFlight: number;
let consoleLines: string[];
/** The page time each change took to show, and the machine's time, for the record. */
const latencies: Array<{ change: string; pageMs: number; wallMs: number }> = [];

beforeAll(async () => {
  browser = await launchChromium([`--host-resolver-rules=MAP ${HOSTILE_HOST} 127.0.0.1`]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  if (latencies.length > 0)
    writeFileSync(path.join(RESULTS, 'dashboard-latency.json'), `${JSON.stringify(latencies, null, 2)}\n`);
});

beforeEach(async () => {
  s = testSandbox();
  base = await s.app.listen({ host: '127.0.0.1', port: 0 });
  // The receiver answers its first delivery 500, and every later one 204.
  receiver = await startReceiver({ secret: SECRET, answer: (n) => (n === 0 ? 'fail' : 'ok') });
  await s.post('/sandbox/v1/webhook_endpoints', { url: receiver.url, secret: SECRET });
  dispatcher = startDispatcher(sqliteBackend(s.store), { tickMs: 20 });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  requests = [];
  inFlight = 0;
  consoleLines = [];
  page.on('request', (request) => {
    requests.push(request.url());
    inFlight++;
  });
  page.on('requestfinished', () => inFlight--);
  page.on('requestfailed', () => inFlight--);
  page.on('console', (message) => consoleLines.push(message.text()));
});
afterEach(async () => {
  await page.close();
  await dispatcher.stop();
  await receiver.close();
  await s.close();
});

const shot = (name: string) => screenshot(page, `dashboard-${name}`);

/** Pauses the page's clock: from then on its timers fire only when the test moves it on. */
const pauseClock = async () => page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);

async function expectAccessible() {
  // axe waits on timers of its own: the page's time flows while it runs, outside any measured change.
  await page.clock.resume();
  expect(await axeViolations(page)).toEqual([]);
  await pauseClock();
}

/** The text of an element of the page, '' when absent. */
const textOf = (selector: string) => page.evaluate((css) => document.querySelector(css)?.textContent ?? '', selector);

/** Waits, in the machine's time, until none of the page's requests is in flight. */
async function settle() {
  await new Promise((resolve) => setTimeout(resolve, 10));
  await until(() => inFlight <= 0, 20_000, "the page's requests");
}

/**
 * Moves the page's clock on, a step at a time and only while it waits for no answer, until
 * `shown` holds; fails when that takes more than PAGE_TIME_MS of the page's time.
 */
async function showsWithinASecond(change: string, shown: () => Promise<boolean>) {
  const start = Date.now();
  for (let pageMs = 0; pageMs <= PAGE_TIME_MS; pageMs += STEP_MS) {
    await settle();
    if (await shown()) {
      latencies.push({ change, pageMs, wallMs: Date.now() - start });
      return;
    }
    await page.clock.runFor(STEP_MS);
  }
  throw new Error(`"${change}" did not show within ${PAGE_TIME_MS} ms of the page's time`);
}

const contains =
  (selector: string, ...texts: string[]) =>
  async () => {
    const text = await textOf(selector);
    return texts.every((t) => text.includes(t));
  };

/** The API, as the partner's server calls it. */
async function api(method: string, url: string, body?: unknown) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { 'x-service-api-key': DEV_KEY, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.status, `${method} ${url}`).toBe(200);
  return response.json() as Promise<any>;
}

/** The attempts the events list shows for one event. */
const attemptRows = (eventId: string) =>
  page.evaluate((id) => document.querySelectorAll(`[aria-labelledby="event-${id}-title"] tbody tr`).length, eventId);

/** A session through its checkout, which fires an event. */
async function checkedOut() {
  const { id } = await api('POST', '/payments/v1/create_payment_session', sessionRequest());
  await api('POST', `/sandbox/v1/payment_sessions/${id}/complete_checkout`, {});
}

async function openWithKey() {
  await page.clock.install();
  await page.goto(`${base}/dashboard/`);
  await expectAccessible();
  await shot('key');
  await page.fill('#api-key', DEV_KEY);
  await page.press('#api-key', 'Enter');
  await showsWithinASecond('the channel, empty', contains('#sessions', 'No payment session yet'));
  // A reload would drop this mark.
  await page.evaluate(() => Object.assign(window, { notReloaded: true }));
}

describe('the dashboard', () => {
  it('shows a flow through the API as it happens, without a reload, and Resend makes a new attempt', async () => {
    await openWithKey();

    const order = {
      total_amount: 7799,
      amount_details: { total_additional_charges: 800, total_discounts: 0 },
      kind: 'authorization',
      success_url: 'https://shop.example/ok',
      failure_url: 'https://shop.example/ko',
      customer_email: 'jane@example.com',
      order_items: [
        {
          name: 'Blood pressure monitor',
          sku: 'BPM-200',
          item_id: 'line-1',
          quantity: 1,
          price: 6999,
          amount_details: { total_additional_charges: 0, total_discounts: 0 },
        },
      ],
    };
    const { id } = await api('POST', '/payments/v1/create_payment_session', order);
    await showsWithinASecond('a created session', contains('#sessions', id, 'pending', '$77.99'));
    await page.click(`#select-${id}`);
    await showsWithinASecond('its timeline', contains('#detail', 'Created $77.99', 'no webhook'));

    await api('POST', `/sandbox/v1/payment_sessions/${id}/complete_checkout`, {});
    await showsWithinASecond('the authorization', contains('#detail', 'Authorized', 'fired payment_session_complete'));
    const [authorized] = (await api('GET', '/sandbox/v1/outbox')).events as Array<{ id: string }>;
    // The receiver answers the first attempt 500, and the retry (a second on) 204.
    await until(() => receiver.accepted.length === 1, 20_000, 'the retry');
    await showsWithinASecond(
      'the failed attempt and its retry',
      async () =>
        (await attemptRows(authorized!.id)) === 2 &&
        (await contains('#events', '500', 'Internal Server Error', '204')()),
    );
    await shot('deliveries');

    await api('POST', `/payments/v1/payment_session/${id}/capture`, {
      total_amount: 7799,
      idempotency_key: 'dash-capture',
    });
    await showsWithinASecond('the capture', contains('#detail', 'Captured $77.99'));
    await api('POST', '/payments/v1/refund', {
      payment_id: id,
      amount: 1000,
      idempotency_key: 'dash-refund',
      reason: 'customer_request',
    });
    await showsWithinASecond('the refund', contains('#detail', 'Refunded $10.00', 'Partially Refunded'));
    await showsWithinASecond(
      'the amounts in the list',
      contains('#sessions tr.selected', 'captured', 'Partially Refunded', '$77.99', '$10.00'),
    );
    const dispute = await api('POST', `/sandbox/v1/payment_sessions/${id}/disputes`, { amount: 2000 });
    await showsWithinASecond(
      'the dispute',
      async () =>
        (await contains('#disputes', dispute.dispute_id, 'needs_response', '$20.00')()) &&
        (await contains('#detail', 'Dispute opened $20.00 (needs_response)', 'fired dispute.created')()),
    );
    const provision = await api('POST', '/api/v1/payment_tokens/create', {
      customer_email: 'jane@example.com',
      success_url: 'https://shop.example/ok',
      failure_url: 'https://shop.example/ko',
    });
    await api('POST', `/sandbox/v1/provision_requests/${provision.provision_token_request_id}/complete`, {
      letter: 'approved',
    });
    await showsWithinASecond('the payment token', contains('#tokens', 'jane@example.com', 'ending 4242'));
    await expectAccessible();
    await shot('flow');

    // A payload opened stays open while the list changes around it.
    await page.click(`#payload-${authorized!.id} summary`);
    const before = receiver.accepted.length;
    await page.click(`#resend-${authorized!.id}`);
    await until(() => receiver.accepted.length === before + 1, 20_000, 'the redelivery');
    expect(receiver.accepted.at(-1)!.body.webhook_delivery_id).toBe(receiver.accepted[0]!.body.webhook_delivery_id);
    await showsWithinASecond('the new attempt', async () => (await attemptRows(authorized!.id)) === 3);
    expect(
      await page.evaluate(
        (id) => (document.getElementById(`payload-${id}`) as HTMLDetailsElement).open,
        authorized!.id,
      ),
    ).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`resend-${authorized!.id}`);
    expect(await textOf('#status')).toContain(`Event ${authorized!.id} queued again for 1 endpoint`);
    await expectAccessible();
    await shot('resend');

    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    // The key: in the tab's sessionStorage only, in no URL the page asked for, and in no other storage.
    expect(requests.filter((url) => url.includes(DEV_KEY) || decodeURIComponent(url).includes(DEV_KEY))).toEqual([]);
    expect(requests.every((url) => url.startsWith(`${base}/`))).toBe(true);
    expect(await page.evaluate(() => [Object.values(sessionStorage), localStorage.length, document.cookie])).toEqual([
      [DEV_KEY],
      0,
      '',
    ]);
    // The page asked for the revision, its lists, the timeline, and Resend; nothing else.
    const paths = new Set(
      requests.map((url) =>
        new URL(url).pathname.replace(/[0-9a-f-]{36}|\/\d+\//g, (m) => (m.startsWith('/') ? '/{n}/' : '{id}')),
      ),
    );
    expect([...paths].sort()).toEqual(
      [
        '/api/v1/payment_tokens',
        '/dashboard/',
        '/dashboard/outbox/{n}/redeliver',
        '/favicon.ico',
        '/payments/v1/payment_sessions',
        '/sandbox/v1/payment_sessions/{id}/timeline',
        '/sandbox/v1/revision',
        '/sandbox/v1/webhook_events',
        '/v1/disputes',
      ].filter((p) => p !== '/favicon.ico' || paths.has(p)),
    );
    expect(consoleLines.filter((line) => /Content Security Policy|Refused|error/i.test(line))).toEqual([]);
  });

  it('forgets the key on request, and says when the sandbox refuses one', async () => {
    await openWithKey();
    await page.click('#forget');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await page.isHidden('#channel')).toBe(true);
    await page.fill('#api-key', 'not-a-key');
    await page.press('#api-key', 'Enter');
    await showsWithinASecond('the refusal', contains('#status', 'refused this key (401)'));
    // A refused key is not kept either.
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await page.isHidden('#channel')).toBe(true);
    await expectAccessible();
    await shot('refused');
  });

  it("refuses a Resend of its own origin without the page's token, in the contract's error shape", async () => {
    await openWithKey();
    await checkedOut();
    const attempts = () => s.db.prepare('SELECT count(*) FROM deliveries').pluck().get() as number;
    const before = attempts();
    const forged = await page.evaluate(async (key) => {
      const response = await fetch('/dashboard/outbox/1/redeliver', {
        method: 'POST',
        headers: { 'x-service-api-key': key },
      });
      return { status: response.status, body: (await response.json()) as unknown };
    }, DEV_KEY);
    expect(forged).toEqual({
      status: 403,
      body: { error: 'Forbidden', message: expect.stringContaining('x-dashboard-token') },
    });
    expect(attempts()).toBe(before);
  });
});

describe('a page of another origin', () => {
  let hostile: Site;
  beforeEach(async () => {
    hostile = await startSite();
  });
  afterEach(async () => hostile.close());

  /** A page of the hostile site, under a name that is no loopback address. */
  const serveHostile = (pathname: string, html: string) =>
    hostile.serve(pathname, html).replace(/^http:\/\/localhost:/, `http://${HOSTILE_HOST}:`);

  it('can neither read the dashboard or its data, nor resend, nor frame it', async () => {
    await checkedOut();
    await until(() => receiver.arrived.length >= 1, 20_000, 'the first attempt');
    const eventId = ((await api('GET', '/sandbox/v1/outbox')).events as Array<{ id: string }>)[0]!.id;
    // Even with a real token in hand, as if it had leaked.
    const token = /"token":"([^"]+)"/.exec(await (await fetch(`${base}/dashboard/`)).text())![1]!;
    const deliveries = () => s.db.prepare('SELECT count(*) FROM deliveries').pluck().get() as number;
    const before = deliveries();

    const attempt = `(async () => {
      const base = ${JSON.stringify(base)}, key = ${JSON.stringify(DEV_KEY)}, token = ${JSON.stringify(token)}, id = ${JSON.stringify(eventId)};
      const tryIt = async (name, run) => { try { const r = await run(); return [name, 'read', r.type, r.status]; } catch (e) { return [name, 'refused', e.name]; } };
      window.results = await Promise.all([
        tryIt('webhook events', () => fetch(base + '/sandbox/v1/webhook_events', { headers: { 'x-service-api-key': key } })),
        tryIt('payment sessions', () => fetch(base + '/payments/v1/payment_sessions', { headers: { 'x-service-api-key': key } })),
        tryIt('the page', () => fetch(base + '/dashboard/')),
        tryIt('resend', () => fetch(base + '/dashboard/outbox/' + id + '/redeliver', { method: 'POST', headers: { 'x-service-api-key': key, 'x-dashboard-token': token } })),
        tryIt('resend, no-cors', () => fetch(base + '/dashboard/outbox/' + id + '/redeliver', { method: 'POST', mode: 'no-cors', headers: { 'x-service-api-key': key, 'x-dashboard-token': token } })),
      ]);
    })();`;
    const scripted = serveHostile(
      '/attack',
      `<!doctype html><html lang="en"><head><title>Prize</title></head><body><main><h1>Prize</h1></main><script>${attempt}</script></body></html>`,
    );
    const refusals: number[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/dashboard/outbox/') && response.request().method() === 'POST')
        refusals.push(response.status());
    });
    await page.goto(scripted);
    await page.waitForFunction(() => (window as unknown as { results?: unknown }).results !== undefined);
    const results = await page.evaluate(() => (window as unknown as { results: unknown[] }).results);
    // A no-cors request goes, opaque to the page and without the key's header, which no-cors drops.
    expect(results).toEqual([
      ['webhook events', 'refused', 'TypeError'],
      ['payment sessions', 'refused', 'TypeError'],
      ['the page', 'refused', 'TypeError'],
      ['resend', 'refused', 'TypeError'],
      ['resend, no-cors', 'read', 'opaque', 0],
    ]);
    await until(() => refusals.length > 0, 10_000, 'the no-cors answer');
    expect(refusals).toEqual([401]);

    // A form posted from there: the browser navigates to the refusal.
    const form = serveHostile(
      '/form',
      autoSubmittingForm(`${base}/dashboard/outbox/${eventId}/redeliver`, { 'x-dashboard-token': token }),
    );
    const [answer] = await Promise.all([page.waitForResponse((r) => r.url().includes('/redeliver')), page.goto(form)]);
    expect(answer.status()).toBe(401);
    expect(await answer.json()).toEqual({ error: 'Unauthorized', message: expect.any(String) });

    // Framed, the dashboard does not load.
    await page.goto(serveHostile('/frame', framingPage(`${base}/dashboard/`)));
    const framed = page.frames().find((frame) => frame !== page.mainFrame());
    expect(await framed?.evaluate(() => document.getElementById('api-key') !== null).catch(() => false)).toBe(false);

    expect(deliveries()).toBe(before);
  });
});
