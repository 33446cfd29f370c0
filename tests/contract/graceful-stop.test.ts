// A sandbox told to stop (SIGTERM, as a host's supervisor or `npm start`'s Ctrl-C sends it) loses
// nothing it was given: the requests that had reached it, even those whose connection was still
// queued as the signal came, are answered, and each write answered is stored. It then exits of
// itself with code 0 (the deadline's exit is code 1). And its banner never prints keys an
// operator set, since on a host it goes to the log store.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandboxProcess } from '../../testkit/sandbox-process.js';

const folder = mkdtempSync(path.join(tmpdir(), 'graceful-stop-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const noCharges = { total_additional_charges: 0, total_discounts: 0 };
const run = randomUUID().slice(0, 8);

const createBody = (n: number) => ({
  kind: 'authorization',
  total_amount: 1000 + n,
  amount_details: noCharges,
  success_url: 'https://shop.example/ok',
  failure_url: 'https://shop.example/ko',
  idempotency_key: `stop-${run}-${n}`,
  order_items: [{ name: `Item ${n}`, sku: `SKU-${n}`, quantity: 1, price: 1000 + n, amount_details: noCharges }],
});

async function create(baseUrl: string, n: number): Promise<{ status: number; id?: string } | { error: string }> {
  try {
    const response = await fetch(`${baseUrl}/payments/v1/create_payment_session`, {
      method: 'POST',
      headers: { 'x-service-api-key': 'sandbox-dev-key', 'content-type': 'application/json' },
      body: JSON.stringify(createBody(n)),
    });
    const body = (await response.json()) as { id?: string };
    return { status: response.status, ...(body.id ? { id: body.id } : {}) };
  } catch (error) {
    return { error: String((error as { cause?: { code?: string } }).cause?.code ?? error) };
  }
}

describe('stopping on SIGTERM', () => {
  it('answers every one of 20 creates sent as the signal comes, stores each, and exits with code 0', async () => {
    const db = path.join(folder, 'burst.db');
    const sandbox = await startSandboxProcess({ db });
    const answers = Array.from({ length: 20 }, (_, n) => create(sandbox.baseUrl, n));
    // Within the burst: most of its connections are still queued or unread when it arrives.
    await new Promise((resolve) => setTimeout(resolve, 2));
    process.kill(sandbox.pid, 'SIGTERM');
    const results = await Promise.all(answers);
    expect(await sandbox.exitCode).toBe(0);
    expect(results.map((result) => ('status' in result ? result.status : result.error))).toEqual(
      Array.from({ length: 20 }, () => 200),
    );
    // Restarted on the same file, every create answered is there.
    const again = await startSandboxProcess({ db });
    try {
      for (const result of results) {
        const id = (result as { id: string }).id;
        const response = await fetch(`${again.baseUrl}/payments/v1/payment_session/${id}`, {
          headers: { 'x-service-api-key': 'sandbox-dev-key' },
        });
        expect(response.status, id).toBe(200);
      }
    } finally {
      await again.stop();
    }
  });
});

describe('the start banner', () => {
  it('names the channels of the keys SANDBOX_API_KEYS set, never the keys', async () => {
    const sandbox = await startSandboxProcess({
      quiet: true,
      env: { SANDBOX_API_KEYS: 'ops-secret-123:dev,ops-secret-456:partner' },
    });
    try {
      await expect
        .poll(() => sandbox.output())
        .toContain('API keys:  2 set by SANDBOX_API_KEYS (channels dev, partner), not shown');
      expect(sandbox.output()).not.toContain('ops-secret');
    } finally {
      await sandbox.stop();
    }
  });

  it('shows the development keys in full when none was set: they are published', async () => {
    const sandbox = await startSandboxProcess({ quiet: true });
    try {
      await expect
        .poll(() => sandbox.output())
        .toContain('sandbox-dev-key (channel dev), sandbox-other-key (channel other)');
    } finally {
      await sandbox.stop();
    }
  });
});
