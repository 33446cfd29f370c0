// The docs site as a partner reads it: built by `npm run docs`, served at /docs by a sandbox
// process, opened in headless Debian chromium. Every page answers without a console error, no
// request leaves the sandbox's origin (each one outside it is recorded and refused), the guides
// and the landing page pass axe-core, the reference has a section for every operation and
// webhook and finds `capture`, and the try-it console sends a retrieve to the sandbox and shows
// its answer, and shows the create request's template as text. Each operation of the reference
// offers curl and a sample in every language of the partner matrix, and the reference and the
// console lead to each other at the same operation. No page warns of a deprecated option.
// Full-page screenshots go to test-results/screenshots/.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { axeViolations, launchChromium, screenshot, SHOTS } from '../support/browser.js';
// @ts-expect-error: the docs builder is plain JavaScript, without types.
import { buildSite } from '../../build/docs/build-site.mjs';
// @ts-expect-error: as above.
import { GUIDES } from '../../build/docs/pages.mjs';
import { contract, operationById, operations, repoRoot } from '../../testkit/contract.js';
import { commentOf, operationIdsOf, samplesOf } from '../../build/lib/samples.mjs';
import { curlSamples, rows } from '../../partners/harness/index.js';
import { openEnumValues } from '../../src/contract/open-enum.js';
import { sessionRequest } from '../../testkit/sandbox.js';
import { SANDBOX_API_KEY, startSandboxProcess, type SandboxProcess } from '../../testkit/sandbox-process.js';

const site = mkdtempSync(path.join(tmpdir(), 'docs-site-'));

let browser: Browser;
let sandbox: SandboxProcess;
let page: Page;
let errors: string[];
let foreign: string[];

beforeAll(async () => {
  await buildSite(site, { quiet: true });
  sandbox = await startSandboxProcess({ args: ['--docs', site] });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
  rmSync(site, { recursive: true, force: true });
});

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  errors = [];
  foreign = [];
  page.on('console', (message) => {
    // An error, and a warning that an option is deprecated (Scalar's showToolbar was one).
    if (message.type() === 'error' || (message.type() === 'warning' && /deprecated/i.test(message.text())))
      errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
  });
  // Anything bound outside the sandbox's origin is recorded and never sent.
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(`${sandbox.baseUrl}/`) || url.startsWith('data:') || url.startsWith('blob:'))
      return route.continue();
    foreign.push(url);
    return route.abort();
  });
});
afterEach(async () => {
  await page.close();
  expect(errors, 'console errors').toEqual([]);
  expect(foreign, 'requests that left the sandbox').toEqual([]);
});

const open = (route: string) => page.goto(`${sandbox.baseUrl}/docs/${route}`, { waitUntil: 'networkidle' });
const visible = (locator: Locator) => locator.waitFor({ state: 'visible', timeout: 15_000 });
const shot = (name: string) => screenshot(page, `${name}`);

async function expectAccessible() {
  expect(await axeViolations(page)).toEqual([]);
}

/** A sample's code without indentation or blank lines: how a code panel's text compares with its region. */
const significant = (text: string | null) =>
  (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');

/** The element is on screen: the page scrolled to it (it may take a moment to settle). */
async function expectInView(locator: Locator, what: string) {
  let box = await locator.boundingBox();
  for (let attempt = 0; attempt < 20 && !(box && box.y >= 0 && box.y < 900); attempt++) {
    await page.waitForTimeout(250);
    box = await locator.boundingBox();
  }
  expect({ what, top: box && box.y >= 0 && box.y < 900 }).toEqual({ what, top: true });
}

const guideTitles = new Map<string, string>();

describe('the docs site, served by the sandbox at /docs', () => {
  it('opens on a landing page that leads to every guide, the reference and the console', async () => {
    await open('');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('HSA/FSA Checkout API');
    const links = await page
      .locator('.guide-list a')
      .evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.textContent]));
    expect(links.map(([href]) => href)).toEqual(GUIDES.map((g: { slug: string }) => `guides/${g.slug}.html`));
    for (const [href, title] of links) guideTitles.set(href!, title!);
    await visible(page.getByRole('link', { name: /API reference/ }).first());
    await visible(page.getByRole('link', { name: /Try it/ }).first());
    await expectAccessible();
    await shot('docs-landing');
  });

  it('renders every guide as its own page, accessible, with nothing but its own scripts (none)', async () => {
    for (const { slug } of GUIDES as Array<{ slug: string }>) {
      await open(`guides/${slug}.html`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(guideTitles.get(`guides/${slug}.html`));
      // The diagrams are drawn at build time: no page of the guides runs a script.
      expect(await page.locator('script').count()).toBe(0);
      await expectAccessible();
    }
  }, 120_000);

  // On a phone the guide list and the guide stack: the guide comes first, so that its first screen
  // is the guide, and the list follows it; on a wide screen the list stays on the left.
  it('starts a guide on the first screen of a 390 px phone, before the guide list, accessible', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await open('guides/webhooks.html');
    const heading = page.getByRole('heading', { level: 1 });
    const list = page.getByRole('navigation', { name: 'Guides' });
    const [headingBox, listBox] = [await heading.boundingBox(), await list.boundingBox()];
    expect(await heading.textContent()).toBe(guideTitles.get('guides/webhooks.html'));
    // Above the fold, with room for the guide's first lines under it.
    expect(headingBox!.y + headingBox!.height).toBeLessThan(844 / 2);
    expect(listBox!.y).toBeGreaterThan(headingBox!.y + headingBox!.height);
    // The guide's text, not the list, is what the first screen shows below the heading.
    expect(await page.evaluate(() => document.elementFromPoint(195, 600)?.closest('main, nav')?.tagName)).toBe('MAIN');
    // In the document too: a screen reader reads the guide before the list.
    expect(
      await page.evaluate(() => {
        const main = document.querySelector('main')!;
        const nav = document.querySelector('nav.guides')!;
        return Boolean(main.compareDocumentPosition(nav) & Node.DOCUMENT_POSITION_FOLLOWING);
      }),
    ).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, 'docs-guide-phone-first-screen.png') });
    await shot('docs-guide-phone');
    await expectAccessible();

    await page.setViewportSize({ width: 1400, height: 900 });
    const [wideHeading, wideList] = [await heading.boundingBox(), await list.boundingBox()];
    expect(wideList!.x + wideList!.width).toBeLessThan(wideHeading!.x);
    expect(wideList!.y).toBeLessThan(wideHeading!.y + wideHeading!.height);
  });

  it('draws the state machines as inline SVG, with every session status of the contract', async () => {
    await open('guides/state-machines.html');
    const figures = page.locator('figure.diagram svg');
    expect(await figures.count()).toBe(4);
    const sessionDiagram = await figures.first().textContent();
    for (const status of openEnumValues(contract.components!.schemas!.PaymentSessionStatus)!)
      expect(sessionDiagram).toContain(status);
    await shot('docs-state-machines');
  });

  it('has a reference section for every operation and every webhook', async () => {
    await open('reference/');
    const html = await page.content();
    expect(
      operations()
        .filter(({ op }) => !html.includes(op.summary!))
        .map(({ op }) => op.operationId),
    ).toEqual([]);
    const webhooks = Object.entries(contract.webhooks).map(([name, item]) => ({ name, summary: item.post!.summary! }));
    expect(webhooks).toHaveLength(11);
    expect(webhooks.filter(({ summary }) => !html.includes(summary))).toEqual([]);
    // Each operation's anchor lands on its heading.
    for (const { op } of operations()) {
      await page.goto(
        `${sandbox.baseUrl}/docs/reference/#/${op.tags![0]!.toLowerCase().replace(/[^a-z0-9]+/g, '-')}/${op.operationId!.toLowerCase()}`,
      );
      await visible(page.getByRole('heading', { name: op.summary! }).first());
    }
  }, 120_000);

  it('shows the create-session operation, and its state table whole', async () => {
    await open('reference/#/payment-sessions/createpaymentsession');
    const heading = page.getByRole('heading', { name: 'Create a payment session' }).first();
    await visible(heading);
    await page.screenshot({ path: path.join(SHOTS, 'docs-create-payment-session.png'), fullPage: false });
    // The tag's state table takes the whole width: its values are never broken mid-word.
    await page.goto(`${sandbox.baseUrl}/docs/reference/#/payment-sessions`);
    const table = page.locator('table').filter({ hasText: 'Moved by' }).first();
    await table.scrollIntoViewIfNeeded();
    const cell = table.locator('code', { hasText: 'authorization_expired' }).first();
    const box = (await cell.boundingBox())!;
    expect(box.height).toBeLessThan(30);
    expect((await table.boundingBox())!.width).toBeGreaterThan(900);
  });

  it('offers, beside an operation, curl and then a sample in each language of the matrix: the code the matrix runs', async () => {
    const programs = [curlSamples, ...rows.map((row) => row.samples)];
    const sampleOf = (file: string, operationId: string) =>
      samplesOf(readFileSync(path.join(repoRoot, file), 'utf8'), commentOf(file), operationIdsOf(contract)).samples.get(
        operationId,
      )!;
    await open('reference/#/payment-sessions/capturepaymentsession');
    await visible(page.getByRole('heading', { name: 'Capture an authorization' }).first());
    // The samples panel opens on curl.
    const menu = page.locator('button[aria-haspopup="menu"]', { hasText: /^curl$/ }).first();
    await visible(menu);
    const panel = page.locator('pre').filter({ hasText: '/payments/v1/payment_session/$SESSION_ID/capture' }).first();
    await visible(panel);
    expect(significant(await panel.textContent())).toBe(
      significant(sampleOf(curlSamples.file, 'capturePaymentSession')),
    );
    await page.screenshot({ path: path.join(SHOTS, 'docs-reference-samples-curl.png') });
    await menu.click();
    expect(await page.getByRole('menuitem').allTextContents()).toEqual(programs.map((p) => p.label));
    // Each language shows its program's region; the menu keeps the choice on the next operation.
    for (const program of programs.slice(1)) {
      await page.getByRole('menuitem', { name: program.label, exact: true }).click();
      const button = page.locator('button[aria-haspopup="menu"]', { hasText: program.label }).first();
      await visible(button);
      const firstLine = sampleOf(program.file, 'capturePaymentSession').split('\n')[0]!.trim();
      const code = page.locator('pre').filter({ hasText: firstLine }).first();
      await visible(code);
      expect({ label: program.label, code: significant(await code.textContent()) }).toEqual({
        label: program.label,
        code: significant(sampleOf(program.file, 'capturePaymentSession')),
      });
      if (program.label === 'Python (openapi-python-client)') {
        // Another language changes every panel's height: the operation goes back to the top first.
        await page
          .getByRole('heading', { name: 'Capture an authorization' })
          .first()
          .evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
        await page.screenshot({ path: path.join(SHOTS, 'docs-reference-samples-python.png') });
      }
      await button.click();
    }
    await page.keyboard.press('Escape');
  }, 120_000);

  it('leads from an operation of the reference to the same operation in the console, and back', async () => {
    // A path without a parameter, one with a parameter, and another tag's (tests/spec/docs.test.ts
    // checks every operation's two links and anchors as files).
    for (const operationId of ['createPaymentSession', 'capturePaymentSession', 'acceptDispute']) {
      const { op } = operationById(operationId);
      const name = op.summary!;
      await page.goto(
        `${sandbox.baseUrl}/docs/reference/#/${op.tags![0]!.toLowerCase().replace(/[^a-z0-9]+/g, '-')}/${operationId.toLowerCase()}`,
      );
      await visible(page.getByRole('heading', { name }).first());
      // The operation's own link, the first after its heading.
      await page
        .locator(
          `xpath=//*[self::h1 or self::h2][normalize-space()="${name}"]/following::a[normalize-space()="Try it in the console"][1]`,
        )
        .click();
      await page.waitForURL(/\/docs\/try\/#tag\//);
      const heading = page.getByRole('heading', { name }).first();
      await visible(heading);
      await expectInView(heading, `${operationId} in the console`);
      const section = page.locator('section', { has: heading }).last();
      await section.getByRole('link', { name: 'Read it in the reference' }).click();
      await page.waitForURL(/\/docs\/reference\/#\//);
      const back = page.getByRole('heading', { name }).first();
      await visible(back);
      await expectInView(back, `${operationId} in the reference`);
      if (operationId === 'capturePaymentSession')
        await page.screenshot({ path: path.join(SHOTS, 'docs-reference-back-from-console.png') });
    }
  }, 180_000);

  it("finds capture with the reference's search", async () => {
    await open('reference/');
    await page.getByText('Search Ctrl+K').first().click();
    await page.keyboard.type('capture');
    await visible(page.getByText('Capture an authorization').first());
    await visible(page.getByText('/payments/v1/payment_session/{business_id}/capture').first());
  });

  it('sends a retrieve from the try-it console to the sandbox, with the development key, and shows its answer', async () => {
    const created = await fetch(`${sandbox.baseUrl}/payments/v1/create_payment_session`, {
      method: 'POST',
      headers: { 'x-service-api-key': SANDBOX_API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify(sessionRequest({ metadata: 'from-the-console' })),
    }).then((r) => r.json() as Promise<{ id: string }>);
    const sent: Array<{ url: string; key: string | undefined }> = [];
    page.on('request', (request) => {
      if (request.url().includes('/payments/v1/'))
        sent.push({ url: request.url(), key: request.headers()['x-service-api-key'] });
    });
    await open('try/');
    // Nothing on the console leads to Scalar's hosted services.
    expect(await page.getByText(/Generate MCP|Open API Client/).count()).toBe(0);
    // The console draws an operation's section once the reader goes to it, as a reader does: from the sidebar.
    await page.getByRole('link', { name: 'Retrieve a payment session' }).first().click();
    const section = page
      .locator('section', { has: page.getByRole('heading', { name: 'Retrieve a payment session' }) })
      .last();
    await section
      .getByRole('button', { name: /test request/i })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    // The path variable's value is the third editable field: the key's value, the name, then it.
    const variable = dialog.locator('[contenteditable="true"]').nth(2);
    await visible(variable);
    // The field is an editor that takes keystrokes once it has focus; type until it holds the id.
    for (let attempt = 0; attempt < 5 && !(await variable.textContent())?.includes(created.id); attempt++) {
      await variable.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.type(created.id, { delay: 5 });
      await page.waitForTimeout(200);
    }
    expect(await variable.textContent()).toContain(created.id);
    await page.keyboard.press('Tab');
    // The editor hands its value to the request a moment after it loses focus: the request's code
    // snippet shows the path with the id once it has.
    await dialog.getByText('Code Snippet').first().click();
    await visible(dialog.locator('pre, code', { hasText: `/payments/v1/payment_session/${created.id}` }).first());
    await dialog.getByRole('button', { name: 'Send' }).first().click();
    await visible(dialog.getByText('from-the-console').first());
    await visible(dialog.getByText(/200/).first());
    expect(await dialog.getByText(/Generate MCP|Open API Client/).count()).toBe(0);
    expect(sent).toEqual([
      { url: `${sandbox.baseUrl}/payments/v1/payment_session/${created.id}`, key: SANDBOX_API_KEY },
    ]);
    await shot('docs-try-it');
  });

  it("shows the create request's {{payment_session_id}} as text of the body, not as a console variable, and sends the template", async () => {
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/payments/v1/create_payment_session')) sent.push(request.postData() ?? '');
    });
    await open('try/');
    await page.getByRole('link', { name: 'Create a payment session' }).first().click();
    const section = page
      .locator('section', { has: page.getByRole('heading', { name: 'Create a payment session' }) })
      .last();
    await section
      .getByRole('button', { name: /test request/i })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    // The body, as JSON text: the template's first brace is JSON's escape, so no variable is drawn.
    await visible(dialog.getByText('\\u007b{payment_session_id}}').first());
    await dialog.getByRole('button', { name: 'Send' }).first().click();
    await visible(dialog.getByText(/200/).first());
    expect(sent).toHaveLength(1);
    // The sandbox reads the template itself, and puts the session's id in its place.
    expect(JSON.stringify(JSON.parse(sent[0]!))).toContain('{{payment_session_id}}');
    await shot('docs-try-it-create');
  });
});
