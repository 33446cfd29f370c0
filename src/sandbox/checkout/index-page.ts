// GET / on the sandbox: a small index with links to the documents and the newest checkout, instead
// of a bare JSON 404 for someone who opens the address in a browser.
import { escapeHtml } from './page.js';

export function indexPage(newestCheckout: string | undefined): string {
  const links = [
    ['/openapi.json', 'The contract (OpenAPI 3.1, JSON)'],
    ['/openapi.yaml', 'The contract (YAML)'],
    ['/sandbox/openapi.json', "The sandbox helpers' document (/sandbox/v1/)"],
    ...(newestCheckout ? [[newestCheckout, 'The hosted checkout of the newest payment session']] : []),
    ['/health', 'Health'],
  ];
  const items = links.map(([href, text]) => `<li><a href="${escapeHtml(href!)}">${escapeHtml(text!)}</a></li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>HSA/FSA checkout sandbox</title></head>` +
    `<body><h1>HSA/FSA checkout sandbox</h1><p>Send <code>x-service-api-key</code> on every API call.</p><ul>${items}</ul></body></html>`;
}
