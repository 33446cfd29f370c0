// A whole payment as a partner's integration test drives it, as flows per second: create an
// authorization, the customer completes checkout (the helper), capture, then a partial refund.
// Ten workers run flows back to back against the compiled sandbox on a SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SANDBOX_API_KEY, startSandboxProcess } from '../testkit/sandbox-process.js';
import { rssMiB } from './load.js';
import { createBody } from './sandbox.js';

export interface FlowBench {
  workers: number;
  seconds: number;
  flows: number;
  flowsPerSecond: number;
  /** Steps that did not answer 200: 0 in a meaningful run. */
  failures: number;
  rssMiB: number;
}

const WORKERS = 10;

export async function benchFlow({ seconds = Number(process.env.BENCH_SECONDS ?? 5) } = {}): Promise<FlowBench> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-flow-bench-'));
  const sandbox = await startSandboxProcess({ db: path.join(dir, 'flow.db'), compiled: true });
  const headers = { 'x-service-api-key': SANDBOX_API_KEY, 'content-type': 'application/json' };
  const post = async (route: string, body: unknown) => {
    const response = await fetch(`${sandbox.baseUrl}${route}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = (await response.json()) as Record<string, unknown>;
    if (response.status !== 200) throw new Error(`${route} answered ${response.status}`);
    return json;
  };
  let flows = 0;
  let failures = 0;
  let n = 0;
  const flow = async () => {
    const key = `flow-${process.pid}-${n++}`;
    const { id } = await post('/payments/v1/create_payment_session', createBody(key));
    await post(`/sandbox/v1/payment_sessions/${id}/complete_checkout`, {});
    await post(`/payments/v1/payment_session/${id}/capture`, { total_amount: 7799, idempotency_key: `${key}-capture` });
    await post('/payments/v1/refund', {
      payment_id: id,
      amount: 1250,
      idempotency_key: `${key}-refund`,
      reason: 'customer_request',
    });
  };
  try {
    const run = async (until: number, count: boolean) => {
      await Promise.all(
        Array.from({ length: WORKERS }, async () => {
          while (performance.now() < until) {
            try {
              await flow();
              if (count) flows++;
            } catch {
              if (count) failures++;
            }
          }
        }),
      );
    };
    await run(performance.now() + 1000, false);
    const started = performance.now();
    await run(started + seconds * 1000, true);
    const elapsed = (performance.now() - started) / 1000;
    return { workers: WORKERS, seconds, flows, flowsPerSecond: flows / elapsed, failures, rssMiB: rssMiB(sandbox.pid) };
  } finally {
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
