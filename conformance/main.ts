// npm run conformance: Schemathesis, a tool that derives its requests from the document on its own,
// against a sandbox on :memory:. Every check on (no 5xx; statuses, content types, headers and bodies
// as declared; invalid data refused and valid data accepted; auth not ignored; a deleted resource
// stays deleted, a created one is available), every phase: the examples, the coverage and fuzzing
// phases (stateless), and the stateful phase, which follows the document's links.
//   npm run conformance                         the contract, then the sandbox's helper document,
//                                               each on a fresh sandbox; then the contract again on
//                                               a sandbox under the evolution drill (--drill), whose
//                                               answers must still be the document's; then the
//                                               Prism mock (shown, not counted)
//   npm run conformance -- --max-examples N     another budget per operation (default below)
//   npm run conformance -- --seed N             another draw of requests (default below)
//   npm run conformance -- --skip-mock          without the run against the mock
// Nothing is narrowed. One rule is added, the same for every operation of both documents: a
// refusal of schema-valid data passes when it carries one of the operation's documented 400 codes
// (documented-codes.ts reads them, the hook documented_refusals.py applies them).
// Schemathesis is pinned in toolchain.json (`conformance`) and installed from PyPI into a venv in the
// user's cache folder (~/.cache/hsa-fsa-checkout-contract/conformance, or CONFORMANCE_CACHE_DIR),
// which the next clone on the machine finds. The three sandbox runs go at once, each on its own
// sandbox, and each prints its output whole when it ends. Reports (JUnit, HAR) go to test-results/conformance/, with the
// one coverage table (coverage.md): each declared code, and how often the workflows, the fuzz and
// Schemathesis produced it. Schemathesis's codes (coverage.json) also join the table that
// tests/contract/coverage.test.ts prints, when this has run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { userCacheDir } from '../testkit/cache-dir.js';
import { Coverage, coverageByToolTable } from '../testkit/coverage.js';
import { runFuzz } from '../testkit/fuzz-run.js';
import { startPrism } from '../testkit/prism.js';
import { SANDBOX_API_KEY, startSandboxProcess } from '../testkit/sandbox-process.js';
import { documentedCodes } from './documented-codes.js';
import { withLinkRequestBodies } from './links.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { 'max-examples': { type: 'string' }, seed: { type: 'string' }, 'skip-mock': { type: 'boolean' } },
});

/** Fixed, so that a run is reproducible: the same seed draws the same requests. */
const SEED = Number(values.seed ?? 20261124);
/** Test cases per operation and phase; sized for CI's budget on 2 cores. */
const MAX_EXAMPLES = Number(values['max-examples'] ?? 300);
/** The drill's run checks the later version's answers, not the requests again: a third of the budget. */
const DRILL_MAX_EXAMPLES = Math.max(1, Math.round(MAX_EXAMPLES / 3));
const PHASES = 'examples,coverage,fuzzing,stateful';
/** The project's own fuzz, for the coverage table: as many requests per operation as its suite sends. */
const FUZZ_PER_OPERATION = 300;
const WORKDIR = path.join(root, '.conformance');
const REPORTS = path.join(root, 'test-results', 'conformance');
const CONFIG = path.join(root, 'conformance', 'schemathesis.toml');
const HOOKS = path.join(root, 'conformance', 'documented_refusals.py');
/**
 * The longest answer the documents allow: a listener's claim (the helpers' `wait`) holds up to 30 s
 * for deliveries. Schemathesis's defaults (a 10 s timeout and response-time limit) would fail it;
 * a slower answer still fails the response-time check, and a hung one the timeout.
 */
const LONGEST_WAIT_SECONDS = 30;
const MAX_RESPONSE_TIME_SECONDS = LONGEST_WAIT_SECONDS + 5;
const REQUEST_TIMEOUT_SECONDS = MAX_RESPONSE_TIME_SECONDS + 5;

const toolchain = JSON.parse(readFileSync(path.join(root, 'toolchain.json'), 'utf8')) as {
  conformance: { schemathesis: string };
};
const requirement = `schemathesis==${toolchain.conformance.schemathesis}`;

/** A venv holding the pinned Schemathesis, made once and reused while the pin stays the same. */
function schemathesis(): string {
  const venv = path.join(userCacheDir('conformance', 'CONFORMANCE_CACHE_DIR'), 'venv-schemathesis');
  const stamp = path.join(venv, '.requirements');
  const st = path.join(venv, 'bin', 'st');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === `${requirement}\n` && existsSync(st)) return st;
  rmSync(venv, { recursive: true, force: true });
  console.log(`Installing ${requirement} into ${venv}`);
  for (const [command, args] of [
    ['python3', ['-m', 'venv', venv]],
    [path.join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', requirement]],
  ] as const) {
    const result = spawnSync(command, args, { stdio: 'inherit' });
    if (result.status !== 0)
      throw new Error(
        `${command} ${args.join(' ')} failed (exit ${result.status}); Python 3 with venv and pip is needed.`,
      );
  }
  writeFileSync(stamp, `${requirement}\n`);
  return st;
}

interface Prepared {
  document: string;
  codes: string;
}

/**
 * The document Schemathesis reads, a copy whose links carry their bodies as requestBody, and the
 * documented 400 codes of its operations, which the hook reads.
 */
function prepared(name: string): Prepared {
  const source = JSON.parse(readFileSync(path.join(root, 'generated', `${name}.json`), 'utf8'));
  const document = path.join(WORKDIR, `${name}.schemathesis.json`);
  writeFileSync(document, `${JSON.stringify(withLinkRequestBodies(source), null, 2)}\n`);
  const codes = path.join(WORKDIR, `${name}.documented-codes.json`);
  writeFileSync(codes, `${JSON.stringify(documentedCodes(source), null, 2)}\n`);
  return { document, codes };
}

interface Outcome {
  name: string;
  status: number | null;
  output: string;
  summary: string;
  har: string;
}

/** One `st run`: its output shown when it ends (or only kept, quiet), and its summary kept. */
async function run(
  st: string,
  name: string,
  { document, codes }: Prepared,
  baseUrl: string,
  quiet = false,
  maxExamples = MAX_EXAMPLES,
): Promise<Outcome> {
  const har = path.join(REPORTS, `${name}.har.json`);
  const args = [
    '--config-file',
    CONFIG,
    'run',
    document,
    '--url',
    baseUrl,
    '--header',
    `x-service-api-key: ${SANDBOX_API_KEY}`,
    '--checks',
    'all',
    '--phases',
    PHASES,
    '--seed',
    String(SEED),
    '--max-examples',
    String(maxExamples),
    '--request-timeout',
    String(REQUEST_TIMEOUT_SECONDS),
    '--max-response-time',
    String(MAX_RESPONSE_TIME_SECONDS),
    // One worker: with two, Python 3.11's ast.parse, which Hypothesis calls to describe a strategy,
    // fails now and then across threads ("AST constructor recursion depth mismatch").
    '--workers',
    '1',
    '--no-color',
    '--report',
    'junit,har',
    '--report-dir',
    REPORTS,
    '--report-junit-path',
    path.join(REPORTS, `${name}.junit.xml`),
    '--report-har-path',
    har,
  ];
  const command = `SCHEMATHESIS_HOOKS=${path.relative(root, HOOKS)} CONFORMANCE_DOCUMENTED_CODES=${path.relative(root, codes)} st ${args.join(' ')}`;
  // Run in .conformance/, where Hypothesis leaves its .hypothesis/ folder. The output is kept for
  // its summary's counts, and shown whole once the run ends unless quiet: runs that go at once do
  // not interleave their lines.
  const env = { ...process.env, SCHEMATHESIS_HOOKS: HOOKS, CONFORMANCE_DOCUMENTED_CODES: codes };
  const { status, output } = await collected(st, args, { cwd: WORKDIR, env });
  if (!quiet) process.stdout.write(`\n=== ${name}: ${command}\n\n${output}`);
  const summary = output.slice(output.lastIndexOf('SUMMARY'));
  return { name, status, output, summary, har };
}

/** A child's exit status and its stdout then stderr, whole, once it ends. */
function collected(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  return new Promise<{ status: number | null; output: string }>((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output: Buffer.concat([...out, ...err]).toString('utf8') }));
  });
}

/** `run` against a sandbox of its own, started with `args` and stopped after. */
async function onOwnSandbox(args: string[], test: (baseUrl: string) => Promise<Outcome>): Promise<Outcome> {
  const sandbox = await startSandboxProcess({ db: ':memory:', args });
  try {
    return await test(sandbox.baseUrl);
  } finally {
    await sandbox.stop();
  }
}

/** Schemathesis's count of test cases ("8629 generated, …"), quoted from its summary. */
function testCases(summary: string): string {
  const counts = /Test cases:\s*\n\s*(.+)/.exec(summary)?.[1]?.trim();
  return counts ? `test cases ${counts}` : 'no test-case count printed';
}

mkdirSync(WORKDIR, { recursive: true });
rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });
const st = schemathesis();
const contract = prepared('openapi');
const helpers = prepared('sandbox');

// Each document gets a sandbox of its own: the helpers' run resets, advances the clock and arms
// faults, which must not reach the contract's run.
// The later version the evolution drill plays adds properties, enum values and a service_fee of
// another type: every answer must still be one the document allows (answers are open). The runs
// draw their requests from the seed, so going at once changes none of them.
const outcomes: Outcome[] = await Promise.all([
  onOwnSandbox([], (url) => run(st, 'sandbox-contract', contract, url)),
  onOwnSandbox([], (url) => run(st, 'sandbox-helpers', helpers, url)),
  onOwnSandbox(['--drill'], (url) => run(st, 'sandbox-drill', contract, url, false, DRILL_MAX_EXAMPLES)),
]);

// The codes the contract's run produced, in the one coverage table beside those of the project's
// own checks: the workflows (npm run contract) and the fuzz (npm run fuzz), as
// tests/contract/coverage.test.ts runs them.
const coverage = Coverage.fromHar(readFileSync(outcomes[0]!.har, 'utf8'));
writeFileSync(path.join(REPORTS, 'coverage.json'), `${JSON.stringify(coverage)}\n`);
const workflowsFile = path.join(REPORTS, 'workflows-coverage.json');
const replay = spawnSync(
  process.execPath,
  ['--import', 'tsx', 'contract-checks/scenarios.ts', '--coverage-out', workflowsFile],
  {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  },
);
const workflows = existsSync(workflowsFile)
  ? Coverage.fromJSON(JSON.parse(readFileSync(workflowsFile, 'utf8')))
  : undefined;
if (replay.status !== 0)
  console.log(
    `npm run contract failed (exit ${replay.status}); its column is partial or absent:\n${`${replay.stdout}${replay.stderr}`.slice(-2000)}`,
  );
const fuzz = await runFuzz(FUZZ_PER_OPERATION);
const table = coverageByToolTable([
  { tool: 'workflows', coverage: workflows },
  { tool: `fuzz (${FUZZ_PER_OPERATION}/op)`, coverage: fuzz.coverage },
  { tool: 'Schemathesis', coverage },
]);
writeFileSync(path.join(REPORTS, 'coverage.md'), `${table}\n`);
console.log(`\nDeclared error codes, and how often each tool produced them on the sandbox:\n\n${table}\n`);

// The mock serves the examples and holds no state: what it fails is shown, never counted.
if (!values['skip-mock']) {
  try {
    const prism = await startPrism();
    try {
      const mock = await run(st, 'prism-mock', contract, prism.baseUrl, true);
      writeFileSync(path.join(REPORTS, 'prism-mock.txt'), mock.output);
      // Only a pointer: the mock's own summary read in a CI log like this run's verdict.
      console.log(
        'The Prism mock was run too (stateless, so its findings are not counted): its whole output is in prism-mock.txt.',
      );
    } finally {
      await prism.stop();
    }
  } catch (error) {
    console.log(`The Prism mock could not be run (not counted): ${(error as Error).message}`);
  }
}

const failed = outcomes.filter((o) => o.status !== 0);
for (const o of outcomes)
  console.log(`${o.name}: ${testCases(o.summary)}; ${o.status === 0 ? '0 failures' : `FAILED (exit ${o.status})`}`);
console.log(`Reports: ${path.relative(root, REPORTS)}/ (${readdirSync(REPORTS).sort().join(', ')})`);
process.exit(failed.length > 0 ? 1 : 0);
