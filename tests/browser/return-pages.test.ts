// The return pages and the index page in a real browser (Debian's chromium, headless): a hosted
// checkout whose success_url and failure_url are the sandbox's return pages ends on a page that
// says what happened, with the session's id and status; a token's setup, whose URLs carry no id,
// ends on one that names its provision token request. The index page leads there. axe-core checks
// every page (zero violations), no page breaks its Content-Security-Policy or loads anything from
// elsewhere, and each leaves a screenshot in test-results/screenshots/.

import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { axeViolations, launchChromium, screenshot } from '../support/browser.js';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { createStore, openDatabase } from '../../src/sandbox/store/index.js';
import { repoRoot } from '../../testkit/contract.js';
import { testSandbox, type TestSandbox } from '../../testkit/sandbox.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

let browser: Browser;
let s: TestSandbox;
let base: string;
let page: Page;
let requests: string[];
let consoleLines: string[];

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => browser?.close());

beforeEach(async () => {
  s = testSandbox();
  base = await s.app.listen({ host: '127.0.0.1', port: 0 });
  page = await browser.newPage();
  requests = [];
  consoleLines = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => consoleLines.push(message.text()));
});
afterEach(async () => {
  // Every page keeps to its policy: its one style is allowed, and nothing else is asked for.
  expect(consoleLines.filter((line) => /Content Security Policy|Refused/.test(line))).toEqual([]);
  expect(requests.filter((url) => !url.startsWith(base))).toEqual([]);
  await page.close();
  await s.close();
});

const shot = (name: string) => screenshot(page, `${name}`);

async function expectAccessible() {
  expect(await axeViolations(page)).toEqual([]);
}

/** A session whose success_url and failure_url are this sandbox's return pages, as the README's walkthrough makes it. */
async function createSession(kind: 'one_time_payment' | 'authorization') {
  const { body } = await s.post('/payments/v1/create_payment_session', {
    kind,
    total_amount: 4999,
    amount_details: { total_additional_charges: 0, total_discounts: 0 },
    success_url: `${base}/return/success?payment_session_id={{payment_session_id}}`,
    failure_url: `${base}/return/failure?payment_session_id={{payment_session_id}}`,
    order_items: [
      {
        name: 'Monitor',
        quantity: 1,
        price: 4999,
        amount_details: { total_additional_charges: 0, total_discounts: 0 },
      },
    ],
  });
  return body.id as string;
}

async function pay(card: string) {
  await page.selectOption('#state', 'CA');
  await page.check('#eligibility-0');
  await page.fill('#card_number', card);
  await page.fill('#card_expiry', '12/34');
  await page.fill('#card_cvc', '123');
  await page.click('button[type=submit]');
  await page.waitForSelector('text=Confirm your payment');
  await page.click('button[type=submit]:not(.secondary)');
}

const shown = async () => ({
  title: await page.textContent('h1'),
  id: await page.textContent('#session-id, #request-id'),
  status: await page.textContent('#status'),
});

describe('a hosted flow that ends on the return pages', () => {
  it('paid with card 4242: the success page shows the session captured', async () => {
    const id = await createSession('one_time_payment');
    await page.goto(`${base}/checkout/${id}`);
    await pay('4242 4242 4242 4242');
    await page.waitForURL(`${base}/return/success?payment_session_id=${id}`);
    expect(await shown()).toEqual({ title: 'The payment is captured', id, status: 'captured' });
    expect(await page.textContent('#outcome')).toContain('$49.99');
    await expectAccessible();
    await shot('return-success');
  });

  it('a hold paid with card 4242: the success page shows it authorized', async () => {
    const id = await createSession('authorization');
    await page.goto(`${base}/checkout/${id}`);
    await pay('4242424242424242');
    await page.waitForURL(`${base}/return/success?payment_session_id=${id}`);
    expect(await shown()).toEqual({ title: 'The payment is authorized', id, status: 'authorized' });
  });

  it('declined, then not eligible: the failure page shows the session still pending', async () => {
    const id = await createSession('one_time_payment');
    await page.goto(`${base}/checkout/${id}`);
    await pay('4000 0000 0000 0002');
    // A declined card keeps the customer on the checkout, which then ends with the survey's "not eligible".
    expect(await page.textContent('#card_number-error')).toContain('declined');
    await page.check('#eligibility-1');
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/return/failure?payment_session_id=${id}`);
    expect(await shown()).toEqual({ title: 'The payment was not made', id, status: 'pending' });
    await expectAccessible();
    await shot('return-failure');
  });

  it('a token setup, whose success_url carries no id: the page names its provision token request', async () => {
    const { body } = await s.post('/api/v1/payment_tokens/create', {
      success_url: `${base}/return/success`,
      failure_url: `${base}/return/failure`,
      customer_email: 'return@example.com',
    });
    const request = body.provision_token_request_id as string;
    await page.goto(`${base}/checkout/setup/${request}`);
    await page.selectOption('#state', 'NY');
    await page.check('#eligibility-0');
    await page.fill('#card_number', '4242424242424242');
    await page.fill('#card_expiry', '12/34');
    await page.fill('#card_cvc', '123');
    await page.click('button[value=finish]');
    await page.waitForURL(`${base}/return/success`);
    expect(await shown()).toEqual({ title: 'The card is saved', id: request, status: 'provisioned' });
    await expectAccessible();
    await shot('return-setup');
  });
});

describe('the index page', () => {
  it("leads to the docs, the dashboard, the return pages and the documents, in the docs site's look", async () => {
    await s.close();
    // A sandbox that serves docs (the folder need not exist for the index to link them).
    s = {
      ...s,
      close: async () => {
        await app.close();
      },
    } as TestSandbox;
    const app = buildSandbox({
      store: sqliteBackend(createStore(openDatabase(':memory:'))),
      docsDir: path.join(repoRoot, 'site'),
    });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/`);
    const links = await page.$$eval('a', (anchors) => anchors.map((a) => a.getAttribute('href')));
    expect(links).toEqual(
      expect.arrayContaining([
        '/docs/',
        '/docs/reference/',
        '/docs/try/',
        '/dashboard/',
        '/return/success',
        '/return/failure',
        '/openapi.json',
        '/openapi-3.0.yaml',
        '/sandbox/openapi.json',
      ]),
    );
    // Styled: the top bar and the cards of the docs site, from the page's own inline style.
    expect(await page.$eval('.card', (card) => getComputedStyle(card).borderRadius)).toBe('10px');
    expect(await page.$eval('.top', (bar) => getComputedStyle(bar).display)).toBe('flex');
    await expectAccessible();
    await shot('index');
    await page.click('a[href="/return/success"]');
    expect(await page.textContent('h1')).toBe("The sandbox's success page");
    await expectAccessible();
  });
});
