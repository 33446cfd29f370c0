// The docs site as files (the browser test, tests/browser/docs.test.ts, reads it as a person
// does): nothing is loaded from outside, the reference inlines Redoc and renders every operation,
// every guide is a page whose links resolve, no guide runs a script, and the state diagrams come
// from the document's own tables, so that a changed table changes its diagram.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the docs builder is plain JavaScript, without types.
import { buildSite, isFresh } from '../../scripts/docs/build-site.mjs';
// @ts-expect-error: as above.
import { GUIDES } from '../../scripts/docs/pages.mjs';
// @ts-expect-error: as above.
import { edgesOf, stateDiagrams, tableRows } from '../../scripts/docs/state-diagrams.mjs';
import { openEnumValues } from '../../scripts/lib/open-enum.mjs';
import { contract, operations, repoRoot } from '../support/contract.js';

/** The contract, with the tags whose descriptions hold the state tables. */
type Tagged = typeof contract & { tags: Array<{ name: string; description?: string }> };
const doc = contract as Tagged;

let dir: string;
const read = (file: string) => readFileSync(path.join(dir, file), 'utf8');
const htmlFiles = (sub = ''): string[] => readdirSync(path.join(dir, sub), { withFileTypes: true })
  .flatMap((e) => (e.isDirectory() ? htmlFiles(path.join(sub, e.name)) : e.name.endsWith('.html') ? [path.join(sub, e.name)] : []));

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'contract-docs-'));
  await buildSite(dir, { quiet: true });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the docs site', () => {
  it('loads no script, stylesheet or image from the network, on any page', () => {
    const pages = htmlFiles();
    expect(pages.length).toBe(GUIDES.length + 3);
    for (const page of pages) {
      const external = [...read(page).matchAll(/<(script|link|img)\b[^>]*\b(src|href)=["']?(https?:)?\/\//gi)].map((m) => m[0]);
      expect({ page, external }).toEqual({ page, external: [] });
    }
  });

  it('inlines the Redoc bundle and renders every operation in the reference', () => {
    const html = read('reference/index.html');
    expect(html).toMatch(/<script>[\s\S]{100000,}<\/script>/);
    expect(html).not.toContain('cdn.redoc.ly/redoc/logo');
    for (const { op } of operations()) expect(html).toContain(op.summary);
  });

  it('serves the console\'s bundle from the site itself, with its default fonts off', () => {
    expect(existsSync(path.join(dir, 'try', 'scalar.js'))).toBe(true);
    expect(read('try/index.html')).toContain('<script src="scalar.js"></script>');
    expect(read('try/console.js')).toContain('withDefaultFonts: false');
  });

  it('gives the console a copy of the contract whose example bodies hold no {{…}}, and mean the same JSON', () => {
    type Examples = Record<string, { value?: unknown; serializedValue?: string }>;
    const copy = JSON.parse(read('try/openapi.json')) as { components: { examples: Examples } };
    const ours = (contract as unknown as { components: { examples: Examples } }).components.examples;
    const templated = Object.keys(ours).filter((name) => JSON.stringify(ours[name]!.value).includes('{{payment_session_id}}'));
    expect(templated.length).toBeGreaterThan(0);
    for (const [name, example] of Object.entries(copy.components.examples)) {
      // What Scalar shows and sends: the serialized body when there is one, else the value as JSON.
      const body = example.serializedValue ?? JSON.stringify(example.value, null, 2);
      expect({ name, variable: /\{\{/.test(body) }).toEqual({ name, variable: false });
      // The sandbox reads the same JSON as the contract's example: the template included.
      expect(JSON.parse(body), name).toEqual(ours[name]!.value);
    }
    // The contract itself keeps the template, and the console reads its copy.
    expect(JSON.stringify(ours[templated[0]!]!.value)).toContain('{{payment_session_id}}');
    expect(read('try/console.js')).toContain("url: 'openapi.json'");
  });

  it('renders every guide, with no script, and every link resolving to a page or a reference anchor', () => {
    const anchors = new Set(operations().map(({ op }) => `#/${op.tags![0]!.toLowerCase().replace(/[^a-z0-9]+/g, '-')}/${op.operationId!.toLowerCase()}`));
    for (const tag of doc.tags) anchors.add(`#/${tag.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`);
    for (const { slug } of GUIDES as Array<{ slug: string }>) {
      const html = read(`guides/${slug}.html`);
      expect(html).not.toMatch(/<script/i);
      for (const [, href] of html.matchAll(/<a href="([^"]+)"/g)) {
        if (/^(https?:|mailto:|#)/.test(href!)) continue;
        const [file, hash] = href!.split('#');
        expect({ slug, href, exists: existsSync(path.join(dir, 'guides', file!)) }).toEqual({ slug, href, exists: true });
        if (file!.endsWith('reference/') && hash) expect({ slug, href, known: anchors.has(`#${hash}`) }).toEqual({ slug, href, known: true });
      }
    }
  });

  it('draws each diagram a guide asks for, inline, once', () => {
    const html = read('guides/state-machines.html');
    expect(html.match(/<figure class="diagram"/g)).toHaveLength(4);
    expect(read('guides/checkout-flow.html')).toMatch(/<figure class="diagram"[^>]*><svg role="img"/);
    expect(read('guides/payment-tokens.html')).toMatch(/<figure class="diagram"[^>]*><svg role="img"/);
  });

  it('offers the contract in OpenAPI 3.1 and, beside it, its 3.0.3 companion, as files of the site itself', () => {
    const documents = ['openapi.json', 'openapi.yaml', 'openapi-3.0.json', 'openapi-3.0.yaml'];
    for (const [page, up] of [['index.html', ''], ['reference/index.html', '../']] as const) {
      const links = [...read(page).matchAll(/<a href="([^"]+)" download>/g)].map((m) => m[1]);
      expect({ page, links }).toEqual({ page, links: documents.map((file) => `${up}downloads/${file}`) });
    }
    for (const file of documents) expect(read(`downloads/${file}`)).toBe(readFileSync(path.join(repoRoot, 'generated', file), 'utf8'));
    expect(JSON.parse(read('downloads/openapi-3.0.json')).openapi).toBe('3.0.3');
  });

  it('sums up every guide on the landing page in its first whole sentence, never one cut at a colon', () => {
    const blurbs = [...read('index.html').matchAll(/<li><a href="guides\/[\w-]+\.html">[^<]+<\/a> — ([^<]+)<\/li>/g)].map((m) => m[1]!);
    expect(blurbs).toHaveLength(GUIDES.length);
    for (const blurb of blurbs) expect(blurb).toMatch(/^This guide [^:]*(:[^:]+)?\.$/);
    expect(blurbs).toContain('This guide explains who does what during a checkout: your server, the customer\'s browser, the hosted page, the service and the webhook.');
  });

  it('knows when it is stale: a stamp of other inputs is', () => {
    expect(isFresh(dir)).toBe(true);
    const stamp = path.join(dir, '.inputs-sha256');
    writeFileSync(stamp, 'another build');
    expect(isFresh(dir)).toBe(false);
  });
});

describe('the state diagrams, from the document\'s tables', () => {
  const sessionTable = () => doc.tags.find((t) => t.name === 'Payment sessions')!.description!;

  it('has an edge for every row of the session status table, and every status', async () => {
    const rows = tableRows(sessionTable(), '| State | Moved by | Condition | Next state |');
    expect(rows).toHaveLength(9);
    const edges = edgesOf(rows, { from: 0, movedBy: 1, condition: 2, to: 3, also: 4 });
    expect(edges).toContainEqual({ from: 'pending', to: 'canceled', label: 'cancel: customer has not entered payment information', webhooks: ['payment_session_complete'] });
    expect(edges).toContainEqual(expect.objectContaining({ from: 'authorized', to: 'authorization_expired' }));
    const svg = (await stateDiagrams(contract))['session-status'];
    for (const status of openEnumValues(contract.components!.schemas!.PaymentSessionStatus)!) expect(svg).toContain(`>${status}<`);
  });

  it('changes when the table changes: a new row is a new edge', async () => {
    const copy = structuredClone(doc);
    const tag = copy.tags.find((t) => t.name === 'Payment sessions')!;
    tag.description = tag.description!.replace('| `authorized` | void |', '| `captured` | chargeback lost | | `lost_to_the_bank` | |\n| `authorized` | void |');
    const svg = (await stateDiagrams(copy))['session-status'];
    expect(svg).toContain('lost_to_the_bank');
    expect((await stateDiagrams(contract))['session-status']).not.toContain('lost_to_the_bank');
  });

  it('fails the build, not the page, when a table it reads is gone', async () => {
    const copy = structuredClone(doc);
    copy.tags.find((t) => t.name === 'Disputes')!.description = 'No table here.';
    await expect(stateDiagrams(copy)).rejects.toThrow('No table with header "| State | Moved by | Next | Also |"');
  });
});

describe('a guide that asks for a diagram no one draws', () => {
  it('fails the build with the diagram\'s name', async () => {
    const docs = mkdtempSync(path.join(os.tmpdir(), 'contract-guides-'));
    const out = mkdtempSync(path.join(os.tmpdir(), 'contract-docs-bad-'));
    try {
      cpSync(path.join(repoRoot, 'docs'), docs, { recursive: true });
      writeFileSync(path.join(docs, 'guides', 'disputes.md'), '# Disputes\n\nText.\n\n<!-- diagram: no-such-diagram -->\n');
      await expect(buildSite(out, { quiet: true, docs })).rejects.toThrow('"no-such-diagram", which does not exist');
    } finally {
      rmSync(docs, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
