// Builds the docs site into one folder that works offline and that the sandbox serves at /docs:
//   index.html            the landing page
//   reference/index.html  the reference: Redoc, inlined, from its copy of the bundled contract (the
//                         local sandbox as first server, and each operation's samples, cut from the
//                         partner matrix's programs: see reference-document.mjs)
//   guides/*.html         the guides of docs/, with their diagrams drawn at build time
//   try/                  the try-it console (Scalar's standalone bundle, from this folder, and its
//                         copy of the contract: see consoleDocument in pages.mjs)
//   assets/site.css       the pages' stylesheet
//   downloads/            the contract's documents: OpenAPI 3.1, and its 3.0.3 companion
// A stamp of its inputs lets `npm start` rebuild only when the contract or a guide changed.
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { operationIdsOf, SAMPLE_PROGRAMS } from '../lib/samples.mjs';
import { root, runTool } from '../lib/tools.ts';
import {
  consoleDocument,
  documentLinks,
  DOCUMENTS,
  GUIDES,
  landingPage,
  layout,
  referenceAnchors,
  renderGuide,
  titleOf,
  tryItPage,
  tryItScript,
} from './pages.mjs';
import {
  consoleAnchor,
  operationsOf,
  redocOptions,
  referenceDocument,
  samplePrograms,
  withReferenceLinks,
} from './reference-document.mjs';
import { SEQUENCES, sequenceSvg } from './sequence-diagrams.mjs';
import { stateDiagrams } from './state-diagrams.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
/** Scalar's standalone bundle: the package's `browser` entry, which its exports map does not name. */
function scalarBundle() {
  const dir = path.resolve(path.dirname(require.resolve('@scalar/api-reference')), '..');
  return path.join(dir, JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).browser);
}

/** Every file the site is made from: the contract's documents, the guides, the samples programs, and this builder. */
function inputs() {
  const files = [
    ...DOCUMENTS.map(({ file }) => path.join(root, 'generated', file)),
    scalarBundle(),
    path.join(root, 'build', 'lib', 'samples.mjs'),
  ];
  // A missing program is not an input: the build names it.
  files.push(...SAMPLE_PROGRAMS.map(({ file }) => path.join(root, file)).filter((file) => existsSync(file)));
  for (const dir of [path.join(root, 'docs'), path.join(root, 'docs', 'guides'), here]) {
    if (existsSync(dir))
      files.push(
        ...readdirSync(dir)
          .filter((f) => /\.(md|mjs|hbs|css)$/.test(f))
          .map((f) => path.join(dir, f)),
      );
  }
  return files.sort();
}

export function inputsHash() {
  const hash = createHash('sha256');
  for (const file of inputs()) hash.update(file).update(readFileSync(file));
  return hash.digest('hex');
}

const STAMP = '.inputs-sha256';
/** Whether the site in `out` was built from the inputs as they are now. */
export const isFresh = (out) =>
  existsSync(path.join(out, STAMP)) && readFileSync(path.join(out, STAMP), 'utf8') === inputsHash();

// Redoc's sidebar credits Redocly with a logo it loads from its CDN; the same credit, drawn here.
const REDOCLY_LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const LOCAL_LOGO = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="16"><text x="0" y="12" font-family="Helvetica,Arial,sans-serif" font-size="12" fill="#6b7280">Redocly</text></svg>')}`;

/**
 * Makes the rendered reference load nothing from outside: the logo is drawn here, and the Redoc
 * bundle must be inlined. (The bundle names icon CDNs it never reaches on this page; the browser
 * test proves that no request leaves the origin.)
 */
function offlineReference(file) {
  const html = readFileSync(file, 'utf8').replace(REDOCLY_LOGO, LOCAL_LOGO);
  if (/<script[^>]+src=["']?https?:/.test(html) || /redoc\.standalone\.js/.test(html))
    throw new Error('The reference loads Redoc from a CDN: build it with --inlineBundle');
  writeFileSync(file, html);
}

/**
 * The first sentence after a guide's title, as plain text: its summary on the landing page. A
 * colon does not end it (the list it introduces is part of the sentence).
 */
const summaryOf = (markdown) => {
  const paragraph = (markdown.split('\n\n').find((block) => block.trim() && !block.startsWith('#')) ?? '')
    .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
    .replace(/`|\*\*?/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return /^.*?\.(?=\s|$)/.exec(paragraph)?.[0] ?? paragraph;
};

export async function buildSite(out = path.join(root, 'site'), { quiet = false, docs = path.join(root, 'docs') } = {}) {
  rmSync(out, { recursive: true, force: true });
  for (const dir of ['assets', 'reference', 'guides', 'try', 'downloads'])
    mkdirSync(path.join(out, dir), { recursive: true });
  const doc = JSON.parse(readFileSync(path.join(root, 'generated', 'openapi.json'), 'utf8'));

  // Redoc renders its own copy of the contract; the published documents stay as they are.
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'reference-'));
  try {
    const programs = samplePrograms(root, operationIdsOf(doc));
    const copy = path.join(scratch, 'openapi.json');
    const options = path.join(scratch, 'redoc-options.json');
    writeFileSync(copy, JSON.stringify(referenceDocument(doc, programs)));
    writeFileSync(options, JSON.stringify(redocOptions(programs)));
    runTool(
      'redocly',
      [
        'build-docs',
        copy,
        '--inlineBundle',
        '--title',
        'API reference · HSA/FSA Checkout API',
        '--template',
        path.join(here, 'reference.hbs'),
        '--openapi',
        options,
        // The contract's documents, both versions, in the bar above the reference.
        '--templateOptions.documents',
        documentLinks('../'),
        '-o',
        path.join(out, 'reference', 'index.html'),
      ],
      { quiet },
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  offlineReference(path.join(out, 'reference', 'index.html'));

  const diagrams = { ...(await stateDiagrams(doc)) };
  for (const [name, spec] of Object.entries(SEQUENCES)) diagrams[name] = sequenceSvg(spec);
  const guides = GUIDES.map((g) => {
    const markdown = readFileSync(path.join(docs, g.source), 'utf8');
    return { ...g, markdown, title: titleOf(markdown), summary: summaryOf(markdown) };
  });
  const anchorOf = referenceAnchors(doc);
  for (const guide of guides) {
    const body = renderGuide(guide.markdown, diagrams, anchorOf);
    writeFileSync(
      path.join(out, 'guides', `${guide.slug}.html`),
      layout({ title: guide.title, body, depth: 1, current: 'Guides', guides, activeGuide: guide.slug }),
    );
  }
  writeFileSync(
    path.join(out, 'index.html'),
    landingPage({
      guides,
      operations: Object.values(doc.paths).flatMap((item) => Object.values(item).filter((op) => op?.operationId))
        .length,
      webhooks: Object.keys(doc.webhooks).length,
    }),
  );
  copyFileSync(scalarBundle(), path.join(out, 'try', 'scalar.js'));
  writeFileSync(path.join(out, 'try', 'index.html'), tryItPage());
  writeFileSync(
    path.join(out, 'try', 'console.js'),
    tryItScript(Object.fromEntries(operationsOf(doc).map((entry) => [entry.op.operationId, consoleAnchor(entry)]))),
  );
  writeFileSync(path.join(out, 'try', 'openapi.json'), JSON.stringify(withReferenceLinks(consoleDocument(doc))));
  copyFileSync(path.join(here, 'site.css'), path.join(out, 'assets', 'site.css'));
  for (const { file } of DOCUMENTS) copyFileSync(path.join(root, 'generated', file), path.join(out, 'downloads', file));
  writeFileSync(path.join(out, STAMP), inputsHash());
  return out;
}
