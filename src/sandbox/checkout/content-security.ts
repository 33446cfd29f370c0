// The security headers of a hosted page: a Content-Security-Policy that allows what this page
// needs and nothing more, decided by the page (its scripts, its form) and by its session or
// provision request (page-exits.ts).
//
// - Nothing is loaded (`default-src 'none'`); the one inline style and the page's inline scripts
//   are allowed by hash (inline-assets.ts). A page without a script allows none.
// - A form posts only to the page itself. Outside iframe mode its last POST answers a 303 to
//   success_url or failure_url, and browsers check form-action on that redirect too (chromium
//   blocks it), so those origins are allowed as well. An iframe-mode flow ends with a page, not a
//   redirect. A page without a form allows no form target.
// - iframe mode: framed by the partner's origins only; otherwise by no one, also said with
//   X-Frame-Options for browsers without frame-ancestors (which cannot name several origins).
import type { Page } from './layout.js';
import { PAGE_STYLE } from './inline-assets.js';
import type { PageExits } from './page-exits.js';

export function securityHeaders(page: Page, exits: PageExits): Record<string, string> {
  const framed = exits.iframe && exits.origins.length > 0;
  const formTargets = exits.iframe ? ["'self'"] : ["'self'", ...exits.origins];
  const directives = [
    "default-src 'none'",
    `style-src ${PAGE_STYLE.source}`,
    ...(page.needs.scripts.length > 0 ? [`script-src ${page.needs.scripts.join(' ')}`] : []),
    `form-action ${page.needs.form ? formTargets.join(' ') : "'none'"}`,
    "base-uri 'none'",
    `frame-ancestors ${framed ? exits.origins.join(' ') : "'none'"}`,
  ];
  return { 'content-security-policy': directives.join('; '), ...(framed ? {} : { 'x-frame-options': 'DENY' }) };
}
