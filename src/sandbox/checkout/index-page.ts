// GET / on the sandbox: where to go from here (the docs, the dashboard, the return pages, the
// documents), in the docs site's look, instead of a bare JSON 404 for someone who opens the address
// in a browser. It needs no key, so it names no session and no key: a checkout is reached only
// through the redirect_url that its channel's create answered.
import { escapeHtml } from './page.js';
import { RETURN_PATHS, returnUrlTemplate } from './return-pages.js';
import { SITE_PAGE_POLICY, SITE_STYLE } from './site-style.js';

/** The index has one inline style (by its hash), and no script, form or frame. */
export const INDEX_PAGE_POLICY = SITE_PAGE_POLICY;

const DOCUMENTS: Array<[string, string]> = [
  ['/openapi.json', 'The contract, OpenAPI 3.1 (JSON)'],
  ['/openapi.yaml', 'The contract, OpenAPI 3.1 (YAML)'],
  ['/openapi-3.0.json', 'The same contract for tools that read only OpenAPI 3.0 (3.0.3, JSON)'],
  ['/openapi-3.0.yaml', 'The same contract for tools that read only OpenAPI 3.0 (3.0.3, YAML)'],
  ['/sandbox/openapi.json', "The sandbox helpers' document, /sandbox/v1/ (JSON)"],
  ['/sandbox/openapi.yaml', "The sandbox helpers' document, /sandbox/v1/ (YAML)"],
];

const link = (href: string, text: string) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
const card = (href: string, title: string, text: string) =>
  `<a class="card" href="${escapeHtml(href)}"><h2>${escapeHtml(title)}</h2><p>${escapeHtml(text)}</p></a>`;

/**
 * `docs`: whether the sandbox serves the docs site at /docs/ (started with a docs folder);
 * `origin`: the sandbox's public address, for the return pages' URLs to copy.
 */
export function indexPage(docs: boolean, origin: string): string {
  const nav = [
    ...(docs ? [link('/docs/', 'Docs'), link('/docs/reference/', 'API reference'), link('/docs/try/', 'Try it')] : []),
    link('/dashboard/', 'Dashboard'),
  ].join('');
  const cards = [
    ...(docs
      ? [card('/docs/', 'Docs', 'Guides, the API reference, and a console that sends requests to this sandbox.')]
      : []),
    card(
      '/dashboard/',
      'Dashboard',
      'The sessions, tokens, disputes and webhook deliveries of a channel, as they happen.',
    ),
    ...(docs
      ? [card('/docs/guides/quick-start.html', 'Quick start', 'A first captured payment in five minutes, with curl.')]
      : []),
  ].join('');
  const returns = (['success', 'failure'] as const)
    .map(
      (outcome) =>
        `<li>${link(RETURN_PATHS[outcome], RETURN_PATHS[outcome])}: as <code>${outcome}_url</code>, ` +
        `<code>${escapeHtml(returnUrlTemplate(origin, outcome))}</code></li>`,
    )
    .join('');
  const documents = DOCUMENTS.map(([href, text]) => `<li>${link(href, text)}</li>`).join('');
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" ' +
    'content="width=device-width, initial-scale=1">' +
    `<title>HSA/FSA checkout sandbox</title>${SITE_STYLE.element}</head><body>` +
    '<a class="skip" href="#content">Skip to content</a>' +
    `<header class="top"><a class="brand" href="/">HSA/FSA checkout sandbox</a><nav ` +
    `aria-label="Sandbox">${nav}</nav></header>` +
    '<main id="content"><h1>HSA/FSA checkout sandbox</h1>' +
    '<p class="lead">Every operation of the HSA/FSA Checkout API, with its state machines, idempotency and error ' +
    'codes; ' +
    'the hosted checkout pages and their test cards; signed webhooks; and helpers under <code>/sandbox/v1/</code> ' +
    'that play the customer, the review and the clock. ' +
    "Send your API key as <code>x-service-api-key</code> on every API call; a session's hosted checkout is the " +
    '<code>redirect_url</code> its create answered.</p>' +
    `<div class="cards">${cards}</div>` +
    '<h2>Return pages</h2><p>Where a hosted flow can end while your store has no page of its own: each shows the ' +
    "payment session's id and status " +
    "(or the provision token request's, for a payment token's setup).</p>" +
    `<ul class="links">${returns}</ul>` +
    `<h2>Documents</h2><ul class="links">${documents}</ul>` +
    `<p>${link('/health', 'Health')}</p></main></body></html>`
  );
}
