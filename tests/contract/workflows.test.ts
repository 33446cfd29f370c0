// `npm run contract` pointed at an environment it did not start (`--target`), as a partner points
// it at theirs: a sandbox started on its own runs green, the helper workflows named as skipped (or
// replayed too, with --sandbox); and the stateless Prism mock runs red, which is the negative
// control: a replay that cannot fail would prove nothing. The replay against a sandbox of its
// own, with the coverage of error codes, is in coverage.test.ts.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/contract.js';
import { startPrism, type RunningServer } from '../../testkit/prism.js';
import { SANDBOX_API_KEY, startSandboxProcess, type SandboxProcess } from '../../testkit/sandbox-process.js';

const contract = (args: string[] = []) => {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'contract-checks/scenarios.ts', ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
};
const summaries = (output: string) => [...output.matchAll(/Workflows: (.*)/g)].map((m) => m[1]!.trim());
const HELPER_FILES = ['eligibility-and-charges', 'keys-and-codes', 'tokens-disputes'];

describe('npm run contract -- --target', () => {
  let sandbox: SandboxProcess;
  beforeAll(async () => {
    sandbox = await startSandboxProcess();
  }, 60_000);
  afterAll(async () => sandbox?.stop());

  it('replays the helper-free workflows green against a sandbox started on its own, and names the others skipped', () => {
    const { status, output } = contract(['--target', `${sandbox.baseUrl}/`, '--api-key', SANDBOX_API_KEY]);
    for (const file of HELPER_FILES)
      expect(output).toContain(`skipped ${file}.arazzo.yaml: it needs the sandbox's helpers`);
    // A file of both kinds runs its helper-free workflows, and names the others.
    expect(output).toContain(
      "skipped session-status.arazzo.yaml / oneTimePaymentCaptured: it needs the sandbox's helpers",
    );
    expect(output).not.toContain('skipped session-status.arazzo.yaml / createThenCancelTwice');
    expect(summaries(output)).toEqual(['2 passed, 2 total', '5 passed, 5 total', '1 passed, 1 total']);
    expect(status, output.slice(-3000)).toBe(0);
  }, 120_000);

  it('replays every workflow with --sandbox, since that target has the helpers', () => {
    const { status, output } = contract(['--target', sandbox.baseUrl, '--sandbox']);
    expect(output).not.toContain('skipped');
    expect(summaries(output)).toHaveLength(6);
    expect(output).toContain("No --api-key: sending sandbox-dev-key, the sandbox's development key.");
    expect(status, output.slice(-3000)).toBe(0);
  }, 120_000);

  it('fails with the key the target refuses', () => {
    const { status, output } = contract(['--target', sandbox.baseUrl, '--api-key', 'not-a-key']);
    expect(summaries(output)).toEqual(['2 failed, 2 total', '5 failed, 5 total', '1 failed, 1 total']);
    expect(output).toMatch(/step create[\s\S]*✗ success criteria check - \$statusCode == 200/);
    expect(status).toBe(1);
  }, 120_000);

  it('says what it needs when the target is no URL, or --sandbox comes alone', () => {
    expect(contract(['--target', '127.0.0.1:4010'])).toMatchObject({
      status: 2,
      output: expect.stringContaining('--target must be a base URL such as http://127.0.0.1:4010'),
    });
    expect(contract(['--sandbox'])).toMatchObject({
      status: 2,
      output: expect.stringContaining('without --target, npm run contract starts a sandbox itself'),
    });
  });
});

describe('npm run contract -- --target, against the Prism mock', () => {
  let prism: RunningServer;
  let helpers: RunningServer;
  beforeAll(async () => {
    [prism, helpers] = await Promise.all([startPrism(), startPrism(path.join(repoRoot, 'generated', 'sandbox.yaml'))]);
  }, 120_000);
  afterAll(async () => Promise.all([prism?.stop(), helpers?.stop()]));

  it('fails: the mock holds no state, so a new key never gets a new session, and an idempotency violation or a duplicate sku never comes', () => {
    const { status, output } = contract(['--target', prism.baseUrl]);
    // Only the catalog's invalid input passes, since Prism validates requests itself.
    expect(summaries(output)).toEqual(['1 passed, 1 failed, 2 total', '5 failed, 5 total', '1 failed, 1 total']);
    expect(output).toMatch(
      /step newKey[\s\S]*✗ success criteria check - \$response.body#\/id != \$steps.create.outputs.id/,
    );
    expect(output).toMatch(/step duplicate[\s\S]*✗ success criteria check - \$statusCode == 409/);
    expect(output).toMatch(/step divergeAmount[\s\S]*✗ success criteria check - \$statusCode == 400/);
    expect(output).toMatch(/✗ success criteria check - \$response.body#\/metadata == 'original'/);
    expect(status).not.toBe(0);
  }, 180_000);

  it('fails every helper workflow too, with the helpers mocked by Prism as well', () => {
    const { status, output } = contract(['--target', prism.baseUrl, '--helpers-url', helpers.baseUrl]);
    expect(output).not.toContain('skipped');
    const failures = summaries(output);
    expect(failures).toEqual([
      '1 passed, 1 failed, 2 total',
      '3 failed, 3 total',
      '5 failed, 5 total',
      '3 failed, 3 total',
      '5 failed, 5 total',
      '5 failed, 5 total',
    ]);
    expect(status).not.toBe(0);
  }, 180_000);
});
