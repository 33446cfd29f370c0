// Webhook delivery from the sandbox process as a developer runs it: `--webhook-url` and
// `--webhook-secret` at start, the banner printing the secret, and an outbox that survives a
// `kill -9` mid-burst: every event whose request was answered is delivered after the restart.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DISPATCH_LEASE_MS } from '../../src/sandbox/delivery/claim.js';
import { repoRoot } from '../../testkit/contract.js';
import { sessionRequest } from '../../testkit/sandbox.js';
import { freePort } from '../../testkit/processes.js';
import { SANDBOX_API_KEY, sandboxEnv, startSandboxProcess } from '../../testkit/sandbox-process.js';
import { startReceiver, until } from '../../testkit/webhook-receiver.js';

const SECRET = 'whsec_process_test';
const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-webhooks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function call(base: string, route: string, body: unknown = {}) {
  const response = await fetch(`${base}${route}`, {
    method: 'POST',
    headers: { 'x-service-api-key': SANDBOX_API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('the sandbox process delivers webhooks', () => {
  it('prints the endpoint and its secret at start', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli.ts',
        'sandbox',
        '--port',
        '0',
        '--db',
        ':memory:',
        '--webhook-url',
        'http://127.0.0.1:9/webhooks',
        '--webhook-secret',
        SECRET,
      ],
      {
        cwd: repoRoot,
        env: sandboxEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    try {
      await until(() => output.includes('Webhooks:'), 30_000, 'the banner');
      expect(output).toContain(`Webhooks:  http://127.0.0.1:9/webhooks (channel dev, *), signed with ${SECRET}`);
    } finally {
      child.kill('SIGTERM');
    }
  }, 40_000);

  it("refuses at start a --webhook-url that names the sandbox's own address, with a clear error", async () => {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli.ts',
        'sandbox',
        '--port',
        String(port),
        '--db',
        ':memory:',
        '--webhook-url',
        `http://localhost:${port}/admin`,
      ],
      {
        cwd: repoRoot,
        env: sandboxEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain(
      `error: --webhook-url http://localhost:${port}/admin: url points at the sandbox itself (localhost:${port})`,
    );
    expect(output).not.toContain('Sandbox listening');
  }, 40_000);

  it(
    'delivers every acknowledged event after a kill -9 mid-burst and a restart',
    async () => {
      const db = path.join(dir, 'burst.db');
      const receiver = await startReceiver({ secret: SECRET });
      const port = receiver.port;
      await receiver.close(); // down during the burst: every delivery waits in the database
      const args = ['--webhook-url', `http://127.0.0.1:${port}/webhooks`, '--webhook-secret', SECRET];
      const first = await startSandboxProcess({ db, args });
      const acknowledged: string[] = [];
      const burst = Array.from({ length: 40 }, async (_, i) => {
        const created = await call(
          first.baseUrl,
          '/payments/v1/create_payment_session',
          sessionRequest({ idempotency_key: `burst-${i}` }),
        ).catch(() => undefined);
        if (created?.status !== 200) return;
        const done = await call(
          first.baseUrl,
          `/sandbox/v1/payment_sessions/${created.body.id}/complete_checkout`,
        ).catch(() => undefined);
        if (done?.status === 200) acknowledged.push(created.body.id as string);
      });
      await until(() => acknowledged.length >= 10, 20_000, 'ten acknowledged checkouts');
      await first.kill();
      await Promise.allSettled(burst);
      expect(acknowledged.length).toBeGreaterThanOrEqual(10);

      const back = await startReceiver({ secret: SECRET, port });
      const second = await startSandboxProcess({ db, args });
      try {
        const delivered = () => new Set(back.accepted.map((d) => d.body.data.payment_id as string));
        // A delivery the killed sandbox had claimed waits for its lease to end.
        await until(
          () => acknowledged.every((id) => delivered().has(id)),
          20_000 + DISPATCH_LEASE_MS,
          'every acknowledged event',
        );
        expect(back.rejected).toEqual([]);
        const ids = back.accepted.map((d) => d.body.webhook_delivery_id as string);
        expect(new Set(ids).size).toBe(ids.length);
      } finally {
        await second.stop();
        await back.close();
      }
    },
    90_000 + DISPATCH_LEASE_MS,
  );

  it('delivers each event once from two sandboxes on one database file, whichever fired it', async () => {
    const db = path.join(dir, 'shared.db');
    const receiver = await startReceiver({ secret: SECRET });
    const args = ['--webhook-url', receiver.url, '--webhook-secret', SECRET];
    const sandboxes = [await startSandboxProcess({ db, args }), await startSandboxProcess({ db, args })];
    try {
      await Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          const base = sandboxes[i % 2]!.baseUrl;
          const created = await call(base, '/payments/v1/create_payment_session', sessionRequest());
          await call(base, `/sandbox/v1/payment_sessions/${created.body.id}/complete_checkout`);
        }),
      );
      const log = async () => {
        const response = await fetch(`${sandboxes[1]!.baseUrl}/sandbox/v1/webhook_deliveries?limit=1000`, {
          headers: { 'x-service-api-key': SANDBOX_API_KEY },
        });
        return ((await response.json()) as { attempts: Array<{ delivery_status: string }> }).attempts;
      };
      const outbox = await fetch(`${sandboxes[0]!.baseUrl}/sandbox/v1/outbox?limit=1000`, {
        headers: { 'x-service-api-key': SANDBOX_API_KEY },
      });
      const fired = ((await outbox.json()) as { events: unknown[] }).events.length;
      expect(fired).toBeGreaterThanOrEqual(30);
      await until(async () => (await log()).length === fired, 30_000, 'every event recorded delivered');
      expect((await log()).every((attempt) => attempt.delivery_status === 'delivered')).toBe(true);
      const ids = receiver.accepted.map((d) => d.body.webhook_delivery_id as string);
      expect(ids).toHaveLength(fired);
      expect(new Set(ids).size).toBe(fired);
    } finally {
      await Promise.all(sandboxes.map((sandbox) => sandbox.stop()));
      await receiver.close();
    }
  }, 90_000);
});
