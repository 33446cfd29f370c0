// Large answers against the whole server: 400 sessions of channel dev with 240 KiB of metadata each
// (and 400 payment tokens with names, and 400 catalog items with metadata, as large), then the lists
// that would answer them all at once, while a second process asks GET /health:
//   - the big page: GET /payments/v1/payment_sessions?page_size=400&include_metadata=true;
//   - six such pages of different page_size values (each its own query, each its own kept answer);
//   - pages under the bound of an answer, each a different query (page_size 1 to 30, pages 1 and 2),
//     that fill the kept answers (store/answer-cache.ts) up to their bound in bytes;
//   - GET /api/v1/payment_tokens and /api/v1/product_catalog/items/list, page_size=400;
//   - the whole attack twice more: memory is flat when it ends where the first round did;
//   - then, apart from the attack, a page of 400 default items: a small answer, timed.
// It prints each request's status, size and time, /health's p50, p99 and max, and the sandbox's
// resident memory (and its peak) before and after each step.
// `npm run bench:answers`; PORT sets the sandbox's port (a free one by default).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { newCatalogItem } from '../src/sandbox/domain/catalog.js';
import { newSession } from '../src/sandbox/domain/create-session.js';
import type { CreateSessionRequest } from '../src/sandbox/domain/types.js';
import { createStore, openDatabase } from '../src/sandbox/store/index.js';
import { repoRoot } from '../testkit/contract.js';
import { SANDBOX_API_KEY, startSandboxProcess } from '../testkit/sandbox-process.js';
import { rssMiB } from './load.js';

export const LARGE_SESSIONS = 400;
export const METADATA_KIB = 240;
const BIG_PAGE = 'page_size=400&include_metadata=true';
const SIX_PAGE_SIZES = [350, 300, 250, 200, 150, 100];
const FILL_PAGE_SIZES = Array.from({ length: 30 }, (_, i) => i + 1);
const ROUNDS = 3;
/** The figures the sandbox states (openapi/sandbox.yaml, Limits); the bench reports them, never fails on them. */
export const HEALTH_P99_TARGET_MS = 50;
export const MEMORY_BOUND_MIB = 256;
/** Not part of the attack: default items of these sessions make a small answer, yet each row is read whole (see the table). */
const DEFAULT_PAGES = ['page_size=400', 'page_size=399'];
const OTHER_LISTS = ['/api/v1/payment_tokens?page_size=400', '/api/v1/product_catalog/items/list?page_size=400'];
const noCharges = { total_additional_charges: 0, total_discounts: 0 };

/**
 * Writes `count` sessions of channel dev, each with `kib` KiB of metadata, straight into a new
 * database file; as many payment tokens with a name of `kib` KiB, and catalog items with as much metadata.
 */
export function seedLargeMetadata(file: string, count = LARGE_SESSIONS, kib = METADATA_KIB): void {
  const db = openDatabase(file);
  const store = createStore(db);
  const start = Date.parse('2026-01-01T00:00:00Z');
  let item = 0;
  store.transaction(() => {
    for (let n = 0; n < count; n++) {
      const request: CreateSessionRequest = {
        total_amount: 4999,
        amount_details: noCharges,
        kind: 'authorization',
        success_url: 'https://shop.example/ok/{{payment_session_id}}',
        failure_url: 'https://shop.example/ko/{{payment_session_id}}',
        customer_email: `buyer${n}@example.com`,
        customer_name: `Buyer ${n}`,
        idempotency_key: `large-${n}`,
        metadata: String(n % 10).repeat(kib * 1024),
        order_items: [
          { name: 'Blood pressure monitor', sku: 'BPM-200', quantity: 1, price: 4999, amount_details: noCharges },
        ],
      };
      const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      const now = new Date(start + n * 1000).toISOString();
      store.sessions.insert(newSession({ id, channel: 'dev', request, now, newId: () => `item${item++}` }));
      // The other lists that show what a client wrote: a token's name, a catalog item's metadata.
      store.tokens.insert({
        token: `ptok_large${n}`,
        channel: 'dev',
        session_id: null,
        status: 'active',
        next_action: null,
        created_at: now,
        customer_email: `buyer${n}@example.com`,
        customer_name: String(n % 10).repeat(kib * 1024),
        customer_key: `buyer${n}@example.com`,
        card_brand: 'visa',
        card_last4: '4242',
        card_expires: '2030-01',
        lmn_expires_at: null,
        provision_request_id: null,
        metadata: null,
        success_url: null,
        failure_url: null,
      });
      store.catalog.insert(
        'dev',
        newCatalogItem({ sku: `LARGE-${n}`, metadata: String(n % 10).repeat(kib * 1024) }, `prod_large${n}`, now),
      );
    }
  });
  db.close();
}

export interface Latency {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  requests: number;
}

export interface AttackRequest {
  round: number;
  query: string;
  status: number;
  bytes: number;
  ms: number;
}

export interface LargeAnswersBench {
  sessions: number;
  metadataKiB: number;
  requests: AttackRequest[];
  /** GET /health from a second process, with nothing else asked (the anchor), and throughout the attack. */
  healthAlone: Latency & { failures: number };
  health: Latency & { failures: number };
  /** The machine's cores and its load average (1 min) at the end: a loaded machine delays every answer. */
  machine: { cpus: number; loadAverage: number };
  /** The sandbox's resident memory (MiB) after each step, and its peak (VmHWM) then. */
  memory: Array<{ after: string; rssMiB: number; peakMiB: number }>;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const round2 = (ms: number) => Math.round(ms * 100) / 100;
const peakMiB = (pid: number) =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Starts the second process that polls /health; `stop()` ends it and resolves with its latencies. */
function healthPoller(baseUrl: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join('bench', 'health-poller.ts'), `${baseUrl}/health`],
    {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async stop(): Promise<Latency & { failures: number }> {
      child.stdin.end();
      await exited;
      const { latencies, failures } = JSON.parse(output) as { latencies: number[]; failures: string[] };
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        p50Ms: round2(quantile(sorted, 0.5)),
        p99Ms: round2(quantile(sorted, 0.99)),
        maxMs: round2(sorted.at(-1) ?? 0),
        requests: sorted.length,
        failures: failures.length,
      };
    },
  };
}

export async function benchLargeAnswers({ port }: { port?: number } = {}): Promise<LargeAnswersBench> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-answers-bench-'));
  try {
    const file = path.join(dir, 'sessions.db');
    seedLargeMetadata(file);
    const sandbox = await startSandboxProcess({ db: file, compiled: true, ...(port !== undefined ? { port } : {}) });
    try {
      const memory: LargeAnswersBench['memory'] = [];
      const note = (after: string) =>
        memory.push({ after, rssMiB: Math.round(rssMiB(sandbox.pid)), peakMiB: Math.round(peakMiB(sandbox.pid)) });
      const headers = { 'x-service-api-key': SANDBOX_API_KEY };
      const requests: AttackRequest[] = [];
      const ask = async (round: number, query: string) => {
        const started = performance.now();
        const route = query.startsWith('/') ? query : `/payments/v1/payment_sessions?${query}`;
        const response = await fetch(`${sandbox.baseUrl}${route}`, { headers });
        const bytes = (await response.arrayBuffer()).byteLength;
        requests.push({ round, query, status: response.status, bytes, ms: round2(performance.now() - started) });
      };
      // Warm: the statements prepared, the first page read.
      await ask(0, 'page_size=1');
      note('start');
      // The anchor: the same checks with nothing else asked, on this machine at this moment.
      const idle = healthPoller(sandbox.baseUrl);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const healthAlone = await idle.stop();
      const poller = healthPoller(sandbox.baseUrl);
      await new Promise((resolve) => setTimeout(resolve, 500));
      for (let round = 1; round <= ROUNDS; round++) {
        await ask(round, BIG_PAGE);
        note(`round ${round}: the big page`);
        for (const size of SIX_PAGE_SIZES) await ask(round, `page_size=${size}&include_metadata=true`);
        note(`round ${round}: six page sizes`);
        for (const page of [1, 2])
          for (const size of FILL_PAGE_SIZES) await ask(round, `page_size=${size}&page=${page}&include_metadata=true`);
        note(`round ${round}: 60 pages under the bound`);
        for (const list of OTHER_LISTS) await ask(round, list);
        note(`round ${round}: tokens and catalog items`);
      }
      const health = await poller.stop();
      for (const query of DEFAULT_PAGES) await ask(0, query);
      return {
        sessions: LARGE_SESSIONS,
        metadataKiB: METADATA_KIB,
        requests,
        healthAlone,
        health,
        memory,
        machine: { cpus: cpus().length, loadAverage: loadavg()[0]! },
      };
    } finally {
      await sandbox.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function largeAnswersTable(result: LargeAnswersBench): string {
  const lines: string[] = [];
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);
  for (const r of result.requests.filter((r) => r.round === 1 && !r.query.includes('&page='))) {
    lines.push(
      `  ${r.query.padEnd(50)} ${String(r.status).padStart(4)} ${mib(r.bytes).padStart(8)} MiB ${r.ms.toFixed(0).padStart(7)} ms`,
    );
  }
  for (const r of result.requests.filter((r) => r.round === 0 && DEFAULT_PAGES.includes(r.query))) {
    lines.push(
      `  ${`${r.query} (default items, after the attack)`.padEnd(50)} ${String(r.status).padStart(4)} ${mib(r.bytes).padStart(8)} MiB ${r.ms.toFixed(0).padStart(7)} ms`,
    );
  }
  const fill = result.requests.filter((r) => r.query.includes('&page='));
  const statuses: Record<string, number> = {};
  for (const r of fill) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const slowest = Math.max(...fill.map((r) => r.ms));
  lines.push(
    `  60 pages under the bound, ${ROUNDS} times: statuses ${JSON.stringify(statuses)}, ${mib(fill.reduce((sum, r) => sum + r.bytes, 0))} MiB in all, slowest ${slowest.toFixed(0)} ms`,
  );
  const health = (h: LargeAnswersBench['health']) =>
    `p50 ${h.p50Ms} ms, p99 ${h.p99Ms} ms, max ${h.maxMs} ms (${h.requests} checks, ${h.failures} failed)`;
  lines.push(`  Machine: ${result.machine.cpus} cores, load average ${result.machine.loadAverage.toFixed(2)}`);
  lines.push(`  GET /health from a second process, alone:        ${health(result.healthAlone)}`);
  lines.push(`  GET /health from a second process, under attack: ${health(result.health)}`);
  for (const m of result.memory)
    lines.push(`  RSS after ${m.after.padEnd(36)} ${String(m.rssMiB).padStart(5)} MiB (peak ${m.peakMiB} MiB)`);
  const peak = Math.max(...result.memory.map((m) => m.peakMiB));
  lines.push(
    `  Target: /health p99 under ${HEALTH_P99_TARGET_MS} ms under attack: ${result.health.p99Ms} ms, ${result.health.p99Ms < HEALTH_P99_TARGET_MS ? 'met' : 'MISSED'}`,
  );
  lines.push(
    `  Bound: resident memory under ${MEMORY_BOUND_MIB} MiB (openapi/sandbox.yaml, Limits): peak ${peak} MiB, ${peak < MEMORY_BOUND_MIB ? 'held' : 'EXCEEDED'}`,
  );
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // @ts-expect-error: plain JavaScript, without types.
  const { compileIfStale } = await import('../scripts/prepare-start.mjs');
  compileIfStale({ quiet: true });
  const result = await benchLargeAnswers(process.env.PORT ? { port: Number(process.env.PORT) } : {});
  console.log(largeAnswersTable(result));
  if (process.env.BENCH_JSON) console.log(JSON.stringify(result, null, 2));
}
