// The Arazzo workflows of openapi/workflows/, replayed by Redocly Respect through `npm run contract`:
// green against the sandbox (every workflow), and red against the stateless Prism mock (the
// negative control: a replay that cannot fail would prove nothing).
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/contract.js';
import { startPrism, type RunningServer } from '../support/prism.js';

const contract = (args: string[] = []) => {
  const result = spawnSync(process.execPath, ['scripts/contract.mjs', ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 180_000, env: { ...process.env, NO_COLOR: '1' } });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
};

describe('npm run contract', () => {
  it('replays every workflow green against a sandbox on :memory:', () => {
    const { status, output } = contract();
    // One summary per file: every workflow of every file passed.
    const summaries = [...output.matchAll(/Workflows: (.*)/g)].map((m) => m[1]!.trim());
    expect(summaries.length).toBe(4);
    expect(summaries.every((line) => /^\d+ passed, \d+ total$/.test(line))).toBe(true);
    expect(summaries.reduce((sum, line) => sum + Number(/^(\d+)/.exec(line)![1]), 0)).toBe(14);
    expect(status, output.slice(-3000)).toBe(0);
  }, 180_000);

  describe('against the Prism mock', () => {
    let prism: RunningServer;
    beforeAll(async () => { prism = await startPrism(); }, 90_000);
    afterAll(async () => prism?.stop());

    it('fails: the mock holds no state, so an idempotency violation never comes', () => {
      const { status, output } = contract(['--target', prism.baseUrl]);
      expect(output).toContain("skipped session-status.arazzo.yaml: it needs the sandbox's helpers");
      // The stateful workflows fail there, for the reasons a stateless mock gives.
      expect(output).toMatch(/Workflows: 1 passed, 2 failed, 3 total/);
      expect(output).toMatch(/step divergeAmount[\s\S]*✗ success criteria check - \$statusCode == 400/);
      expect(output).toMatch(/✗ success criteria check - \$response.body#\/metadata == 'original'/);
      expect(status).not.toBe(0);
    }, 180_000);
  });
});
