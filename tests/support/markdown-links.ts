// The relative links of the repository's Markdown, checked as a reader follows them: on GitHub (a
// file or folder of the repository, a heading of a Markdown file) and, for the guides under docs/,
// on the docs site too (tests/spec/docs.test.ts follows the built site's links; here the guides'
// links into the site's own pages are checked against those pages).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface LinkProblem {
  file: string;
  link: string;
  problem: string;
}

/** The Markdown without its fenced blocks, where a `#` starts no heading. */
const unfenced = (markdown: string) => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
/** The Markdown without its fenced blocks and inline code, where a `[x](y)` is no link. */
const prose = (markdown: string) => unfenced(markdown).replace(/`[^`\n]*`/g, '');

/** Every `[text](target)` link of the prose, with its target. */
export const linksOf = (markdown: string) =>
  [...prose(markdown).matchAll(/!?\[(?:[^\]\n]|\][^(\n])*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);

/** GitHub's anchor of a heading: lower case, its punctuation dropped (not `-` or `_`), each space a dash. */
export const githubSlug = (heading: string) =>
  heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/ /g, '-');

/** The docs site's anchor of a heading (build/docs/pages.mjs): the same, but `_` dropped and spaces collapsed. */
export const siteSlug = (heading: string) =>
  heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s+/g, '-');

/** The anchors of a Markdown file's headings, as GitHub numbers repeated ones (`-1`, `-2`, …). */
export function headingAnchors(markdown: string, slug = githubSlug): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, text] of unfenced(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(text!.replace(/[*_]{1,2}([^*_]+)[*_]{1,2}/g, '$1'));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

export interface SitePages {
  /** Whether a page of the site (relative to its root, such as `index.html`, `reference/`) has this anchor ('' for none). */
  has(page: string, anchor: string): boolean;
}

/**
 * What is wrong with the relative links of `file` (relative to `root`); [] when each resolves. A
 * guide (under docs/) may also link the site's own pages, which `site` knows.
 */
export function linkProblems(root: string, file: string, site?: SitePages): LinkProblem[] {
  const markdown = readFileSync(path.join(root, file), 'utf8');
  const problems: LinkProblem[] = [];
  for (const link of linksOf(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // http:, https:, mailto:
    const [target = '', anchor = ''] = link.split('#');
    const say = (problem: string) => problems.push({ file, link, problem });
    if (target === '') {
      if (!headingAnchors(markdown).has(anchor)) say(`no heading of ${file} has the anchor #${anchor}`);
      continue;
    }
    const resolved = path.normalize(path.join(path.dirname(file), decodeURIComponent(target)));
    if (existsSync(path.join(root, resolved))) {
      if (anchor && resolved.endsWith('.md')) {
        const other = readFileSync(path.join(root, resolved), 'utf8');
        if (!headingAnchors(other).has(anchor)) say(`no heading of ${resolved} has the anchor #${anchor}`);
        else if (
          file.startsWith('docs/') &&
          resolved.startsWith('docs/') &&
          !headingAnchors(other, siteSlug).has(anchor)
        ) {
          say(`${resolved}'s page on the docs site has no anchor #${anchor}`);
        }
      } else if (anchor && statSync(path.join(root, resolved)).isDirectory()) {
        say('a folder has no anchors');
      }
      continue;
    }
    // A guide's link into the site itself: the guides are pages in guides/, beside the site's own.
    const sitePage =
      file.startsWith('docs/') && site ? path.posix.normalize(path.posix.join('guides', target)) : undefined;
    if (
      sitePage &&
      !sitePage.startsWith('..') &&
      !sitePage.startsWith('docs/') &&
      site!.has(sitePage.endsWith('/') || !sitePage.includes('.') ? sitePage.replace(/\/?$/, '/') : sitePage, anchor)
    )
      continue;
    say(`${resolved} does not exist${sitePage ? ', in the repository or on the docs site' : ''}`);
  }
  return problems;
}
