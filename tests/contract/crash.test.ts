// Durability: once the sandbox has answered 200 to a create, the session survives kill -9 (SQLite
// WAL, one transaction per request, committed before the reply), and so does its idempotency key.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_API_KEY, startSandboxProcess, type SandboxProcess } from '../../testkit/sandbox-process.js';

const CONCURRENCY = 20;
const MAX_REQUESTS = 400;
const KILL_AFTER_ACKS = 150;
const BURST_DEADLINE_MS = 20_000;
const REQUEST_TIMEOUT_MS = 5_000;

const headers = { 'x-service-api-key': SANDBOX_API_KEY, 'content-type': 'application/json' };
const noCharges = { total_additional_charges: 0, total_discounts: 0 };
const run = randomUUID().slice(0, 8);

function createBody(n: number) {
  return {
    kind: 'authorization',
    total_amount: 1000 + n,
    amount_details: noCharges,
    success_url: 'https://shop.example/ok/{{payment_session_id}}',
    failure_url: 'https://shop.example/ko/{{payment_session_id}}',
    idempotency_key: `crash-${run}-${n}`,
    customer_email: `buyer${n}@example.com`,
    order_items: [{ name: `Item ${n}`, sku: `SKU-${n}`, quantity: 1, price: 1000 + n, amount_details: noCharges }],
  };
}

interface Acknowledged {
  body: ReturnType<typeof createBody>;
  id: string;
}

async function create(baseUrl: string, body: object, signal?: AbortSignal): Promise<{ status: number; json: any }> {
  const response = await fetch(`${baseUrl}/payments/v1/create_payment_session`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal: signal
      ? AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)])
      : AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  // Acknowledged only once the whole body has arrived.
  return { status: response.status, json: await response.json() };
}

/** Runs fn over items with at most `limit` at a time. */
async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

async function sessionCount(baseUrl: string): Promise<number> {
  const response = await fetch(`${baseUrl}/payments/v1/payment_sessions?page=1&page_size=1`, { headers });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { pagination: { count: number } };
  return body.pagination.count;
}

describe('the sandbox after kill -9', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-crash-'));
  const dbFile = path.join(dir, 'sandbox.db');
  const servers: SandboxProcess[] = [];
  const acknowledged: Acknowledged[] = [];
  let inFlightAtKill = -1;
  let restarted: SandboxProcess;

  beforeAll(async () => {
    const first = await startSandboxProcess({ db: dbFile });
    servers.push(first);

    const stopBurst = new AbortController();
    const deadline = setTimeout(() => stopBurst.abort(), BURST_DEADLINE_MS);
    let issued = 0;
    let inFlight = 0;
    let killing: Promise<void> | undefined;
    const worker = async () => {
      while (issued < MAX_REQUESTS && !stopBurst.signal.aborted && killing === undefined) {
        const body = createBody(issued++);
        inFlight++;
        try {
          const { status, json } = await create(first.baseUrl, body, stopBurst.signal);
          // Any other answer is no acknowledgement, and so promises nothing.
          if (status === 200 && typeof json?.id === 'string') acknowledged.push({ body, id: json.id });
        } catch {
          // Refused, reset or aborted by the kill: not acknowledged, so ignored.
        } finally {
          inFlight--;
        }
        if (acknowledged.length >= KILL_AFTER_ACKS && killing === undefined) {
          inFlightAtKill = inFlight;
          killing = first.kill();
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      await killing;
    } finally {
      clearTimeout(deadline);
      await first.kill(); // no-op when already killed
    }
    restarted = await startSandboxProcess({ db: dbFile });
    servers.push(restarted);
  }, 50_000);

  afterAll(async () => {
    for (const server of servers) await server.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('was killed mid-burst, with requests in flight', () => {
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(new Set(acknowledged.map((a) => a.id)).size).toBe(acknowledged.length);
  });

  it('serves every acknowledged session after the restart', async () => {
    const missing: string[] = [];
    await pool(acknowledged, 10, async ({ id, body }) => {
      const response = await fetch(`${restarted.baseUrl}/payments/v1/payment_session/${id}`, { headers });
      const session = (await response.json()) as { id?: string; total_amount?: number };
      if (response.status !== 200 || session.id !== id || session.total_amount !== body.total_amount)
        missing.push(`${id}: ${response.status}`);
    });
    expect(missing).toEqual([]);
  });

  it('holds at least as many sessions as were acknowledged', async () => {
    expect(await sessionCount(restarted.baseUrl)).toBeGreaterThanOrEqual(acknowledged.length);
  });

  it('keeps each acknowledged idempotency key: a re-sent create answers the same session', async () => {
    const before = await sessionCount(restarted.baseUrl);
    const mismatches: string[] = [];
    await pool(acknowledged, 10, async ({ id, body }) => {
      const { status, json } = await create(restarted.baseUrl, body);
      if (status !== 200 || json?.id !== id)
        mismatches.push(`${body.idempotency_key}: ${status} ${JSON.stringify(json)} (acknowledged ${id})`);
    });
    expect(mismatches).toEqual([]);
    // The re-sends created nothing.
    expect(await sessionCount(restarted.baseUrl)).toBe(before);
  });
});
