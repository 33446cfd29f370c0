// .ci/run is read by a CI reader that counts tests from a runner's closing line, or from a plain
// `N passed, N failed` line. These tests run the script's own `suite` wrapper and check what the
// console shows: no line a reader takes for a runner that ran nothing, the log as printed, and the
// suite's exit status kept.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/contract.js';

const script = readFileSync(path.join(repoRoot, '.ci', 'run'), 'utf8');
const suiteFunction = /^suite\(\) \{\n[\s\S]*?\n\}$/m.exec(script)?.[0] ?? '';
const logs = mkdtempSync(path.join(os.tmpdir(), 'ci-run-'));
afterAll(() => rmSync(logs, { recursive: true, force: true }));

/** Runs `suite NAME COMMAND…` as .ci/run defines it, with pipefail as the script sets it. */
function runSuite(name: string, command: string) {
  const program = `set -o pipefail\nLOGS=${JSON.stringify(logs)}\n${suiteFunction}\nsuite ${name} bash -c ${JSON.stringify(command)}`;
  return spawnSync('bash', ['-c', program], { encoding: 'utf8' });
}

describe('.ci/run', () => {
  it('defines the suite wrapper that every suite runs through', () => {
    expect(suiteFunction).toContain('tee "$LOGS/$name.log"');
  });

  it('shows a pytest-framed closing line without its frame, so that no reader takes it for a runner that ran nothing', () => {
    const run = runSuite(
      'framed',
      "echo '============================= 2 warnings in 41.37s ============================='; echo after",
    );
    expect(run.stdout).toBe('-- 2 warnings in 41.37s --\nafter\n');
    expect(readFileSync(path.join(logs, 'framed.log'), 'utf8')).toContain('===== 2 warnings in 41.37s =====');
  });

  it('shows every other line as printed, headings framed with = included', () => {
    const run = runSuite(
      'plain',
      "echo '=================== SUMMARY ==================='; echo ' Tests  3 passed (3)'",
    );
    expect(run.stdout).toBe('=================== SUMMARY ===================\n Tests  3 passed (3)\n');
  });

  it('keeps the exit status of a suite that failed', () => {
    const run = runSuite('failing', 'echo broken; exit 3');
    expect(run.status).toBe(3);
    expect(run.stdout).toBe('broken\n');
  });

  it('ends on the plain count of every suite, `tests: N passed, 0 failed`', () => {
    const lastEcho = script.trimEnd().split('\n').at(-1) ?? '';
    expect(lastEcho).toMatch(/^echo "tests: \$\(\(.*\)\) passed, 0 failed"$/);
    for (const part of ['vitest_tests', 'partner_rows', 'conformance_cases']) expect(lastEcho).toContain(part);
  });
});
