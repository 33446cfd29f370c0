// npm run contract: replays the Arazzo workflows of openapi/workflows/ with Redocly Respect, every
// check on (status, schema, content type, success criteria), then prints the error codes the
// replay produced, per operation and status.
//   npm run contract                                        a sandbox on :memory:, every workflow
//   npm run contract -- --target URL [--api-key KEY]        any environment: the workflows that need
//                                                           no sandbox helper, the others named as skipped
//   npm run contract -- --target URL --sandbox              a sandbox you started: every workflow
//   npm run contract -- --target URL --helpers-url URL      the helpers served elsewhere (a mock of them)
//   --coverage-out FILE                                     also writes the codes produced, as JSON
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { Coverage, coverageTable } from '../testkit/coverage.js';
import { startSandboxProcess } from '../testkit/sandbox-process.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    target: { type: 'string' },
    sandbox: { type: 'boolean' },
    'helpers-url': { type: 'string' },
    'api-key': { type: 'string' },
    'coverage-out': { type: 'string' },
  },
});
if ((values.sandbox || values['helpers-url']) && !values.target) {
  console.error(
    '--sandbox and --helpers-url say where the helpers of a --target are; without --target, npm run contract starts a sandbox itself.',
  );
  process.exit(2);
}
for (const option of ['target', 'helpers-url'] as const) {
  const url = values[option];
  if (url !== undefined && !URL.canParse(url)) {
    console.error(`--${option} must be a base URL such as http://127.0.0.1:4010, not ${JSON.stringify(url)}.`);
    process.exit(2);
  }
}
// Helper workflows run wherever the sandbox's helpers are: on the sandbox started here, on a target
// that is one, or at --helpers-url.
const withHelpers = !values.target || values.sandbox === true || values['helpers-url'] !== undefined;
const apiKey = values['api-key'] ?? 'sandbox-dev-key';
if (values.target && !values['api-key']) console.log(`No --api-key: sending ${apiKey}, the sandbox's development key.`);
const folder = path.join(root, 'openapi', 'workflows');
const all = readdirSync(folder)
  .filter((file) => file.endsWith('.arazzo.yaml'))
  .sort();
// A workflow that calls a /sandbox/v1/ helper runs only where the helpers are.
interface Workflow {
  workflowId: string;
}
const workflowsOf = (file: string): { ids: string[]; helpers: string[] } => {
  const { workflows } = YAML.parse(readFileSync(path.join(folder, file), 'utf8')) as { workflows: Workflow[] };
  return {
    ids: workflows.map((w) => w.workflowId),
    helpers: workflows
      .filter((w) => JSON.stringify(w).includes('$sourceDescriptions.sandbox.'))
      .map((w) => w.workflowId),
  };
};
// Each file's workflows to skip; a file none of whose workflows can run is skipped whole.
const plan = all.map((file) => {
  const { ids, helpers } = workflowsOf(file);
  return { file, skip: withHelpers ? [] : helpers, total: ids.length };
});
for (const { file, skip, total } of plan) {
  if (skip.length === total)
    console.log(`skipped ${file}: it needs the sandbox's helpers (add --sandbox if the target is one)`);
  else for (const workflowId of skip) console.log(`skipped ${file} / ${workflowId}: it needs the sandbox's helpers`);
}
const files = plan.filter(({ skip, total }) => skip.length < total);

const sandbox = values.target ? undefined : await startSandboxProcess({ db: ':memory:' });
const base = values.target?.replace(/\/+$/, '') ?? sandbox!.baseUrl;
const helpers = values['helpers-url']?.replace(/\/+$/, '') ?? base;
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const redocly = path.join(root, 'node_modules', '.bin', 'redocly');
// Respect's HAR log holds every request and answer: the codes produced are read from it. It writes
// one only for a single file, so each file is replayed on its own.
const scratch = mkdtempSync(path.join(tmpdir(), 'contract-'));
const coverage = new Coverage();
let failed = false;
for (const { file, skip } of files) {
  const har = path.join(scratch, `${file}.har`);
  const result = spawnSync(
    redocly,
    [
      'respect',
      path.join(folder, file),
      '-S',
      `contract=${base}`,
      ...(withHelpers ? ['-S', `sandbox=${helpers}`] : []),
      ...skip.flatMap((workflowId) => ['--skip', workflowId]),
      '-i',
      `apiKey=${apiKey}`,
      '-i',
      `run=${run}`,
      '--har-output',
      har,
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_UPDATE_NOTIFIER: '1' } },
  );
  failed ||= result.status !== 0;
  try {
    coverage.merge(Coverage.fromHar(readFileSync(har, 'utf8')));
  } catch (error) {
    console.log(`No coverage of ${file}: Respect wrote no HAR log (${(error as Error).message}).`);
  }
}
await sandbox?.stop();
rmSync(scratch, { recursive: true, force: true });
// Some codes come only from the fuzz (npm run fuzz); tests/contract/coverage.test.ts joins both.
console.log(`\nError codes the workflows produced:\n\n${coverageTable(coverage, '(not by these workflows)')}\n`);
if (values['coverage-out']) writeFileSync(values['coverage-out'], JSON.stringify(coverage));
process.exit(failed ? 1 : 0);
