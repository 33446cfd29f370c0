// Every relative link and anchor of README.md, CONTRIBUTING.md and docs/**/*.md leads somewhere: a
// file or folder of the repository, a heading of the Markdown it names (as GitHub makes anchors
// and, for a guide, as the docs site does), or, from a guide, a page of the docs site (the
// reference's operations and tags, the console, the landing page's sections). The README fits on
// two screens, and what moved out of it is where its links say.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the docs builder is plain JavaScript, without types.
import { DOCUMENTS, landingPage, referenceAnchors } from '../../build/docs/pages.mjs';
import { contract, repoRoot } from '../../testkit/contract.js';
import { githubSlug, headingAnchors, linkProblems, linksOf, type SitePages } from '../support/markdown-links.js';

const markdownUnder = (dir: string): string[] =>
  readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownUnder(path.join(dir, e.name)) : e.name.endsWith('.md') ? [path.join(dir, e.name)] : [],
  );

const FILES = ['README.md', 'CONTRIBUTING.md', ...markdownUnder('docs')];

/** The docs site's own pages, as the builder makes them. */
const anchorOf = referenceAnchors(contract) as (hash: string) => string;
const landing = landingPage({ guides: [], operations: 0, webhooks: 0 }) as string;
const site: SitePages = {
  has(page, anchor) {
    if (page === 'reference/') {
      if (anchor === '') return true;
      try {
        anchorOf(`#${anchor}`);
        return true;
      } catch {
        return false;
      }
    }
    if (page === 'try/') return anchor === '';
    if (page === 'index.html') return anchor === '' || landing.includes(` id="${anchor}"`);
    return (DOCUMENTS as Array<{ file: string }>).some(({ file }) => page === `downloads/${file}`) && anchor === '';
  },
};

describe('the links of the Markdown', () => {
  it.each(FILES)('%s: every relative link and anchor resolves', (file) => {
    expect(linkProblems(repoRoot, file, site)).toEqual([]);
  });

  it('are checked in the README, CONTRIBUTING.md and every guide', () => {
    expect(FILES).toEqual(
      expect.arrayContaining(['docs/guides/sandbox.md', 'docs/guides/package.md', 'docs/client-and-webhooks.md']),
    );
    // The README links the guides, the contributors' page and the partner programs.
    const readme = linksOf(readFileSync(path.join(repoRoot, 'README.md'), 'utf8'));
    expect(readme).toEqual(
      expect.arrayContaining([
        'CONTRIBUTING.md',
        'docs/guides/package.md',
        'docs/guides/sandbox.md',
        'partners/',
        'docs/guides/testing.md#listen-and-trigger',
      ]),
    );
  });
});

describe('the check can fail', () => {
  const write = (files: Record<string, string>) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'markdown-links-'));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    return dir;
  };

  it('names a missing file, a missing heading, a missing site anchor, and passes code and external links', () => {
    const dir = write({
      'README.md':
        '# Top\n\n## Set up\n\n[ok](#set-up) [bad](#setup) [gone](docs/nowhere.md) [heading](docs/guides/a.md#no-such) ' +
        '[fine](docs/guides/a.md#the-a_b-part) [web](https://example.com/x) `[code](nowhere.md)`\n\n```md\n[fenced](nowhere.md)\n```\n',
      'docs/guides/a.md':
        '# A\n\n## The a_b part\n\n[op](../reference/#operation/capturePaymentSession) [no op](../reference/#operation/capturePaymentSessions) ' +
        '[home](../index.html#openapi-documents) [no home](../index.html#nothing) [try](../try/)\n',
    });
    try {
      const problems = (file: string) => linkProblems(dir, file, site).map((p) => p.link);
      expect(problems('README.md')).toEqual(['#setup', 'docs/nowhere.md', 'docs/guides/a.md#no-such']);
      expect(problems('docs/guides/a.md')).toEqual([
        '../reference/#operation/capturePaymentSessions',
        '../index.html#nothing',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('makes anchors as GitHub does: repeated headings numbered, punctuation dropped, underscores kept', () => {
    expect([
      ...headingAnchors('# A\n## Set up\n## Set up\n## `npm run listen` and trigger\n## The a_b: part\n'),
    ]).toEqual(['a', 'set-up', 'set-up-1', 'npm-run-listen-and-trigger', 'the-a_b-part']);
    expect(githubSlug('Conformance: Schemathesis against the sandbox')).toBe(
      'conformance-schemathesis-against-the-sandbox',
    );
  });
});

describe('the README', () => {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

  it('fits on two screens: at most 120 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(121);
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(120);
  });

  it("gives the two commands, says the project brings its own Node, and states the package's Node", () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
    expect(readme).toMatch(/the project brings its own Node/i);
    expect(readme).toContain('Node 22.14 or newer');
    // The first start's figures are measured ones, not placeholders.
    expect(readme).toMatch(/the API answers after [\d.]+(–[\d.]+)? s, the docs after [\d.]+(–[\d.]+)? s/);
  });
});
