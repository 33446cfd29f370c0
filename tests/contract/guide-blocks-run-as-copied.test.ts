// Every shell block of the guides that calls the sandbox runs as a partner copies it: by bash with
// -euo pipefail, so that a variable or a helper the block does not define stops it, against one
// sandbox this test starts, with only the port of http://127.0.0.1:4010 changed. Each comment that
// shows an answer (a line "# {…", continued by lines "#  …") shows the line printed before it,
// with "…" for what differs from run to run or is left out, and no line is printed without one.
// The quick start is the one exception to "a block defines what it uses": its steps are one
// walkthrough in one terminal, so its blocks run in order in one shell, as its text says.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/contract.js';
import { startSandboxProcess, type SandboxProcess } from '../../testkit/sandbox-process.js';

const DOCUMENTS = [
  ...readdirSync(path.join(repoRoot, 'docs', 'guides'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/guides/${name}`),
  'docs/client-and-webhooks.md',
];
/** The documents whose blocks are steps of one walkthrough, run in one shell. */
const ONE_SHELL = new Set(['docs/guides/quick-start.md']);
const MARKER = '@@@ the line above is the one the comment shows @@@';

interface Block {
  document: string;
  section: string;
  text: string;
}

/** The ```sh blocks of a document that call the sandbox, without those a walkthrough test runs. */
function sandboxBlocks(document: string): Block[] {
  const lines = readFileSync(path.join(repoRoot, document), 'utf8').split('\n');
  const blocks: Block[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i += 1) {
    if (/^#{2,3} /.test(lines[i]!)) section = lines[i]!.replace(/^#+ /, '');
    if (lines[i] !== '```sh') continue;
    const end = lines.indexOf('```', i + 1);
    const text = lines.slice(i + 1, end).join('\n');
    // tests/contract/readme.test.ts runs the walkthroughs (their marker names it) and checks what they print.
    const walkthrough = /^<!-- [\w-]*walkthrough/.test(lines[i - 1] ?? '');
    if (!walkthrough && /\$\{?S\b|(127\.0\.0\.1|localhost):4010\//.test(text)) blocks.push({ document, section, text });
    i = end;
  }
  return blocks;
}

/** Whether a line is a comment that shows an answer: "# {…" starts one, "#  …" right under it continues it. */
const showing = (line: string, underShown: boolean) => /^# \{/.test(line) || (underShown && /^# {2}/.test(line));

/** The comments that show an answer, each joined into one line, in order. */
function shownLines(text: string): string[] {
  const shown: string[] = [];
  let underShown = false;
  for (const line of text.split('\n')) {
    if (/^# \{/.test(line)) shown.push(line.slice(2));
    else if (showing(line, underShown)) shown[shown.length - 1] += line.slice(3);
    underShown = showing(line, underShown);
  }
  return shown;
}

/** The block with a line that prints the marker after each comment that shows an answer. */
function withMarkers(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let underShown = false;
  lines.forEach((line, i) => {
    out.push(line);
    underShown = showing(line, underShown);
    if (underShown && !/^# {2}/.test(lines[i + 1] ?? '')) out.push(`echo; echo '${MARKER}'`);
  });
  return out.join('\n');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const pattern = (shown: string) =>
  new RegExp(
    `^${shown
      .split(/\s*…\s*/)
      .map(escapeRegExp)
      .join('.*')}$`,
  );

let sandbox: SandboxProcess;
beforeAll(async () => {
  sandbox = await startSandboxProcess({ db: ':memory:' });
}, 60_000);
afterAll(async () => {
  await sandbox?.stop();
});

/** Runs the blocks in one bash as copied, with the port changed, and checks each comment that shows an answer. */
function runAsCopied(blocks: Block[]) {
  const port = new URL(sandbox.baseUrl).port;
  const local = (text: string) => text.replaceAll('127.0.0.1:4010', `127.0.0.1:${port}`);
  const script = blocks.map((block) => local(withMarkers(block.text))).join('\n');
  const env = { ...process.env };
  delete env.S;
  // A block that starts a server would never end: such a line belongs in a block of its own.
  expect(script).not.toMatch(/\bnpm (start|run listen)\b/);
  const output = execFileSync('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: repoRoot,
    encoding: 'utf8',
    env,
    timeout: 30_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const segments = output.split(`${MARKER}\n`).map((segment) => segment.split('\n').filter((line) => line !== ''));
  const shown = blocks.flatMap((block) => shownLines(local(block.text)));
  // One segment per comment, each the one line printed before it; nothing is printed after the last comment.
  expect(segments).toHaveLength(shown.length + 1);
  expect(segments.at(-1)).toEqual([]);
  shown.forEach((comment, i) => {
    expect(segments[i], `the line shown as ${comment}`).toHaveLength(1);
    expect(segments[i]![0]).toMatch(pattern(comment));
  });
}

const byDocument = DOCUMENTS.map((document) => [document, sandboxBlocks(document)] as const).filter(
  ([, blocks]) => blocks.length > 0,
);

describe('the shell blocks of the guides run as copied against the sandbox', () => {
  it('finds the blocks of the guides that call the sandbox', () => {
    const documents = byDocument.map(([document]) => document);
    expect(documents).toEqual(
      expect.arrayContaining([
        'docs/guides/checkout-flow.md',
        'docs/guides/disputes.md',
        'docs/guides/idempotency.md',
        'docs/guides/payment-tokens.md',
        'docs/guides/quick-start.md',
        'docs/guides/testing.md',
      ]),
    );
  });

  it('holds a block to what it defines and to what its comments show', () => {
    const block = (text: string): Block => ({ document: 'a guide', section: 'a section', text });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell's default, as the guide writes it
    const defined = "S=${S:-http://127.0.0.1:4010}; KEY='x-service-api-key: sandbox-dev-key'\n";
    // $ID comes from another block, and c is not defined here.
    expect(() => runAsCopied([block(`${defined}curl -s -H "$KEY" $S/payments/v1/payment_session/$ID; echo`)])).toThrow(
      /ID/,
    );
    expect(() => runAsCopied([block(`${defined}c $S/sandbox/v1/clock`)])).toThrow(/c: command not found/);
    const clock = `${defined}curl -s -H "$KEY" $S/sandbox/v1/clock; echo\n`;
    runAsCopied([block(`${clock}# {"now":"…","offset_seconds":…}`)]);
    // A comment that is not the line printed, or a printed line without its comment, fails.
    expect(() => runAsCopied([block(`${clock}# {"now":"…","offset_seconds":1}`)])).toThrow();
    expect(() => runAsCopied([block(`${clock}${clock}# {"now":"…","offset_seconds":…}`)])).toThrow();
    expect(() => runAsCopied([block(`${clock}# {"now":"…","offset_seconds":…}\n${clock}`)])).toThrow();
  });

  it('shows no answer in a comment beside a command, where it would not be checked', () => {
    for (const [document, blocks] of byDocument) {
      for (const block of blocks) {
        const beside = block.text.split('\n').filter((line) => /^[^#].*\s#\s*\{/.test(line));
        expect(beside, `${document}, ${block.section}`).toEqual([]);
      }
    }
  });

  for (const [document, blocks] of byDocument) {
    const runs = ONE_SHELL.has(document) ? [blocks] : blocks.map((block) => [block]);
    for (const run of runs) {
      const where = ONE_SHELL.has(document) ? `${document}, every step` : `${document}, "${run[0]!.section}"`;
      it(`${where} runs as copied, defining all it uses, and prints what its comments show`, () => {
        runAsCopied(run);
      }, 60_000);
    }
  }
});
