// The contract's workflows (npm run contract, every Arazzo workflow with every check on) replayed
// against sandboxes on PostgreSQL, as against the SQLite sandbox in tests/contract/: two processes
// on one database, the API asked through one and the helpers through the other, so that a replay
// holds only if they act as one sandbox.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/contract.js';
import { type SandboxGroup, startSandboxProcesses } from '../../testkit/sandbox-processes.js';
import { testDatabase } from '../support/postgres-database.js';

let group: SandboxGroup;
beforeAll(async () => {
  group = await startSandboxProcesses(2, await testDatabase('contract_workflows'), { timeoutMs: 60_000 });
}, 90_000);
afterAll(async () => {
  await group?.stop();
});

describe('npm run contract against two sandboxes on one PostgreSQL database', () => {
  it('replays every workflow green, the API through one sandbox and the helpers through the other', () => {
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'contract-checks/scenarios.ts',
        '--target',
        group.at(0).baseUrl,
        '--helpers-url',
        group.at(1).baseUrl,
      ],
      { cwd: repoRoot, encoding: 'utf8', timeout: 180_000, env: { ...process.env, NO_COLOR: '1' } },
    );
    const output = `${result.stdout}${result.stderr}`;
    expect(output).not.toContain('skipped');
    const summaries = [...output.matchAll(/Workflows: (.*)/g)].map((m) => m[1]!.trim());
    expect(summaries).toHaveLength(6);
    for (const summary of summaries) expect(summary).toMatch(/^(\d+) passed, \1 total$/);
    expect(result.status, output.slice(-3000)).toBe(0);
  }, 200_000);
});
