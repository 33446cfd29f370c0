// Sandbox benchmark: throughput and latency of the sandbox (a child process on a SQLite file, as
// `npm start` runs it) under autocannon, against two anchors measured in the same run:
//   - the Prism mock of the same contract (-v error), the stateless alternative users have;
//   - a bare fastify server answering the same JSON on the same routes: the floor of the stack,
//     so that sandbox/bare shows what validation, SQLite and the handlers cost.
// Two cases: retrieve (GET one existing session) and create (POST create_payment_session, a new
// idempotency_key per request so that every request creates a session).
// Every server is a separate process on 127.0.0.1; autocannon runs in this one (50 connections).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../tests/support/processes.js';
import { startPrism } from '../../tests/support/prism.js';
import { SANDBOX_API_KEY, startSandboxProcess } from '../../tests/support/sandbox-process.js';

// autocannon ships no types, and the project adds no @types package for it: the part used here.
interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}
interface AutocannonOptions extends AutocannonRequest {
  url: string;
  connections: number;
  duration: number;
  requests?: AutocannonRequest[];
}
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>;

export const CONNECTIONS = 50;
const SERVE_BARE_FLAG = '--serve-bare-fastify';

export type BenchCase = 'retrieve' | 'create';
export type BenchTarget = 'sandbox' | 'prism' | 'bare fastify';

export interface BenchRun {
  case: BenchCase;
  target: BenchTarget;
  requestsPerSecond: number;
  /** Latencies are autocannon's, recorded in whole milliseconds. */
  p50Ms: number;
  p99Ms: number;
  /** Answers that were not 2xx, plus connection errors and timeouts: 0 in a meaningful run. */
  failures: number;
}

export interface BenchRatio {
  case: BenchCase;
  anchor: Exclude<BenchTarget, 'sandbox'>;
  /** sandbox req/s ÷ anchor req/s: above 1, the sandbox serves more. */
  throughput: number;
  /** sandbox p99 ÷ anchor p99: above 1, the sandbox is slower at the tail. */
  p99: number;
}

export interface SandboxBenchResult {
  seconds: number;
  connections: number;
  runs: BenchRun[];
  ratios: BenchRatio[];
}

const noCharges = { total_additional_charges: 0, total_discounts: 0 };
const createBody = (idempotencyKey: string) => ({
  kind: 'authorization',
  total_amount: 4999,
  amount_details: noCharges,
  success_url: 'https://shop.example/orders/{{payment_session_id}}/thanks',
  failure_url: 'https://shop.example/orders/{{payment_session_id}}/failed',
  idempotency_key: idempotencyKey,
  order_items: [{ name: 'Blood pressure monitor', sku: 'BPM-200', quantity: 1, price: 4999, amount_details: noCharges }],
});

function requestsOf(benchCase: BenchCase, sessionId: string): AutocannonRequest[] {
  if (benchCase === 'retrieve') {
    return [{ method: 'GET', path: `/payments/v1/payment_session/${sessionId}`, headers: { 'x-service-api-key': SANDBOX_API_KEY } }];
  }
  const run = randomUUID().slice(0, 8);
  let n = 0;
  return [
    {
      method: 'POST',
      path: '/payments/v1/create_payment_session',
      headers: { 'x-service-api-key': SANDBOX_API_KEY, 'content-type': 'application/json' },
      // A new key per request: each one creates a session instead of replaying the first.
      setupRequest: (request) => ({ ...request, body: JSON.stringify(createBody(`bench-${run}-${n++}`)) }),
    },
  ];
}

async function measure(baseUrl: string, benchCase: BenchCase, sessionId: string, seconds: number) {
  return autocannon({ url: baseUrl, connections: CONNECTIONS, duration: seconds, requests: requestsOf(benchCase, sessionId) });
}

/** The bare fastify anchor, in its own process like the others (this file, run with SERVE_BARE_FLAG). */
async function startBareFastify(session: unknown): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, SERVE_BARE_FLAG], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, BENCH_BARE_PORT: String(port), BENCH_BARE_SESSION: JSON.stringify(session) },
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const deadline = Date.now() + 30_000;
  while (true) {
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) return { baseUrl, stop };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error('The bare fastify anchor did not start');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function serveBareFastify(): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const session = JSON.parse(process.env.BENCH_BARE_SESSION ?? '{}') as Record<string, unknown>;
  const app = Fastify({ logger: false });
  const unauthorized = { error: 'Unauthorized', message: 'The x-service-api-key header is missing.' };
  app.get('/health', async () => ({ status: 'ok' }));
  app.get<{ Params: { id: string } }>('/payments/v1/payment_session/:id', async (request, reply) => {
    if (!request.headers['x-service-api-key']) return reply.code(401).send(unauthorized);
    return { ...session, id: request.params.id };
  });
  app.post('/payments/v1/create_payment_session', async (request, reply) => {
    if (!request.headers['x-service-api-key']) return reply.code(401).send(unauthorized);
    const id = randomUUID();
    return { id, redirect_url: `http://${request.host}/checkout/${id}` };
  });
  await app.listen({ host: '127.0.0.1', port: Number(process.env.BENCH_BARE_PORT) });
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

/** Runs every case against the sandbox and both anchors; BENCH_SECONDS sets each run's length. */
export async function benchSandbox({ seconds = Number(process.env.BENCH_SECONDS ?? 10) } = {}): Promise<SandboxBenchResult> {
  if (!(seconds > 0)) throw new Error(`BENCH_SECONDS must be a positive number of seconds, not ${process.env.BENCH_SECONDS}`);
  const warmup = Math.min(1, seconds);
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-bench-'));
  const stops: Array<() => Promise<void>> = [];
  try {
    const [sandboxStart, prismStart] = await Promise.allSettled([startSandboxProcess({ db: path.join(dir, 'sandbox.db') }), startPrism()]);
    for (const started of [sandboxStart, prismStart]) if (started.status === 'fulfilled') stops.push(started.value.stop);
    if (sandboxStart.status === 'rejected') throw sandboxStart.reason;
    if (prismStart.status === 'rejected') throw prismStart.reason;
    const [sandbox, prism] = [sandboxStart.value, prismStart.value];

    // The session the retrieve case reads; its detail is also what the bare anchor answers.
    const headers = { 'x-service-api-key': SANDBOX_API_KEY, 'content-type': 'application/json' };
    const created = await fetch(`${sandbox.baseUrl}/payments/v1/create_payment_session`, { method: 'POST', headers, body: JSON.stringify(createBody('bench-retrieve')) });
    const { id } = (await created.json()) as { id: string };
    const detail = await (await fetch(`${sandbox.baseUrl}/payments/v1/payment_session/${id}`, { headers })).json();
    if (created.status !== 200 || (detail as { id?: string }).id !== id) throw new Error(`Could not set up the retrieve case: ${JSON.stringify(detail)}`);

    const bare = await startBareFastify(detail);
    stops.push(bare.stop);

    const targets: Array<[BenchTarget, string]> = [['sandbox', sandbox.baseUrl], ['prism', prism.baseUrl], ['bare fastify', bare.baseUrl]];
    const runs: BenchRun[] = [];
    for (const benchCase of ['retrieve', 'create'] as const) {
      for (const [target, baseUrl] of targets) {
        await measure(baseUrl, benchCase, id, warmup);
        const result = await measure(baseUrl, benchCase, id, seconds);
        runs.push({
          case: benchCase,
          target,
          requestsPerSecond: result.requests.average,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          failures: result.non2xx + result.errors + result.timeouts,
        });
      }
    }

    const ratios: BenchRatio[] = [];
    for (const benchCase of ['retrieve', 'create'] as const) {
      const sandboxRun = runs.find((r) => r.case === benchCase && r.target === 'sandbox')!;
      for (const anchor of ['prism', 'bare fastify'] as const) {
        const anchorRun = runs.find((r) => r.case === benchCase && r.target === anchor)!;
        ratios.push({
          case: benchCase,
          anchor,
          throughput: sandboxRun.requestsPerSecond / anchorRun.requestsPerSecond,
          p99: sandboxRun.p99Ms / anchorRun.p99Ms,
        });
      }
    }
    return { seconds, connections: CONNECTIONS, runs, ratios };
  } finally {
    for (const stop of stops.reverse()) await stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The result as the table `npm run bench` prints. */
export function sandboxTable(result: SandboxBenchResult): string {
  const lines = [
    `  ${'case'.padEnd(9)}${'target'.padEnd(14)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'failed'.padStart(8)}`,
  ];
  for (const run of result.runs) {
    lines.push(
      `  ${run.case.padEnd(9)}${run.target.padEnd(14)}${run.requestsPerSecond.toFixed(0).padStart(9)}${run.p50Ms.toFixed(0).padStart(9)}${run.p99Ms.toFixed(0).padStart(9)}${String(run.failures).padStart(8)}`,
    );
  }
  lines.push('  Ratios (sandbox ÷ anchor; req/s above 1 and p99 below 1 favour the sandbox; latencies have 1 ms resolution):');
  for (const ratio of result.ratios) {
    lines.push(`  ${ratio.case.padEnd(9)}${`sandbox/${ratio.anchor}`.padEnd(22)}${ratio.throughput.toFixed(2).padStart(6)}x req/s ${ratio.p99.toFixed(2).padStart(7)}x p99`);
  }
  return lines.join('\n');
}

if (process.argv.includes(SERVE_BARE_FLAG) && process.argv[1] !== undefined && path.resolve(process.argv[1]) === import.meta.filename) {
  await serveBareFastify();
}
