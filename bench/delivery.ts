// Webhook delivery latency: the sandbox process (on a SQLite file, with --webhook-url) and a signed
// receiver in this process that verifies every delivery. Pending sessions are canceled at a steady
// rate (each cancel queues exactly one payment_session_complete); the latency of an event is from
// its state change (the payload's created_at, on the sandbox clock, which is real time here) to its
// arrival at the receiver, so it includes the dispatcher's wake-up, signing, the POST and the
// verification. The anchor is the signing and verification alone, measured in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signWebhook, verifyWebhook } from '../src/webhooks/index.js';
import { sessionRequest } from '../testkit/sandbox.js';
import { SANDBOX_API_KEY, startSandboxProcess } from '../testkit/sandbox-process.js';
import { startReceiver, until } from '../testkit/webhook-receiver.js';

const SECRET = 'whsec_bench';

export interface DeliveryBench {
  targetPerSecond: number;
  seconds: number;
  events: number;
  delivered: number;
  achievedPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Verifications of a 1 KB signed body per second, in this process. */
  verificationsPerSecond: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

function verificationsPerSecond(): number {
  const body = JSON.stringify({
    webhook_delivery_id: 'dlv_bench',
    event_type: 'dispute.updated',
    data: { pad: 'x'.repeat(930) },
  });
  const signed = signWebhook(body, SECRET);
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < 1000) {
    verifyWebhook({ rawBody: signed.body, signatureHeader: signed.signatureHeader, secret: SECRET });
    n++;
  }
  return n / ((performance.now() - started) / 1000);
}

export async function benchDelivery({
  perSecond = 500,
  seconds = Number(process.env.BENCH_SECONDS ?? 5),
} = {}): Promise<DeliveryBench> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-delivery-bench-'));
  const receiver = await startReceiver({ secret: SECRET });
  const arrivals: number[] = [];
  const latencies: number[] = [];
  const sandbox = await startSandboxProcess({
    db: path.join(dir, 'bench.db'),
    args: ['--webhook-url', receiver.url, '--webhook-secret', SECRET],
    compiled: true,
  });
  const post = (route: string, body: unknown) =>
    fetch(`${sandbox.baseUrl}${route}`, {
      method: 'POST',
      headers: { 'x-service-api-key': SANDBOX_API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  try {
    const total = perSecond * seconds;
    // Sessions made before the clock starts (their creation queues no event).
    const ids: string[] = [];
    for (let i = 0; i < total; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, total - i) }, () =>
          post('/payments/v1/create_payment_session', sessionRequest()).then(
            (r) => r.json() as Promise<{ id: string }>,
          ),
        ),
      );
      ids.push(...batch.map((b) => b.id));
    }
    const seen = receiver.accepted.length;
    const started = performance.now();
    let sent = 0;
    // Every 10 ms, the cancels due by then: a steady rate, whatever each request takes.
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * perSecond));
        while (sent < due) void post(`/payments/v1/payment_session/${ids[sent++]}/cancel`, {});
        if (sent >= total) {
          clearInterval(timer);
          resolve();
        }
      }, 10);
    });
    await until(() => receiver.accepted.length - seen >= total, 60_000, 'every delivery');
    for (const delivery of receiver.accepted.slice(seen)) {
      latencies.push(delivery.arrivedAt - Date.parse(delivery.body.data.created_at as string));
      arrivals.push(delivery.arrivedAt);
    }
    latencies.sort((a, b) => a - b);
    const span = (Math.max(...arrivals) - Math.min(...arrivals)) / 1000;
    return {
      targetPerSecond: perSecond,
      seconds,
      events: total,
      delivered: latencies.length,
      achievedPerSecond: latencies.length / Math.max(span, 0.001),
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies.at(-1) ?? 0,
      verificationsPerSecond: verificationsPerSecond(),
    };
  } finally {
    await sandbox.stop();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function deliveryTable(run: DeliveryBench): string {
  return [
    `  events ${run.events} at ${run.targetPerSecond}/s for ${run.seconds} s: ${run.delivered} delivered, arriving at ${run.achievedPerSecond.toFixed(0)}/s`,
    `  latency from state change to receiver: p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, max ${run.maxMs} ms (target p99 ≤ 50 ms)`,
    `  anchor: verifyWebhook of a 1 KB body, ${run.verificationsPerSecond.toFixed(0)}/s in one process`,
  ].join('\n');
}
