// The hosted pages in a real browser: Debian's chromium, headless, driven by playwright-core. Each
// path is clicked through as a customer would; each asserts the final URL, the session through the
// API, and the webhook a verifying receiver got. axe-core checks every page (zero violations),
// every request a page makes stays on the sandbox's origin, no page breaks its own
// Content-Security-Policy, and each step leaves a screenshot in test-results/screenshots/. Three
// origins take part: the sandbox, the partner (the receiver, where success_url and failure_url
// lead), and a foreign site, whose forms and frames must get nothing.
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { axeViolations, launchChromium, screenshot } from '../support/browser.js';
import { startDispatcher, type Dispatcher } from '../../src/sandbox/delivery/dispatcher.js';
import { noCharges, sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';
import { autoSubmittingForm, framingPage, startSite, type Site } from '../support/site.js';
import { startReceiver, until, type Receiver } from '../../testkit/webhook-receiver.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

const SECRET = 'whsec_browser';

let browser: Browser;
let s: TestSandbox;
let dispatcher: Dispatcher;
let receiver: Receiver;
let base: string;
let page: Page;
let requests: string[];
let foreign: Site;
/** What the browser logged: policy violations, refused frames and messages among them. */
let consoleLines: string[];
/** Set by a test that provokes a refusal, which the browser logs. */
let refusalsExpected: boolean;

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => browser?.close());

beforeEach(async () => {
  s = testSandbox();
  base = await s.app.listen({ host: '127.0.0.1', port: 0 });
  receiver = await startReceiver({ secret: SECRET });
  await s.post('/sandbox/v1/webhook_endpoints', { url: receiver.url, secret: SECRET });
  dispatcher = startDispatcher(sqliteBackend(s.store), { tickMs: 20 });
  foreign = await startSite();
  page = await browser.newPage();
  requests = [];
  page.on('request', (request) => requests.push(request.url()));
  consoleLines = [];
  refusalsExpected = false;
  page.on('console', (message) => consoleLines.push(message.text()));
});
afterEach(async () => {
  // A normal flow breaks none of its pages' policies: each script and style it needs is allowed.
  if (!refusalsExpected)
    expect(consoleLines.filter((line) => /Content Security Policy|postMessage/.test(line))).toEqual([]);
  await page.close();
  await foreign.close();
  await dispatcher.stop();
  await receiver.close();
  await s.close();
});

const shot = (name: string) => screenshot(page, `${name}`);

/** axe-core on the page, or on a frame of it (the checkout a partner's page frames): no violation. */
async function expectAccessible(target: Pick<Page, 'evaluate'> = page) {
  expect(await axeViolations(target)).toEqual([]);
}

/** The checkout the top page frames. */
const framedCheckout = () => page.frames().find((frame) => frame.url().startsWith(base))!;

/** A URL the API answered, on the sandbox the browser reaches (the API was called in-process). */
const onSandbox = (url: string) => {
  const { pathname, search } = new URL(url);
  return `${base}${pathname}${search}`;
};

/** Every request went to the sandbox, but the last navigation, to the partner's own page. */
function expectOnlySandboxRequests(exceptPrefix: string) {
  expect(requests.filter((url) => !url.startsWith(base) && !url.startsWith(exceptPrefix))).toEqual([]);
}

async function createSession(overrides: Record<string, unknown> = {}) {
  const { body } = await s.post(
    '/payments/v1/create_payment_session',
    sessionRequest({
      success_url: `${receiver.origin}/ok/{{payment_session_id}}`,
      failure_url: `${receiver.origin}/ko/{{payment_session_id}}`,
      customer_state: 'CA',
      ...overrides,
    }),
  );
  return body.id as string;
}

/** Answers the survey's question and enters a card, on a page or in the checkout a page frames. */
async function fillCheckout(card: string, expiry = '12/34', within: Pick<Page, 'locator'> | FrameLocator = page) {
  await within.locator('#eligibility-0').check();
  await within.locator('#card_number').fill(card);
  await within.locator('#card_expiry').fill(expiry);
  await within.locator('#card_cvc').fill('123');
}

const completions = (id: string) =>
  receiver.accepted.filter((d) => d.body.data.payment_id === id).map((d) => d.body.data.status);
const status = async (id: string) => (await s.detail(id)).body.status;

describe('the hosted checkout of a payment session', () => {
  it('eligible and paid, with the keyboard alone: the state prefilled, a confirmation, then success_url', async () => {
    const id = await createSession();
    await page.goto(`${base}/checkout/${id}`);
    expect(await page.inputValue('#state')).toBe('CA');
    expect(await page.textContent('#total')).toBe('$77.99');
    await expectAccessible();
    await shot('paid-1-form');
    // Keyboard only: focus the first answer, choose it with the space bar, type, submit with Enter.
    await page.focus('#eligibility-0');
    await page.keyboard.press('Space');
    for (const [field, text] of [
      ['#card_number', '4242 4242 4242 4242'],
      ['#card_expiry', '12/34'],
      ['#card_cvc', '123'],
    ] as const) {
      await page.focus(field);
      await page.keyboard.type(text);
    }
    await page.keyboard.press('Enter');
    await page.waitForSelector('text=Confirm your payment');
    await expectAccessible();
    await shot('paid-2-confirm');
    await page.focus('button[type=submit]');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${receiver.origin}/ok/${id}`);
    await shot('paid-3-success');
    expect(await status(id)).toBe('captured');
    await until(() => completions(id).length === 2, 5000, 'the webhooks');
    expect(completions(id)).toEqual(['processing', 'captured']);
    expectOnlySandboxRequests(`${receiver.origin}/ok/`);
  });

  it('shows each error next to its field, announced, and refuses a past expiry', async () => {
    const id = await createSession();
    await page.goto(`${base}/checkout/${id}`);
    await page.fill('#card_number', '4242 4242 4242 4241');
    await page.fill('#card_expiry', '01/20');
    await page.click('button[type=submit]');
    expect(await page.getAttribute('#errors', 'role')).toBe('alert');
    // The script that focuses the list runs: the policy allows it by its hash.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('errors');
    expect(await page.textContent('#card_number-error')).toContain('not valid');
    expect(await page.textContent('#eligibility-error')).toContain('Answer');
    expect(await page.getAttribute('#card_number', 'aria-invalid')).toBe('true');
    await expectAccessible();
    await shot('errors-1');
    await fillCheckout('4242424242424242', '01/20');
    await page.click('button[type=submit]');
    expect(await page.textContent('#card_expiry-error')).toContain('expired');
    expect(await status(id)).toBe('pending');
  });

  it('ineligible: failure_url, the session pending, its outcome reported', async () => {
    const id = await createSession();
    await page.goto(`${base}/checkout/${id}`);
    await page.check('#eligibility-1');
    await page.click('button[type=submit]');
    await page.waitForURL(`${receiver.origin}/ko/${id}`);
    await shot('ineligible');
    expect(await status(id)).toBe('pending');
    await until(() => completions(id).length === 1, 5000, 'the webhook');
    expect(completions(id)).toEqual(['pending']);
  });

  it('declined, then paid with another card', async () => {
    const id = await createSession();
    await page.goto(`${base}/checkout/${id}`);
    await fillCheckout('4000000000000002');
    await page.click('button[type=submit]');
    await shot('declined-1-confirm');
    await page.click('button[type=submit]');
    expect(await page.textContent('#card_number-error')).toContain('declined');
    await shot('declined-2-error');
    expect(await status(id)).toBe('pending');
    await fillCheckout('4242424242424242');
    await page.click('button[type=submit]');
    await page.click('button[type=submit]');
    await page.waitForURL(`${receiver.origin}/ok/${id}`);
    expect(await status(id)).toBe('captured');
  });

  it('under review, then accepted, and another rejected, through the review helper', async () => {
    for (const decision of ['accept', 'decline'] as const) {
      const id = await createSession();
      await page.goto(`${base}/checkout/${id}`);
      await fillCheckout('4000000000000259');
      await page.click('button[type=submit]');
      await page.click('button[type=submit]');
      await page.waitForURL(`${receiver.origin}/ok/${id}`);
      await shot(`review-${decision}`);
      expect(await status(id)).toBe('processing');
      await s.review(id, decision);
      expect(await status(id)).toBe(decision === 'accept' ? 'captured' : 'rejected');
      await until(() => completions(id).length === 2, 5000, 'the webhooks');
      expect(completions(id)).toEqual(['processing', decision === 'accept' ? 'captured' : 'rejected']);
    }
  });

  it("an authorization, then captured through the API; a second tab's submit pays nothing more", async () => {
    const id = await createSession({ kind: 'authorization' });
    const second = await browser.newPage();
    try {
      for (const tab of [page, second]) {
        await tab.goto(`${base}/checkout/${id}`);
        await fillCheckout('4242424242424242', '12/34', tab);
        await tab.click('button[type=submit]');
        await tab.waitForSelector('text=Confirm your payment');
      }
      await page.click('button[type=submit]');
      await page.waitForURL(`${receiver.origin}/ok/${id}`);
      expect(await status(id)).toBe('authorized');
      await second.click('button[type=submit]');
      await second.waitForSelector('text=This checkout is complete');
      await screenshot(second, 'authorization-second-tab');
    } finally {
      await second.close();
    }
    expect(
      (
        await s.post(`/payments/v1/payment_session/${id}/capture`, {
          total_amount: 7799,
          idempotency_key: 'browser-capture',
        })
      ).status,
    ).toBe(200);
    await until(() => completions(id).length === 2, 5000, 'the webhooks');
    expect(completions(id)).toEqual(['authorized', 'captured']);
  });

  it('shows a free trial as "then $X on DATE"', async () => {
    const id = await createSession({
      total_amount: 0,
      amount_details: noCharges,
      tokenize: true,
      display_next_bill_info: { total_amount: 2500, date: '2099-12-21' },
      order_items: [
        { name: 'Vitamin D3, first month', sku: 'VITD-2000', quantity: 1, price: 0, amount_details: noCharges },
      ],
    });
    await page.goto(`${base}/checkout/${id}`);
    expect(await page.textContent('#next-bill')).toBe('Free trial: then $25.00 on 2099-12-21.');
    await expectAccessible();
    await shot('free-trial');
  });

  it('canceled: the timed-out page links back to failure_url', async () => {
    const id = await createSession();
    await s.post(`/payments/v1/payment_session/${id}/cancel`);
    await page.goto(`${base}/checkout/${id}`);
    await page.waitForSelector('text=This checkout has timed out');
    expect(await page.getAttribute('a', 'href')).toBe(`${receiver.origin}/ko/${id}`);
    await expectAccessible();
    await shot('timed-out');
  });
});

/** The messages the top page (a framing page) has received. */
const messages = () => page.evaluate(() => (window as unknown as { messages: unknown[] }).messages);
const firstMessage = () =>
  page.waitForFunction(() => (window as unknown as { messages: unknown[] }).messages.length > 0);

/** Answers the survey and a card in the checkout framed by the top page, and confirms. */
async function payInFrame(card = '4242424242424242') {
  const frame = page.frameLocator('iframe');
  await frame.locator('#state').selectOption('TX');
  await fillCheckout(card, '12/34', frame);
  await frame.locator('button[type=submit]').click();
  await frame.locator('text=Confirm your payment').waitFor();
  await frame.getByRole('button', { name: /^Pay / }).click();
}

/** Waits until the frame the top page holds shows chromium's error page: its document was refused. */
const frameRefused = () =>
  until(
    () => page.frames().some((frame) => frame.url() === 'chrome-error://chromewebdata/'),
    5000,
    'the error page in the frame',
  );

/** Waits until the browser has logged a line that matches. */
const logged = (pattern: RegExp, what: string) =>
  until(() => consoleLines.some((line) => pattern.test(line)), 5000, what);

describe('iframe mode: the partner frames the checkout', () => {
  async function iframeSession(overrides: Record<string, unknown> = {}) {
    const { body } = await s.post(
      '/payments/v1/create_payment_session',
      sessionRequest({
        success_url: `${receiver.origin}/ok/{{payment_session_id}}`,
        failure_url: `${receiver.origin}/ko`,
        customer_state: 'CA',
        use_iframe: true,
        ...overrides,
      }),
    );
    return { id: body.id as string, redirectUrl: onSandbox(body.redirect_url as string) };
  }

  it("paid: posts {success: true, redirectUrl} to the partner's page, which stays where it is", async () => {
    const { id, redirectUrl } = await iframeSession();
    expect(redirectUrl).toBe(`${base}/checkout/${id}?mode=iframe`);
    await page.goto(`${receiver.origin}/parent?src=${encodeURIComponent(redirectUrl)}`);
    await page.frameLocator('iframe').locator('#card_number').waitFor();
    await expectAccessible(framedCheckout());
    await payInFrame();
    await firstMessage();
    expect(await messages()).toEqual([{ success: true, redirectUrl: `${receiver.origin}/ok/${id}` }]);
    expect(page.url()).toContain('/parent');
    expect(await status(id)).toBe('captured');
    await shot('iframe');
  });

  it('not eligible: posts {success: false, redirectUrl: failure_url}', async () => {
    const { id, redirectUrl } = await iframeSession();
    await page.goto(`${receiver.origin}/parent?src=${encodeURIComponent(redirectUrl)}`);
    const frame = page.frameLocator('iframe');
    await frame.locator('#eligibility-1').check();
    await frame.locator('button[type=submit]').click();
    await firstMessage();
    expect(await messages()).toEqual([{ success: false, redirectUrl: `${receiver.origin}/ko` }]);
    expect(await status(id)).toBe('pending');
    await shot('iframe-not-eligible');
  });

  it("sends its message only to the origin of the URL it reports: a failure_url elsewhere, and the partner's page gets nothing", async () => {
    const { id, redirectUrl } = await iframeSession({ failure_url: `${foreign.origin}/ko` });
    await page.goto(`${receiver.origin}/parent?src=${encodeURIComponent(redirectUrl)}`);
    const frame = page.frameLocator('iframe');
    await frame.locator('#eligibility-1').check();
    await frame.locator('button[type=submit]').click();
    refusalsExpected = true;
    // Chromium drops a message whose target origin is not the receiving window's, and says so.
    await logged(
      new RegExp(
        `target origin provided \\('${foreign.origin}'\\) does not match the recipient window's origin \\('${receiver.origin}'\\)`,
      ),
      'the dropped message',
    );
    expect(await messages()).toEqual([]);
    expect(await status(id)).toBe('pending');
  });

  it('opened without a frame, its last page goes to success_url itself', async () => {
    const { id, redirectUrl } = await iframeSession();
    await page.goto(redirectUrl);
    await fillCheckout('4242424242424242');
    await page.click('button[type=submit]');
    await page.click('button[type=submit]');
    await page.waitForURL(`${receiver.origin}/ok/${id}`);
    expect(await status(id)).toBe('captured');
  });

  it('a session created without use_iframe cannot be framed, ?mode=iframe or not', async () => {
    const id = await createSession();
    await page.goto(`${receiver.origin}/parent?src=${encodeURIComponent(`${base}/checkout/${id}?mode=iframe`)}`);
    refusalsExpected = true;
    await logged(/frame-ancestors 'none'/, 'the refused frame');
    await frameRefused();
    expect(page.frames().map((frame) => frame.url())).toEqual([
      expect.stringContaining('/parent'),
      'chrome-error://chromewebdata/',
    ]);
    expect(await messages()).toEqual([]);
  });
});

describe('pages on other sites', () => {
  it("a foreign page's auto-submitting form, the reported one, is refused with a page that says so; the session stays pending", async () => {
    const id = await createSession();
    const fields = {
      state: 'CA',
      eligibility: 'eligible',
      card_number: '4242424242424242',
      card_expiry: '12/30',
      card_cvc: '123',
      confirm: '1',
    };
    const forged = foreign.serve('/prize', autoSubmittingForm(`${base}/checkout/${id}`, fields));
    const answered = page.waitForResponse(
      (response) => response.url() === `${base}/checkout/${id}` && response.request().method() === 'POST',
    );
    await page.goto(forged);
    const response = await answered;
    expect((await response.request().allHeaders())['sec-fetch-site']).toBe('cross-site');
    expect(response.status()).toBe(403);
    await page.waitForSelector('h1:text("This form came from another site")');
    await expectAccessible();
    await shot('foreign-form-refused');
    expect(await status(id)).toBe('pending');
    expect((await s.outbox('payment_session_complete')).filter((event) => event.payload.payment_id === id)).toEqual([]);
    // The customer can still pay on the real page.
    await page.goto(`${base}/checkout/${id}`);
    await fillCheckout('4242424242424242');
    await page.click('button[type=submit]');
    await page.click('button[type=submit]');
    await page.waitForURL(`${receiver.origin}/ok/${id}`);
    expect(await status(id)).toBe('captured');
  });

  it("a foreign page's form to a token page is refused too", async () => {
    const { body } = await s.post('/api/v1/payment_tokens/create', {
      success_url: `${receiver.origin}/plan/ok`,
      failure_url: `${receiver.origin}/plan/ko`,
    });
    const id = body.provision_token_request_id as string;
    await page.goto(
      foreign.serve(
        '/setup',
        autoSubmittingForm(`${base}/checkout/setup/${id}`, {
          state: 'CA',
          eligibility: 'eligible',
          card_number: '4242424242424242',
          card_expiry: '12/30',
          card_cvc: '123',
          action: 'finish',
        }),
      ),
    );
    await page.waitForSelector('h1:text("This form came from another site")');
    expect((await s.get(`/sandbox/v1/provision_requests/${id}`)).body.status).toBe('awaiting_customer');
  });

  it('a foreign page cannot read a checkout page, and so cannot read its form token', async () => {
    const id = await createSession();
    await page.goto(
      foreign.serve('/reader', '<!doctype html><html lang="en"><head><title>Reader</title></head><body></body></html>'),
    );
    const read = await page.evaluate(async (url) => {
      try {
        return (await (await fetch(url)).text()).includes('form_token') ? 'read' : 'no token';
      } catch {
        return 'refused';
      }
    }, `${base}/checkout/${id}`);
    expect(read).toBe('refused');
  });

  it("a foreign page that frames a partner's iframe checkout shows nothing of it and receives nothing", async () => {
    const { body } = await s.post(
      '/payments/v1/create_payment_session',
      sessionRequest({
        success_url: `${receiver.origin}/ok/{{payment_session_id}}`,
        failure_url: `${receiver.origin}/ko`,
        use_iframe: true,
      }),
    );
    await page.goto(foreign.serve('/frame', framingPage(onSandbox(body.redirect_url as string))));
    refusalsExpected = true;
    await logged(
      new RegExp(`violates the following Content Security Policy directive: "frame-ancestors ${receiver.origin}"`),
      'the refused frame',
    );
    await frameRefused();
    expect(page.frames().map((frame) => frame.url())).toEqual([
      `${foreign.origin}/frame`,
      'chrome-error://chromewebdata/',
    ]);
    expect(await page.frameLocator('iframe').locator('#card_number').count()).toBe(0);
    expect(await messages()).toEqual([]);
    await shot('foreign-frame-refused');
    expect(await status(body.id as string)).toBe('pending');
  });
});

describe('the pages of payment tokens', () => {
  it('a token setup ends at success_url with a payment_token.updated delivery', async () => {
    const { body } = await s.post('/api/v1/payment_tokens/create', {
      success_url: `${receiver.origin}/plan/ok`,
      failure_url: `${receiver.origin}/plan/ko`,
      customer_email: 'browser@example.com',
    });
    await page.goto(`${base}/checkout/setup/${body.provision_token_request_id}`);
    await expectAccessible();
    await page.selectOption('#state', 'NY');
    await fillCheckout('4242424242424242');
    await shot('setup-form');
    await page.click('button[value=finish]');
    await page.waitForURL(`${receiver.origin}/plan/ok`);
    await shot('setup-done');
    await until(
      () => receiver.accepted.some((d) => d.body.event_type === 'payment_token.updated'),
      5000,
      'the token webhook',
    );
    const token = receiver.accepted.find((d) => d.body.event_type === 'payment_token.updated')!.body.data;
    expect(token).toMatchObject({
      provision_token_request_id: body.provision_token_request_id,
      customer_email: 'browser@example.com',
    });
    expect((await s.get(`/api/v1/payment_tokens/${token.payment_token}`)).body.payment_methods[0].last4).toBe('4242');
  });

  it('the page of a 422 fixes the token, and the charge then goes through', async () => {
    const { body } = await s.post('/api/v1/payment_tokens/create', {
      success_url: `${receiver.origin}/plan/ok`,
      failure_url: `${receiver.origin}/plan/ko`,
      customer_email: 'fix@example.com',
    });
    const done = await s.post(`/sandbox/v1/provision_requests/${body.provision_token_request_id}/complete`, {
      skus: [],
    });
    const token = done.body.payment_token as string;
    await s.post(`/sandbox/v1/payment_tokens/${token}/require_action`, { next_action: 'UpdatePaymentMethod' });
    const refused = await s.post(
      '/payments/v1/create_payment_session',
      sessionRequest({
        payment_token: token,
        success_url: `${receiver.origin}/renew/ok`,
        failure_url: `${receiver.origin}/renew/ko`,
      }),
    );
    expect(refused.status).toBe(422);
    await page.goto(`${base}${new URL(refused.body.redirect_url).pathname}`);
    await expectAccessible();
    await page.fill('#card_number', '5555555555554444');
    await page.fill('#card_expiry', '11/33');
    await page.fill('#card_cvc', '321');
    await shot('fix-form');
    await page.click('button[value=finish]');
    await page.waitForURL(`${receiver.origin}/renew/ok`);
    await shot('fix-done');
    expect((await s.post('/payments/v1/create_payment_session', sessionRequest({ payment_token: token }))).status).toBe(
      200,
    );
    expect((await s.get(`/api/v1/payment_tokens/${token}`)).body.payment_methods[0].last4).toBe('4444');
  });

  it("a token setup in iframe mode posts its outcome to the partner's page", async () => {
    const { body } = await s.post('/api/v1/payment_tokens/create', {
      success_url: `${receiver.origin}/plan/ok`,
      failure_url: `${receiver.origin}/plan/ko`,
      customer_email: 'framed@example.com',
      use_iframe: true,
    });
    expect(body.redirect_url).toMatch(/\?mode=iframe$/);
    await page.goto(`${receiver.origin}/parent?src=${encodeURIComponent(onSandbox(body.redirect_url as string))}`);
    const frame = page.frameLocator('iframe');
    await frame.locator('#state').selectOption('NY');
    await fillCheckout('4242424242424242', '12/34', frame);
    await frame.locator('button[value=finish]').click();
    await firstMessage();
    expect(await messages()).toEqual([{ success: true, redirectUrl: `${receiver.origin}/plan/ok` }]);
    await shot('setup-iframe');
    expect((await s.get(`/sandbox/v1/provision_requests/${body.provision_token_request_id}`)).body.status).toBe(
      'provisioned',
    );
  });
});
