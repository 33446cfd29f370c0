// The dashboard's page (GET /dashboard/): a shell without data, which its script fills once a key
// is typed in. Its one style and one script are inline and allowed by hash; the script reads its
// settings (the page's Resend token) from a JSON data block, which never runs.
import type { InlineAsset } from '../checkout/inline-assets.js';
import { escapeHtml } from '../checkout/page.js';
import { DASHBOARD_STYLE } from './style.js';

/** Allows the page's style, its script and requests to its own origin; nothing else, no form target, no frame. */
export const dashboardPolicy = (script: InlineAsset) =>
  [
    "default-src 'none'",
    `style-src ${DASHBOARD_STYLE.source}`,
    `script-src ${script.source}`,
    "connect-src 'self'",
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

/** A JSON data block: `<` escaped, so that no value can close the element. */
const dataBlock = (id: string, value: unknown) =>
  `<script type="application/json" id="${id}">${JSON.stringify(value).replace(/</g, '\\u003c')}</script>`;

const section = (id: string, title: string, intro = '') =>
  `<section aria-labelledby="${id}-title"${id === 'detail' ? ' id="detail-section" hidden' : ''}>` +
  `<h2 id="${id}-title">${escapeHtml(title)}</h2>${intro}<div id="${id}"></div></section>`;

const EVENTS_INTRO =
  '<p class="hint">The outbox, newest first: each event with its latest delivery attempts, ' +
  "the receiver's status and the first characters of its answer. " +
  'Resend delivers an event again under the same <code>webhook_delivery_id</code>.</p>';

/** `docs`: whether the sandbox serves the docs site (the bar links it); `script`: the page's (script.ts). */
export function dashboardPage(token: string, docs: boolean, script: InlineAsset): string {
  const nav = `${docs ? '<a href="/docs/">Docs</a>' : ''}<a href="/dashboard/" aria-current="page">Dashboard</a>`;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>Dashboard · HSA/FSA checkout sandbox</title>${DASHBOARD_STYLE.element}</head><body>` +
    '<a class="skip" href="#main">Skip to the dashboard</a>' +
    '<header class="top"><a class="brand" href="/">HSA/FSA checkout sandbox</a>' +
    `<nav aria-label="Sandbox">${nav}</nav></header>` +
    '<main id="main" class="page"><h1>Dashboard</h1>' +
    '<p class="lead">The payment sessions, payment tokens, disputes and webhook events of one sales channel, ' +
    'as they change.</p>' +
    '<form id="key-form" class="key"><label for="api-key">API key</label><div class="row">' +
    '<input id="api-key" name="api-key" type="password" autocomplete="off" spellcheck="false" ' +
    'aria-describedby="key-hint">' +
    '<button type="submit">Show its channel</button>' +
    '<button type="button" id="forget" class="secondary">Forget the key</button></div>' +
    '<p id="key-hint" class="hint">Kept in this tab only, and sent in the <code>x-service-api-key</code> header, ' +
    'never in a URL. ' +
    'The development key is <code>sandbox-dev-key</code>.</p></form>' +
    '<p id="status" class="status" role="status">Type an API key to see its channel.</p>' +
    '<p id="updated" class="hint"></p>' +
    '<div id="channel" hidden>' +
    section('sessions', 'Payment sessions') +
    section('detail', 'Selected session') +
    section('tokens', 'Payment tokens') +
    section('disputes', 'Disputes') +
    section('events', 'Webhook events', EVENTS_INTRO) +
    '</div></main>' +
    `${dataBlock('dashboard-settings', { token })}${script.element}</body></html>`
  );
}
