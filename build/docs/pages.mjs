// The site's own pages: the landing page, one page per guide (Markdown from docs/, rendered with
// marked, diagrams inlined as SVG), and the try-it console's page. One layout and one stylesheet;
// nothing is loaded from outside the site.
import { Marked } from 'marked';
import { anchorSlug, operationsOf, referenceAnchor } from './reference-document.mjs';

/** The guides, in reading order: their source under docs/ and their page name. */
export const GUIDES = [
  { slug: 'quick-start', source: 'guides/quick-start.md' },
  { slug: 'checkout-flow', source: 'guides/checkout-flow.md' },
  { slug: 'state-machines', source: 'guides/state-machines.md' },
  { slug: 'idempotency', source: 'guides/idempotency.md' },
  { slug: 'webhooks', source: 'guides/webhooks.md' },
  { slug: 'payment-tokens', source: 'guides/payment-tokens.md' },
  { slug: 'disputes', source: 'guides/disputes.md' },
  { slug: 'testing', source: 'guides/testing.md' },
  { slug: 'sandbox', source: 'guides/sandbox.md' },
  { slug: 'hosting', source: 'guides/hosting.md' },
  { slug: 'versioning', source: 'guides/versioning.md' },
  { slug: 'client-and-webhooks', source: 'client-and-webhooks.md' },
  { slug: 'package', source: 'guides/package.md' },
];

/** The contract's documents that the site offers (copied into downloads/): OpenAPI 3.1, and its 3.0.3 companion. */
export const DOCUMENTS = [
  { file: 'openapi.json', version: '3.1', format: 'JSON' },
  { file: 'openapi.yaml', version: '3.1', format: 'YAML' },
  { file: 'openapi-3.0.json', version: '3.0.3', format: 'JSON' },
  { file: 'openapi-3.0.yaml', version: '3.0.3', format: 'YAML' },
];

/** The links to the documents of one OpenAPI version, `up` leading to the site's root. */
const downloads = (version, up) =>
  DOCUMENTS.filter((d) => d.version === version)
    .map((d) => `<a href="${up}downloads/${d.file}" download><code>${d.file}</code></a>`)
    .join(' · ');

/** Both documents, one line each: on the landing page, and in the bar above the reference. */
export const documentLinks = (up = '') => `<ul class="documents">
<li>OpenAPI 3.1, the contract: ${downloads('3.1', up)}</li>
<li>OpenAPI 3.0.3, the same contract for tools that read only 3.0 (what 3.0 cannot say is kept in <code>x-</code> extensions): ${downloads('3.0.3', up)}</li>
</ul>`;

export const escapeHtml = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A guide's title: its first level-1 heading. */
export const titleOf = (markdown) => {
  const found = /^# (.+)$/m.exec(markdown);
  if (!found) throw new Error('A guide starts with a "# Title" line');
  return found[1].trim();
};

/** Turns a Markdown heading into the id of its anchor, as GitHub does (lower case, dashes). */
const slugOf = (text) =>
  text
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s+/g, '-');

/**
 * Where a reference link of a guide lands in the rendered reference: guides write
 * `../reference/#operation/<operationId>` or `../reference/#tag/<Tag name>`, and Redoc's anchors
 * are `#/<tag-slug>/<operationid>` and `#/<tag-slug>`.
 */
export function referenceAnchors(doc) {
  const operations = new Map(operationsOf(doc).map((entry) => [entry.op.operationId, referenceAnchor(entry)]));
  const tags = new Map(doc.tags.map((t) => [t.name, `#/${anchorSlug(t.name)}`]));
  return (hash) => {
    const [kind, name] = [hash.split('/')[0], decodeURIComponent(hash.slice(hash.indexOf('/') + 1))];
    const found = kind === '#operation' ? operations.get(name) : kind === '#tag' ? tags.get(name) : undefined;
    if (!found)
      throw new Error(
        `A guide links to ${hash} in the reference, which has no such ${kind === '#operation' ? 'operation' : 'tag'}`,
      );
    return found;
  };
}

function markdownRenderer(anchorOf) {
  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      heading({ tokens, depth }) {
        const text = this.parser.parseInline(tokens);
        return `<h${depth} id="${slugOf(text)}">${text}</h${depth}>\n`;
      },
      link({ href, title, tokens }) {
        const text = this.parser.parseInline(tokens);
        // A guide links to another by its Markdown file; on the site that file is a page. A
        // reference link is pointed at Redoc's anchor for it.
        const target = href
          .replace(/^(?:\.\/|\.\.\/|guides\/)?([\w-]+)\.md(#.*)?$/, (_m, name, anchor = '') => `${name}.html${anchor}`)
          .replace(/^(\.\.\/reference\/)(#(?:operation|tag)\/.+)$/, (_m, page, hash) => `${page}${anchorOf(hash)}`);
        const external = /^https?:/.test(target);
        return `<a href="${escapeHtml(target)}"${title ? ` title="${escapeHtml(title)}"` : ''}${external ? ' rel="noreferrer"' : ''}>${text}</a>`;
      },
    },
  });
  return marked;
}

/** A guide's HTML body, its diagram markers (`<!-- diagram: name -->`) replaced by the figures. */
export function renderGuide(markdown, diagrams, anchorOf = (hash) => hash) {
  // A region that scrolls sideways (a code block, a wide table) takes the keyboard focus, so that
  // a reader without a mouse can scroll it.
  const html = markdownRenderer(anchorOf)
    .parse(markdown)
    .replace(/<pre>/g, '<pre tabindex="0">')
    .replace(/<table>/g, '<table tabindex="0">');
  return html.replace(/<!--\s*diagram:\s*([\w-]+)\s*-->/g, (_m, name) => {
    const svg = diagrams[name];
    if (!svg)
      throw new Error(
        `A guide asks for the diagram "${name}", which does not exist (known: ${Object.keys(diagrams).join(', ')})`,
      );
    const label = /aria-label="([^"]*)"/.exec(svg)?.[1] ?? name;
    return `<figure class="diagram" tabindex="0">${svg}<figcaption>${label}</figcaption></figure>`;
  });
}

const NAV = [
  { href: 'index.html', label: 'Home' },
  { href: 'guides/quick-start.html', label: 'Guides' },
  { href: 'reference/index.html', label: 'API reference' },
  { href: 'try/index.html', label: 'Try it' },
];

/**
 * A page of the site: `depth` is how many folders below the site's root it lives (for relative links).
 * The page's own text comes before the list of guides: on a phone, where the two stack, the guide
 * starts on the first screen; on a wide screen the stylesheet puts the list on the left.
 */
export function layout({ title, body, depth, current, guides = [], activeGuide }) {
  const up = '../'.repeat(depth);
  const nav = NAV.map(
    ({ href, label }) => `<a href="${up}${href}"${label === current ? ' aria-current="page"' : ''}>${label}</a>`,
  ).join('');
  const side =
    guides.length > 0
      ? `<nav class="guides" aria-label="Guides"><h2>Guides</h2><ul>${guides.map((g) => `<li><a href="${up}guides/${g.slug}.html"${g.slug === activeGuide ? ' aria-current="page"' : ''}>${escapeHtml(g.title)}</a></li>`).join('')}</ul></nav>`
      : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · HSA/FSA Checkout API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${up}assets/site.css">
</head>
<body>
<a class="skip" href="#content">Skip to content</a>
<header class="top"><a class="brand" href="${up}index.html">HSA/FSA Checkout API</a><nav aria-label="Site">${nav}</nav></header>
<div class="page${side ? ' with-side' : ''}">
<main id="content">
${body}
</main>
${side}
</div>
</body>
</html>
`;
}

/** The landing page: where to start, every guide, the reference and the console. */
export function landingPage({ guides, operations, webhooks }) {
  const body = `<h1>HSA/FSA Checkout API</h1>
<p class="lead">Charge HSA and FSA cards from your checkout: create a payment session, send the customer to the hosted page, and learn the outcome from a signed webhook. These docs work offline; served by the sandbox, the console sends real requests to it.</p>
<div class="cards">
<a class="card" href="guides/quick-start.html"><h2>Quick start</h2><p>The first captured payment in five minutes, against the sandbox.</p></a>
<a class="card" href="reference/index.html"><h2>API reference</h2><p>${operations} operations and ${webhooks} webhooks, with every field, error code and example.</p></a>
<a class="card" href="try/index.html"><h2>Try it</h2><p>Send a request to the sandbox from the page, with the development key filled in.</p></a>
</div>
<h2>Guides</h2>
<ul class="guide-list">${guides.map((g) => `<li><a href="guides/${g.slug}.html">${escapeHtml(g.title)}</a> — ${escapeHtml(g.summary)}</li>`).join('')}</ul>
<h2 id="openapi-documents">OpenAPI documents</h2>
<p>Generate a client from the contract in your own repository. Use the OpenAPI 3.1 document wherever your generator reads it; the OpenAPI 3.0.3 companion is the same contract for the generators that read only 3.0.</p>
${documentLinks()}`;
  return layout({ title: 'Home', body, depth: 0, current: 'Home' });
}

/**
 * The try-it console: Scalar's standalone bundle, served from the site itself, with its default
 * fonts off (they come from a CDN) and the document, the server and the key taken from the
 * sandbox that serves the page. Opened from a file, it has no sandbox to talk to, and says so.
 */
export function tryItPage() {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Try it · HSA/FSA Checkout API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="../assets/site.css">
</head>
<body class="try">
<a class="skip" href="#app">Skip to the console</a>
<header class="top"><a class="brand" href="../index.html">HSA/FSA Checkout API</a><nav aria-label="Site"><a href="../index.html">Home</a><a href="../guides/quick-start.html">Guides</a><a href="../reference/index.html">API reference</a><a href="index.html" aria-current="page">Try it</a></nav></header>
<p class="notice" id="offline" hidden>This console sends requests to the sandbox that serves it. Start one with <code>npm start</code> and open <code>http://127.0.0.1:4010/docs/try/</code>.</p>
<main id="app"></main>
<script src="scalar.js"></script>
<script src="console.js"></script>
</body>
</html>
`;
}

/**
 * The try-it console's copy of the contract. Scalar takes every `{{name}}` in a request body for
 * one of its environment variables, and shows the create request's `{{payment_session_id}}` as an
 * unset one; it has no way to write the text itself. So each example that holds the template gets
 * the body Scalar shows as JSON text (`serializedValue`, which Scalar prefers to `value`), with the
 * template's first brace written as JSON's escape `\u007b`: the console shows no variable, and the
 * sandbox still reads `{{payment_session_id}}`. The contract's own examples keep the template.
 */
export function consoleDocument(doc) {
  const copy = structuredClone(doc);
  for (const example of Object.values(copy.components?.examples ?? {})) {
    if (example.value === undefined) continue;
    const text = JSON.stringify(example.value, null, 2);
    // In JSON text from JSON.stringify, two braces in a row occur only inside a string.
    if (text.includes('{{')) example.serializedValue = text.replaceAll('{{', '\\u007b{');
  }
  return copy;
}

/**
 * The console's start-up, a file of its own so that a strict script policy can serve it.
 * `anchors` maps each operationId to the console's anchor of it: the reference links an operation
 * as `../try/?operation=<operationId>` (Redoc keeps a link with a `#` inside its own page), and the
 * console opens at that operation.
 */
export const tryItScript = (
  anchors,
) => `// Starts Scalar on the sandbox that serves this page: its contract, its origin, its development key.
(function () {
  if (location.protocol === 'file:') {
    document.getElementById('offline').hidden = false;
    return;
  }
  // A link from the reference names its operation: the console opens at it.
  var anchors = ${JSON.stringify(anchors)};
  var wanted = new URLSearchParams(location.search).get('operation');
  if (wanted && Object.prototype.hasOwnProperty.call(anchors, wanted)) history.replaceState(null, '', location.pathname + anchors[wanted]);
  Scalar.createApiReference('#app', {
    // The contract as the sandbox serves it, but for the examples that hold {{payment_session_id}}
    // (consoleDocument in build/docs/pages.mjs).
    url: 'openapi.json',
    servers: [{ url: location.origin, description: 'This sandbox' }],
    authentication: { preferredSecurityScheme: 'ServiceApiKey', securitySchemes: { ServiceApiKey: { value: 'sandbox-dev-key' } } },
    withDefaultFonts: false,
    // The developer tools' share and deploy menus lead to scalar.com; a console of a local sandbox needs neither.
    showDeveloperTools: 'never',
    // Its document is the console's copy; the contract's own documents are offered on the landing
    // page and above the reference.
    documentDownloadType: 'none',
    // "Open API Client" opens scalar.com's hosted client, and "Generate MCP" its MCP service: both
    // send this sandbox's address to another site, so both are off. "Test Request" stays.
    hideClientButton: true,
    mcp: { disabled: true },
    showSidebar: true,
    // The assistant fetches a registry of APIs from scalar.com: off, so that nothing leaves this origin.
    agent: { disabled: true },
    telemetry: false,
    theme: 'default',
  });
})();
`;
