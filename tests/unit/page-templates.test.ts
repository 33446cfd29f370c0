// What the hosted pages and the index page say and where they lead, read from the HTML they render:
// every link of the index page, a session's order and its closed page, what a provision token
// request's page asks for each purpose, and escaping. The browser tests check the same pages in
// chromium; these pin each template's words and targets.
import { describe, expect, it } from 'vitest';
import { indexPage } from '../../src/sandbox/checkout/index-page.js';
import { errorSummary, hidden, radioField } from '../../src/sandbox/checkout/layout.js';
import { escapeHtml } from '../../src/sandbox/checkout/page.js';
import { crossSitePage, staleFormPage } from '../../src/sandbox/checkout/refusal-pages.js';
import { checkoutFormPage, closedPage } from '../../src/sandbox/checkout/session-pages.js';
import { asksCard, asksSurvey, setupFinishedPage, setupFormPage } from '../../src/sandbox/checkout/setup-pages.js';
import type { ProvisionRequest } from '../../src/sandbox/domain/provisioning.js';
import type { Session, SessionStatus } from '../../src/sandbox/domain/types.js';
import { pendingSession } from '../support/domain-sessions.js';

const form = { action: '/checkout/x', token: 't' };
/** The first match of `pattern` in `html`, whole. */
const part = (html: string, pattern: RegExp) => pattern.exec(html)?.[0];

describe('escaping', () => {
  it('turns each of & < > " \' into its entity, and nothing else', () => {
    expect(escapeHtml(`<a href="x">'Tom & Jerry'</a> é`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;Tom &amp; Jerry&#39;&lt;/a&gt; é',
    );
  });
});

describe('the index page', () => {
  const origin = 'http://127.0.0.1:4010';

  it('with the docs: the bar links the docs, the reference, the console and the dashboard; three cards', () => {
    const html = indexPage(true, origin);
    expect(part(html, /<nav aria-label="Sandbox">.*?<\/nav>/)).toBe(
      '<nav aria-label="Sandbox"><a href="/docs/">Docs</a><a href="/docs/reference/">API reference</a><a href="/docs/try/">Try it</a><a href="/dashboard/">Dashboard</a></nav>',
    );
    expect(part(html, /<div class="cards">.*?<\/div>/)).toBe(
      '<div class="cards">' +
        '<a class="card" href="/docs/"><h2>Docs</h2><p>Guides, the API reference, and a console that sends requests to this sandbox.</p></a>' +
        '<a class="card" href="/dashboard/"><h2>Dashboard</h2><p>The sessions, tokens, disputes and webhook deliveries of a channel, as they happen.</p></a>' +
        '<a class="card" href="/docs/guides/quick-start.html"><h2>Quick start</h2><p>A first captured payment in five minutes, with curl.</p></a></div>',
    );
  });

  it('without the docs: the dashboard alone, in the bar and as the one card', () => {
    const html = indexPage(false, origin);
    expect(part(html, /<nav aria-label="Sandbox">.*?<\/nav>/)).toBe(
      '<nav aria-label="Sandbox"><a href="/dashboard/">Dashboard</a></nav>',
    );
    expect(part(html, /<div class="cards">.*?<\/div>/)).toBe(
      '<div class="cards"><a class="card" href="/dashboard/"><h2>Dashboard</h2><p>The sessions, tokens, disputes and webhook deliveries of a channel, as they happen.</p></a></div>',
    );
  });

  it('gives the return pages with the URL to copy, and the documents', () => {
    const html = indexPage(false, origin);
    expect(html).toContain(
      '<li><a href="/return/success">/return/success</a>: as <code>success_url</code>, <code>http://127.0.0.1:4010/return/success?payment_session_id={{payment_session_id}}</code></li>',
    );
    expect(html).toContain(
      '<li><a href="/return/failure">/return/failure</a>: as <code>failure_url</code>, <code>http://127.0.0.1:4010/return/failure?payment_session_id={{payment_session_id}}</code></li>',
    );
    expect(html.match(/<li><a href="\/(sandbox\/)?openapi[^"]*">/g)).toHaveLength(6);
    expect(html).toContain('<p><a href="/health">Health</a></p></main></body></html>');
  });
});

function session(status: SessionStatus, request: Partial<Session['request']> = {}): Session {
  const made = pendingSession();
  return { ...made, status, request: { ...made.request, ...request } };
}

describe("a session's pages", () => {
  it.each([
    ['processing', 'complete'],
    ['captured', 'complete'],
    ['authorized', 'complete'],
    ['rejected', 'closed'],
    ['canceled', 'closed'],
    ['authorization_voided', 'closed'],
  ] as const)('a %s session: the checkout is %s, and leads back to the URL of its outcome', (status, said) => {
    const { html } = closedPage(session(status));
    expect(html).toContain(`<h1>This checkout is ${said}</h1>`);
    expect(html).toContain(`<p>This payment session is <strong>${status}</strong>; nothing more to do here.</p>`);
    expect(html).toContain(
      `<a href="https://shop.example/orders/c0ffee00-1111-4222-8333-444455556666/${said === 'complete' ? 'thanks' : 'failed'}">Return to the store</a>`,
    );
  });

  it("shows the order: each item with its eligibility from the catalog, its quantity and price, the total, and a free trial's next bill", () => {
    const eligibility = new Map<string, string | null>([
      ['BPM-200', 'eligible_with_lmn'],
      ['TH-10', 'unknown_word'],
    ]);
    const { html } = checkoutFormPage(
      session('pending', { display_next_bill_info: { total_amount: 1999, date: '2026-04-01' } } as never),
      eligibility,
      {},
      {},
      form,
    );
    expect(part(html, /<tbody>.*?<\/tbody>/)).toBe(
      '<tbody><tr><td>Blood pressure monitor <small>(eligible with a letter of medical necessity)</small></td><td>× 1</td><td>$49.99</td></tr>' +
        '<tr><td>Thermometer <small>(unknown_word)</small></td><td>× 2</td><td>$12.50</td></tr></tbody>',
    );
    expect(html).toContain(
      '<table><caption>Your order</caption><thead><tr><th scope="col">Item</th><th scope="col">Quantity</th><th scope="col">Price</th></tr></thead>',
    );
    expect(html).toContain(
      '<p>Total: <strong id="total">$77.99</strong></p><p id="next-bill">Free trial: then $19.99 on 2026-04-01.</p>',
    );
    const plain = checkoutFormPage(session('pending'), new Map(), {}, {}, form).html;
    expect(plain).toContain('<tr><td>Blood pressure monitor</td><td>× 1</td>');
    expect(plain).toContain('<p>Total: <strong id="total">$77.99</strong></p><form ');
  });

  it('prefills the state from customer_state, in capitals, until the customer answers', () => {
    expect(
      checkoutFormPage(session('pending', { customer_state: 'ca' as never }), new Map(), {}, {}, form).html,
    ).toContain('<option value="CA" selected>');
    expect(
      checkoutFormPage(session('pending', { customer_state: 'ca' as never }), new Map(), { state: '' }, {}, form).html,
    ).not.toContain(' selected>');
  });
});

const request = (purpose: ProvisionRequest['purpose'], needs: ProvisionRequest['needs'] = [], skus?: string[]) =>
  ({
    id: 'pr-1',
    purpose,
    needs,
    status: 'awaiting_customer',
    use_iframe: false,
    success_url: 'https://shop.example/ok',
    failure_url: 'https://shop.example/ko',
    ...(skus ? { skus } : {}),
  }) as unknown as ProvisionRequest;

describe("a provision token request's page", () => {
  it.each([
    ['setup', [], true, true],
    ['update', [], false, false],
    ['update', ['survey'], true, false],
    ['fix', ['card'], false, true],
    ['fix', ['survey', 'card'], true, true],
  ] as const)('%s needing %j asks the survey: %s, the card: %s', (purpose, needs, survey, card) => {
    const made = request(purpose, [...needs]);
    expect([asksSurvey(made), asksCard(made)]).toEqual([survey, card]);
    const { html } = setupFormPage(made, {}, {}, form);
    expect([html.includes('<h2>Health survey</h2>'), html.includes('<h2>HSA/FSA card</h2>')]).toEqual([survey, card]);
  });

  it('a setup asks to set up, an update to update, and names the items an update is for', () => {
    expect(setupFormPage(request('setup'), {}, {}, form).html).toContain('<h1>Set up your HSA/FSA payment method</h1>');
    const update = setupFormPage(request('update', ['survey'], ['BPM-200', 'A<B']), {}, {}, form).html;
    expect(update).toContain('<h1>Update your HSA/FSA payment method</h1>');
    expect(update).toContain(
      '<p>The items:</p><ul id="items"><li><code>BPM-200</code></li><li><code>A&lt;B</code></li></ul>',
    );
    expect(update).toContain(
      '<legend>Are these items for a medical condition you have, or one a clinician recommended?</legend>',
    );
    expect(update).toContain('Yes, they treat or prevent a condition I have');
    const setup = setupFormPage(request('setup'), {}, {}, form).html;
    expect(setup).not.toContain('id="items"');
    expect(setup).toContain(
      '<legend>Will you use this card for a medical condition you have, or one a clinician recommended?</legend>',
    );
  });

  it('says a finished step is finished, with its status, and where to continue', () => {
    const { html } = setupFinishedPage(
      { ...request('setup'), status: 'provisioned' },
      'https://shop.example/ok?x=1&y=2',
    );
    expect(html).toContain(
      '<h1>This step is finished</h1><p>This request is <strong>provisioned</strong>.</p><p><a href="https://shop.example/ok?x=1&amp;y=2">Continue</a></p>',
    );
  });
});

describe('refusals and errors', () => {
  it('a form from another site says nothing happened and how to go on', () => {
    const page = crossSitePage();
    expect(page.status).toBe(403);
    expect(page.html).toContain(
      '<p>The checkout takes its form only from its own page. Nothing was paid or changed.</p><p>If you were paying, go back to the store and open its checkout again.</p>',
    );
    expect(staleFormPage('/checkout/a&b').html).toContain('<a href="/checkout/a&amp;b">Open the page again</a>');
  });

  it('the next step carries the answers in hidden fields, escaped, an unanswered one empty', () => {
    expect(hidden({ state: 'CA', card_cvc: '"1"' }, ['state', 'eligibility', 'card_cvc'])).toBe(
      '<input type="hidden" name="state" value="CA"><input type="hidden" name="eligibility" value=""><input type="hidden" name="card_cvc" value="&quot;1&quot;">',
    );
  });

  it('a question left unanswered: each choice marked invalid and tied to the error, which follows the choices', () => {
    expect(
      radioField(
        'eligibility',
        'Eligible?',
        [
          ['eligible', 'Yes'],
          ['ineligible', 'No'],
        ],
        undefined,
        { eligibility: 'Answer the health question.' },
      ),
    ).toBe(
      '<fieldset id="eligibility"><legend>Eligible?</legend>' +
        '<div class="choice"><input type="radio" id="eligibility-0" name="eligibility" value="eligible" aria-invalid="true" aria-describedby="eligibility-error"> <label for="eligibility-0">Yes</label></div>' +
        '<div class="choice"><input type="radio" id="eligibility-1" name="eligibility" value="ineligible" aria-invalid="true" aria-describedby="eligibility-error"> <label for="eligibility-1">No</label></div>' +
        '<p class="error" id="eligibility-error">Answer the health question.</p></fieldset>',
    );
  });

  it('the error list says this for one, these for more', () => {
    expect(errorSummary({ state: 'Choose.' }, { state: 'State' })).toContain(
      '<h2>Please correct this</h2><ul><li><a href="#state">State: Choose.</a></li></ul>',
    );
    expect(errorSummary({ a: 'x', b: 'y' }, {})).toContain(
      '<h2>Please correct these</h2><ul><li><a href="#a">a: x</a></li><li><a href="#b">b: y</a></li></ul>',
    );
    expect(errorSummary({}, {})).toBe('');
  });
});
