// The rate limit as the command line takes it: --rate-limit, else SANDBOX_RATE_LIMIT, each named
// as what was wrong when refused; an empty variable is no setting.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/contract.js';
import { sandboxEnv } from '../../testkit/sandbox-process.js';

const refusedStart = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(
    process.execPath,
    ['--import', 'tsx', 'src/cli.ts', 'sandbox', '--port', '0', '--db', ':memory:', '--quiet', ...args],
    { cwd: repoRoot, env: { ...sandboxEnv(), ...env }, encoding: 'utf8', timeout: 30_000 },
  );

describe('the rate limit setting', () => {
  it('names SANDBOX_RATE_LIMIT when the variable is wrong, and --rate-limit when the flag is', () => {
    const fromVariable = refusedStart([], { SANDBOX_RATE_LIMIT: 'lots' });
    expect(fromVariable.status).toBe(1);
    expect(fromVariable.stderr).toContain('error: SANDBOX_RATE_LIMIT is off, or requests per second');
    const fromFlag = refusedStart(['--rate-limit', 'lots']);
    expect(fromFlag.status).toBe(1);
    expect(fromFlag.stderr).toContain('error: --rate-limit is off, or requests per second');
  });

  it('takes an empty SANDBOX_RATE_LIMIT as unset: the default limit', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', 'sandbox', '--port', '0', '--db', ':memory:', '--quiet'],
      { cwd: repoRoot, env: { ...sandboxEnv(), SANDBOX_RATE_LIMIT: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    try {
      await expect
        .poll(() => output, { timeout: 30_000 })
        .toContain('Limit:     100 requests per second per key, in bursts of up to 1000');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});
