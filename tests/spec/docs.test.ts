// The docs site as files (the browser test, tests/browser/docs.test.ts, reads it as a person
// does): nothing is loaded from outside, the reference inlines Redoc and renders every operation,
// each with curl and a sample in every language of the partner matrix, each identical to the code
// the matrix runs, with the local sandbox as its first server, and a link to the same operation in
// the console (and back); every guide is a page whose links resolve, no guide runs a script, and
// the state diagrams come from the document's own tables, so that a changed table changes its
// diagram.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the docs builder is plain JavaScript, without types.
import { buildSite, isFresh } from '../../build/docs/build-site.mjs';
// @ts-expect-error: as above.
import { GUIDES } from '../../build/docs/pages.mjs';
// @ts-expect-error: as above.
import { edgesOf, stateDiagrams, tableRows } from '../../build/docs/state-diagrams.mjs';
import {
  consoleAnchor,
  referenceAnchor,
  samplePrograms,
  SANDBOX_SERVER,
  // @ts-expect-error: as above (where a long import is wrapped, on the line that names the module).
} from '../../build/docs/reference-document.mjs';
import { openEnumValues } from '../../src/contract/open-enum.js';
import { commentOf, operationIdsOf, samplesOf } from '../../build/lib/samples.mjs';
import { curlSamples, rows } from '../../partners/harness/index.js';
import { contract, operations, repoRoot } from '../../testkit/contract.js';

/** The contract, with the tags whose descriptions hold the state tables. */
type Tagged = typeof contract & { tags: Array<{ name: string; description?: string }> };
const doc = contract as Tagged;

let dir: string;
const read = (file: string) => readFileSync(path.join(dir, file), 'utf8');

interface CodeSample {
  lang: string;
  label: string;
  source: string;
}
type ReferenceOperation = {
  operationId?: string;
  tags?: string[];
  description?: string;
  'x-codeSamples'?: CodeSample[];
};
interface ReferenceDocument {
  servers: Array<{ url: string; description?: string }>;
  paths: Record<string, Record<string, ReferenceOperation>>;
}

/** The document the reference renders: Redoc's build inlines it into the page. */
const referenceDefinition = (): ReferenceDocument => {
  const html = read('reference/index.html');
  const start = html.indexOf('const __redoc_definition = ') + 'const __redoc_definition = '.length;
  return JSON.parse(html.slice(start, html.indexOf(';\n      const __redoc_options', start))) as ReferenceDocument;
};
const operationsOfDocument = (doc: ReferenceDocument) =>
  Object.entries(doc.paths).flatMap(([route, item]) =>
    Object.entries(item)
      .filter(([, op]) => op?.operationId)
      .map(([method, op]) => ({ route, method, op })),
  );
const referenceOperations = () => operationsOfDocument(referenceDefinition());

/** The console's map from an operationId to its anchor, as console.js holds it. */
const consoleAnchors = () =>
  JSON.parse(/var anchors = (\{.*\});/.exec(read('try/console.js'))![1]!) as Record<string, string>;

/** A line of code without its indentation; blank lines left out. */
const significantLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * A program's samples two ways: cut by the shared extraction, and, independently, the lines
 * between each `sample:` marker and the next `end sample`.
 */
function regionsOf(file: string) {
  const text = readFileSync(path.join(repoRoot, file), 'utf8');
  const comment = commentOf(file);
  const { samples, problems } = samplesOf(text, comment, operationIdsOf(contract));
  expect({ file, problems }).toEqual({ file, problems: [] });
  const lines = text.split('\n');
  const between = (operationId: string) => {
    const start = lines.findIndex((line) => line.trim() === `${comment} sample: ${operationId}`);
    const end = lines.findIndex((line, i) => i > start && line.trim() === `${comment} end sample`);
    expect({ file, operationId, start: start >= 0, end: end > start }).toEqual({
      file,
      operationId,
      start: true,
      end: true,
    });
    return significantLines(lines.slice(start + 1, end).join('\n'));
  };
  return { cut: samples, between };
}
const htmlFiles = (sub = ''): string[] =>
  readdirSync(path.join(dir, sub), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? htmlFiles(path.join(sub, e.name)) : e.name.endsWith('.html') ? [path.join(sub, e.name)] : [],
  );

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
      const external = [...read(page).matchAll(/<(script|link|img)\b[^>]*\b(src|href)=["']?(https?:)?\/\//gi)].map(
        (m) => m[0],
      );
      expect({ page, external }).toEqual({ page, external: [] });
    }
  });

  it('inlines the Redoc bundle and renders every operation in the reference', () => {
    const html = read('reference/index.html');
    expect(html).toMatch(/<script>[\s\S]{100000,}<\/script>/);
    expect(html).not.toContain('cdn.redoc.ly/redoc/logo');
    for (const { op } of operations()) expect(html).toContain(op.summary);
  });

  it("serves the console's bundle from the site itself, with its default fonts off", () => {
    expect(existsSync(path.join(dir, 'try', 'scalar.js'))).toBe(true);
    expect(read('try/index.html')).toContain('<script src="scalar.js"></script>');
    expect(read('try/console.js')).toContain('withDefaultFonts: false');
  });

  it('gives the console a copy of the contract whose example bodies hold no {{…}}, and mean the same JSON', () => {
    type Examples = Record<string, { value?: unknown; serializedValue?: string }>;
    const copy = JSON.parse(read('try/openapi.json')) as { components: { examples: Examples } };
    const ours = (contract as unknown as { components: { examples: Examples } }).components.examples;
    const templated = Object.keys(ours).filter((name) =>
      JSON.stringify(ours[name]!.value).includes('{{payment_session_id}}'),
    );
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
    const anchors = new Set(
      operations().map(
        ({ op }) => `#/${op.tags![0]!.toLowerCase().replace(/[^a-z0-9]+/g, '-')}/${op.operationId!.toLowerCase()}`,
      ),
    );
    for (const tag of doc.tags) anchors.add(`#/${tag.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`);
    for (const { slug } of GUIDES as Array<{ slug: string }>) {
      const html = read(`guides/${slug}.html`);
      expect(html).not.toMatch(/<script/i);
      for (const [, href] of html.matchAll(/<a href="([^"]+)"/g)) {
        if (/^(https?:|mailto:|#)/.test(href!)) continue;
        const [file, hash] = href!.split('#');
        expect({ slug, href, exists: existsSync(path.join(dir, 'guides', file!)) }).toEqual({
          slug,
          href,
          exists: true,
        });
        if (file!.endsWith('reference/') && hash)
          expect({ slug, href, known: anchors.has(`#${hash}`) }).toEqual({ slug, href, known: true });
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
    for (const [page, up] of [
      ['index.html', ''],
      ['reference/index.html', '../'],
    ] as const) {
      const links = [...read(page).matchAll(/<a href="([^"]+)" download>/g)].map((m) => m[1]);
      expect({ page, links }).toEqual({ page, links: documents.map((file) => `${up}downloads/${file}`) });
    }
    for (const file of documents)
      expect(read(`downloads/${file}`)).toBe(readFileSync(path.join(repoRoot, 'generated', file), 'utf8'));
    expect(JSON.parse(read('downloads/openapi-3.0.json')).openapi).toBe('3.0.3');
  });

  it('sums up every guide on the landing page in its first whole sentence, never one cut at a colon', () => {
    const blurbs = [
      ...read('index.html').matchAll(/<li><a href="guides\/[\w-]+\.html">[^<]+<\/a> — ([^<]+)<\/li>/g),
    ].map((m) => m[1]!);
    expect(blurbs).toHaveLength(GUIDES.length);
    for (const blurb of blurbs) expect(blurb).toMatch(/^This guide [^:]*(:[^:]+)?\.$/);
    expect(blurbs).toContain(
      "This guide explains who does what during a checkout: your server, the customer's browser, the hosted page, the service and the webhook.",
    );
  });

  it('renders the reference from its own copy: the local sandbox first among its servers, the published documents unchanged', () => {
    const definition = referenceDefinition();
    expect(definition.servers[0]).toEqual({ url: 'http://127.0.0.1:4010', description: 'local sandbox (npm start)' });
    expect(definition.servers.slice(1)).toEqual(contract.servers);
    expect(SANDBOX_SERVER).toEqual(definition.servers[0]);
    // The contract itself says nothing of the sandbox nor of samples.
    const published = readFileSync(path.join(repoRoot, 'generated', 'openapi.json'), 'utf8');
    expect(published).not.toContain('x-codeSamples');
    expect(published).not.toContain('127.0.0.1:4010');
  });

  it('shows, beside every operation, curl and then a sample in each language of the partner matrix, each identical to the code the matrix runs', () => {
    const programs = [curlSamples, ...rows.map((row) => row.samples)];
    expect(programs).toHaveLength(14);
    const regions = new Map(programs.map((program) => [program.label, regionsOf(program.file)]));
    const reference = referenceOperations();
    expect(reference.map(({ op }) => op.operationId).sort()).toEqual(operationIdsOf(contract).sort());
    for (const { op } of reference) {
      const samples = op['x-codeSamples'] ?? [];
      expect({ operation: op.operationId, tabs: samples.map((s) => s.label) }).toEqual({
        operation: op.operationId,
        tabs: programs.map((p) => p.label),
      });
      for (const sample of samples) {
        const program = programs.find((p) => p.label === sample.label)!;
        expect(sample.lang).toBe(program.lang);
        // Cut by the shared extraction, and line for line the text between the program's markers.
        expect({ operation: op.operationId, label: sample.label, source: sample.source }).toEqual({
          operation: op.operationId,
          label: sample.label,
          source: regions.get(sample.label)!.cut.get(op.operationId!),
        });
        expect(significantLines(sample.source)).toEqual(regions.get(sample.label)!.between(op.operationId!));
      }
    }
  });

  it("offers the samples' languages in Redoc's code-sample menu, in the same order", () => {
    const options = JSON.parse(/const __redoc_options = (.*);\n/.exec(read('reference/index.html'))![1]!) as {
      codeSamples: { languages: Array<{ label: string; lang: string }> };
    };
    expect(options.codeSamples.languages).toEqual(
      referenceOperations()[0]!.op['x-codeSamples']!.map(({ label, lang }) => ({ label, lang })),
    );
  });

  it('links every operation of the reference to the same operation in the console, and back', () => {
    const anchors = consoleAnchors();
    for (const { op } of referenceOperations()) {
      expect(op.description).toMatch(
        new RegExp(`\\n\\n\\[Try it in the console\\]\\(\\.\\./try/\\?operation=${op.operationId}\\)$`),
      );
    }
    const consoleCopy = JSON.parse(read('try/openapi.json')) as ReferenceDocument;
    for (const entry of operationsOfDocument(consoleCopy)) {
      const { op, method, route } = entry;
      // The console opens at the operation the link names, at its own anchor.
      expect(anchors[op.operationId!]).toBe(
        `#tag/${op.tags![0]!.toLowerCase().replace(/[^a-z0-9]+/g, '-')}/${method.toUpperCase()}${route}`,
      );
      expect(anchors[op.operationId!]).toBe(consoleAnchor(entry));
      const back = `../reference/#/${op.tags![0]!.toLowerCase().replace(/[^a-z0-9]+/g, '-')}/${op.operationId!.toLowerCase()}`;
      expect(op.description!.endsWith(`\n\n[Read it in the reference](${back})`)).toBe(true);
      expect(back).toBe(`../reference/${referenceAnchor(entry)}`);
    }
    expect(Object.keys(anchors).sort()).toEqual(operationIdsOf(contract).sort());
  });

  it('knows when it is stale: a stamp of other inputs is', () => {
    expect(isFresh(dir)).toBe(true);
    const stamp = path.join(dir, '.inputs-sha256');
    writeFileSync(stamp, 'another build');
    expect(isFresh(dir)).toBe(false);
  });
});

describe('a samples program that is missing or whose markers are wrong', () => {
  it('fails the build, naming the program and what is wrong', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'samples-root-'));
    try {
      mkdirSync(path.join(root, 'partners', 'curl'), { recursive: true });
      const ids = operationIdsOf(contract);
      const marked = ids
        .slice(1)
        .map((id) => `# sample: ${id}\ncurl "$BASE_URL/${id}"\n# end sample`)
        .join('\n');
      writeFileSync(
        path.join(root, 'partners', 'curl', 'samples.sh'),
        `${marked}\n# sample: ${ids[1]}\ncurl again\n# end sample\n`,
      );
      const curl = [{ id: 'curl', file: 'partners/curl/samples.sh', label: 'curl', lang: 'shell' }];
      expect(() => samplePrograms(root, ids, curl)).toThrow(
        `The samples of partners/curl/samples.sh cannot be quoted in the reference:\n${ids[1]} has 2 samples`,
      );
      expect(() => samplePrograms(root, ids, curl)).toThrow(`no sample of ${ids[0]}`);
      writeFileSync(
        path.join(root, 'partners', 'curl', 'samples.sh'),
        ids.map((id) => `# sample: ${id}\ncurl "$BASE_URL/${id}"\n# end sample`).join('\n'),
      );
      expect(samplePrograms(root, ids, curl).map((program: { label: string }) => program.label)).toEqual(['curl']);
      // Every program the reference quotes must be there.
      expect(() => samplePrograms(root, ids)).toThrow(
        'The samples of the reference need partners/typescript/openapi-fetch/samples.ts, which is missing',
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("the state diagrams, from the document's tables", () => {
  const sessionTable = () => doc.tags.find((t) => t.name === 'Payment sessions')!.description!;

  it('has an edge for every row of the session status table, and every status', async () => {
    const rows = tableRows(sessionTable(), '| State | Moved by | Condition | Next state |');
    expect(rows).toHaveLength(9);
    const edges = edgesOf(rows, { from: 0, movedBy: 1, condition: 2, to: 3, also: 4 });
    expect(edges).toContainEqual({
      from: 'pending',
      to: 'canceled',
      label: 'cancel: customer has not entered payment information',
      webhooks: ['payment_session_complete'],
    });
    expect(edges).toContainEqual(expect.objectContaining({ from: 'authorized', to: 'authorization_expired' }));
    const svg = (await stateDiagrams(contract))['session-status'];
    for (const status of openEnumValues(contract.components!.schemas!.PaymentSessionStatus)!)
      expect(svg).toContain(`>${status}<`);
  });

  it('changes when the table changes: a new row is a new edge', async () => {
    const copy = structuredClone(doc);
    const tag = copy.tags.find((t) => t.name === 'Payment sessions')!;
    tag.description = tag.description!.replace(
      '| `authorized` | void |',
      '| `captured` | chargeback lost | | `lost_to_the_bank` | |\n| `authorized` | void |',
    );
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
  it("fails the build with the diagram's name", async () => {
    const docs = mkdtempSync(path.join(os.tmpdir(), 'contract-guides-'));
    const out = mkdtempSync(path.join(os.tmpdir(), 'contract-docs-bad-'));
    try {
      cpSync(path.join(repoRoot, 'docs'), docs, { recursive: true });
      writeFileSync(
        path.join(docs, 'guides', 'disputes.md'),
        '# Disputes\n\nText.\n\n<!-- diagram: no-such-diagram -->\n',
      );
      await expect(buildSite(out, { quiet: true, docs })).rejects.toThrow('"no-such-diagram", which does not exist');
    } finally {
      rmSync(docs, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});

// A guide speaks to the partner: what the reference does not settle is said once per section, in a
// note labelled so at its end, not as a hedge inside the sentences a partner follows. The marks
// themselves stay in the contract (x-undocumented, "inferred" in descriptions).
describe("the guides' notes on what the reference does not settle", () => {
  const NOTE = '> **Not settled by the reference.**';
  const HEDGE = /\binferred\b|not documented|undocumented|not shown|does not (?:say|show|state|define)/gi;
  const guides = [
    ...readdirSync(path.join(repoRoot, 'docs', 'guides')).map((file) => `docs/guides/${file}`),
    'docs/client-and-webhooks.md',
  ];
  /** What breaks the rule in a guide's text: per `## ` section (code left out), its hedges and misplaced notes. */
  const problems = (markdown: string) =>
    markdown
      .replace(/```[\s\S]*?```/g, '')
      .split(/\n(?=## )/)
      .flatMap((text) => {
        const heading = text.split('\n')[0]!;
        const lines = text.trimEnd().split('\n');
        const hedges =
          lines
            .filter((line) => !line.startsWith('>'))
            .join('\n')
            .match(HEDGE) ?? [];
        const notes = lines.flatMap((line, i) => (line.startsWith(NOTE) ? [i] : []));
        return [
          ...hedges.map((hedge) => `${heading}: "${hedge}" outside the note`),
          ...(notes.length > 1 ? [`${heading}: ${notes.length} notes`] : []),
          // The note is the section's last block: only its own quoted lines follow it.
          ...(notes.length === 1 && !lines.slice(notes[0]).every((line) => line.startsWith('>'))
            ? [`${heading}: the note is not last`]
            : []),
        ];
      });

  it.each(guides)("%s hedges only in its notes, at most one per section, each at the section's end", (file) => {
    expect(problems(readFileSync(path.join(repoRoot, file), 'utf8'))).toEqual([]);
  });

  it('finds a hedge in the prose, a second note, and a note that is not last', () => {
    const guide = [
      '# G',
      '',
      '## A',
      '',
      'The prefix of other ids is inferred.',
      '',
      '## B',
      '',
      `${NOTE} One.`,
      '',
      `${NOTE} Two.`,
      '',
      '## C',
      '',
      `${NOTE} Three.`,
      '',
      'More text.',
      '',
      '## D',
      '',
      '```sh',
      '# not documented, in code',
      '```',
      '',
      `${NOTE} Four: not shown.`,
    ].join('\n');
    expect(problems(guide)).toEqual([
      '## A: "inferred" outside the note',
      '## B: 2 notes',
      '## C: the note is not last',
    ]);
  });
});
