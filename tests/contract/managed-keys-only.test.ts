// SANDBOX_API_KEYS=none, as a hosted sandbox behind a balancer runs: no key is fixed at start, not
// even the published development keys (protected mode cannot see a balancer in front of a loopback
// address), and only the keys an operator made on the database serve.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/sandbox/cli/keys.js';
import { parseApiKeys } from '../../src/sandbox/http/auth.js';
import { startSandboxProcess } from '../../testkit/sandbox-process.js';

const folder = mkdtempSync(path.join(tmpdir(), 'managed-keys-only-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('SANDBOX_API_KEYS=none', () => {
  it('fixes no key', () => {
    expect(parseApiKeys('none').size).toBe(0);
    expect(parseApiKeys(' none ').size).toBe(0);
  });

  it('refuses the development keys, serves the managed ones, and says so as it starts', async () => {
    const db = path.join(folder, 'hosted.db');
    const said: string[] = [];
    await keys(['create', '--channel', 'partner-a', '--json', '--db', db], { out: (line) => said.push(line) });
    const { key } = JSON.parse(said[0]!) as { key: string };
    const sandbox = await startSandboxProcess({ db, quiet: true, env: { SANDBOX_API_KEYS: 'none' } });
    try {
      const list = (apiKey: string) =>
        fetch(`${sandbox.baseUrl}/payments/v1/payment_sessions`, { headers: { 'x-service-api-key': apiKey } });
      expect((await list('sandbox-dev-key')).status).toBe(401);
      expect((await list(key)).status).toBe(200);
      await expect
        .poll(() => sandbox.output())
        .toContain('API keys:  none fixed (SANDBOX_API_KEYS=none): the keys of hsa-fsa-sandbox keys only');
    } finally {
      await sandbox.stop();
    }
  });

  it('refuses --webhook-url at start, which delivers for the first fixed key, and says what to do instead', async () => {
    await expect(
      startSandboxProcess({
        db: ':memory:',
        env: { SANDBOX_API_KEYS: 'none' },
        args: ['--webhook-url', 'http://127.0.0.1:9/hooks'],
        timeoutMs: 20_000,
      }),
    ).rejects.toThrow(/SANDBOX_API_KEYS=none fixes none: add an endpoint with POST \/sandbox\/v1\/webhook_endpoints/);
  });
});
