// GET / on the sandbox: a small index with links to the documents, instead of a bare JSON 404 for
// someone who opens the address in a browser. It needs no key, so it names no session: a checkout
// is reached only through the redirect_url that its channel's create answered.
import { escapeHtml } from './page.js';

/** The index has no style, script, form or frame: its policy allows none. */
export const INDEX_PAGE_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** `docs`: whether the sandbox serves the docs site at /docs/ (started with a docs folder). */
export function indexPage(docs: boolean): string {
  const links = [
    ...(docs ? [['/docs/', 'The docs: guides, the reference, and a console that sends requests here']] : []),
    ['/openapi.json', 'The contract (OpenAPI 3.1, JSON)'],
    ['/openapi.yaml', 'The contract (YAML)'],
    ['/openapi-3.0.json', 'The contract for tools that read only OpenAPI 3.0 (3.0.3, JSON)'],
    ['/openapi-3.0.yaml', 'The contract for tools that read only OpenAPI 3.0 (YAML)'],
    ['/sandbox/openapi.json', "The sandbox helpers' document (/sandbox/v1/)"],
    ['/health', 'Health'],
  ];
  const items = links.map(([href, text]) => `<li><a href="${escapeHtml(href!)}">${escapeHtml(text!)}</a></li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>HSA/FSA checkout sandbox</title></head>` +
    `<body><h1>HSA/FSA checkout sandbox</h1><p>Send <code>x-service-api-key</code> on every API call. ` +
    `A payment session's hosted checkout is the <code>redirect_url</code> that its create answered.</p><ul>${items}</ul></body></html>`;
}
