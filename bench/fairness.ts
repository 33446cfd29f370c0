// Channels that do not disturb each other, measured on both backends: channel `other` stores 300
// sessions with 240 KiB of metadata each, then reads pages of 2 to 4 of them with their metadata
// (under the 1 MiB bound of an answer), 40 at a time; meanwhile a second process asks GET /health,
// and a third retrieves channel `dev`'s own session. Each figure is taken alone first (the anchor),
// then under the load. Then the same for writes: `other` creates 40 at a time while `dev` creates
// one at a time. The targets (issue "channels that do not disturb each other"): /health's p99 at
// most 50 ms, dev's p99 at most the larger of 50 ms and twice its value alone.
// `npm run bench:fairness` (SANDBOX_TEST_POSTGRES_URL names a server, else an embedded one starts).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { newSession } from '../src/sandbox/domain/create-session.js';
import type { CreateSessionRequest } from '../src/sandbox/domain/types.js';
import { createStore, openDatabase } from '../src/sandbox/store/index.js';
import { createPostgresStore } from '../src/sandbox/store/postgres/index.js';
import { sqliteBackend } from '../src/sandbox/store/sqlite-backend.js';
import type { SandboxStore } from '../src/sandbox/store/store.js';
import { repoRoot } from '../testkit/contract.js';
import { freshDatabase, startTestPostgres } from '../testkit/postgres.js';
import { startSandboxProcess } from '../testkit/sandbox-process.js';
import { sessionRequest } from '../testkit/sandbox.js';
import { load } from './load.js';

const HEAVY_SESSIONS = 300;
const METADATA_KIB = 240;
const HEAVY_CONNECTIONS = 40;
const SECONDS = 5;
const DEV_KEY = 'sandbox-dev-key';
const OTHER_KEY = 'sandbox-other-key';
const DEV_SESSION = '00000000-0000-4000-8000-00000000de00';
const noCharges = { total_additional_charges: 0, total_discounts: 0 };

export interface Latencies {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  requests: number;
}

export interface FairnessFigures {
  backend: string;
  health: { alone: Latencies; underReads: Latencies; underWrites: Latencies };
  devRetrieve: { alone: Latencies; underReads: Latencies };
  devCreate: { alone: Latencies; underWrites: Latencies };
  heavyReadsPerSecond: number;
  otherCreatesPerSecond: number;
}

/** `other`'s heavy sessions and `dev`'s one, written straight into the store. */
async function seed(store: SandboxStore): Promise<void> {
  const start = Date.parse('2026-01-01T00:00:00Z');
  await store.transaction(async () => {
    for (let n = 0; n < HEAVY_SESSIONS; n++) {
      const request: CreateSessionRequest = {
        total_amount: 4999,
        amount_details: noCharges,
        kind: 'authorization',
        success_url: 'https://shop.example/ok/{{payment_session_id}}',
        failure_url: 'https://shop.example/ko/{{payment_session_id}}',
        idempotency_key: `heavy-${n}`,
        metadata: String(n % 10).repeat(METADATA_KIB * 1024),
        order_items: [{ name: 'Monitor', sku: 'BPM-200', quantity: 1, price: 4999, amount_details: noCharges }],
      };
      const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      const now = new Date(start + n * 1000).toISOString();
      await store.sessions.insert(newSession({ id, channel: 'other', request, now, newId: () => `item${n}` }));
    }
    const request = { ...sessionRequest(), kind: 'authorization', idempotency_key: 'dev-own' } as CreateSessionRequest;
    await store.sessions.insert(
      newSession({
        id: DEV_SESSION,
        channel: 'dev',
        request,
        now: new Date(start).toISOString(),
        newId: () => 'dev-item',
      }),
    );
  });
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const round1 = (ms: number) => Math.round(ms * 10) / 10;

/** A second process asking `url` one request after another (bench/health-poller.ts) until stopped. */
function poller(url: string, key?: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join('bench', 'health-poller.ts'), url, ...(key ? [key] : [])],
    { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async stop(): Promise<Latencies> {
      child.stdin.end();
      await exited;
      const { latencies, failures } = JSON.parse(output) as { latencies: number[]; failures: string[] };
      if (failures.length > 0)
        throw new Error(`${url}: ${failures.length} failures, ${failures.slice(0, 3).join(', ')}`);
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        p50Ms: round1(quantile(sorted, 0.5)),
        p99Ms: round1(quantile(sorted, 0.99)),
        maxMs: round1(sorted.at(-1) ?? 0),
        requests: sorted.length,
      };
    },
  };
}

/** `dev` creating one session at a time, each timed, until stopped. */
function devCreator(baseUrl: string) {
  const latencies: number[] = [];
  let stopping = false;
  const run = (async () => {
    for (let n = 0; !stopping; n++) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/payments/v1/create_payment_session`, {
        method: 'POST',
        headers: { 'x-service-api-key': DEV_KEY, 'content-type': 'application/json' },
        body: JSON.stringify(sessionRequest({ idempotency_key: `dev-create-${Date.now()}-${n}` })),
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`dev's create answered ${response.status}`);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    async stop(): Promise<Latencies> {
      stopping = true;
      await run;
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        p50Ms: round1(quantile(sorted, 0.5)),
        p99Ms: round1(quantile(sorted, 0.99)),
        maxMs: round1(sorted.at(-1) ?? 0),
        requests: sorted.length,
      };
    },
  };
}

const pause = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

async function measure(backend: string, db: string): Promise<FairnessFigures> {
  const sandbox = await startSandboxProcess({ db, compiled: true, timeoutMs: 60_000 });
  try {
    const health = `${sandbox.baseUrl}/health`;
    const retrieve = `${sandbox.baseUrl}/payments/v1/payment_session/${DEV_SESSION}`;
    // Alone: the anchors.
    let healthPoll = poller(health);
    let devPoll = poller(retrieve, DEV_KEY);
    await pause(SECONDS);
    const healthAlone = await healthPoll.stop();
    const devAlone = await devPoll.stop();
    let creator = devCreator(sandbox.baseUrl);
    await pause(SECONDS);
    const createAlone = await creator.stop();
    // Heavy reads by `other`, 40 at a time.
    healthPoll = poller(health);
    devPoll = poller(retrieve, DEV_KEY);
    const reads = await load(
      sandbox.baseUrl,
      [
        {
          method: 'GET',
          headers: { 'x-service-api-key': OTHER_KEY },
          // A page of 2 to 4 anywhere in the channel: most are read, not answered from memory.
          setupRequest: (request) => {
            const size = 2 + Math.floor(Math.random() * 3);
            const page = 1 + Math.floor(Math.random() * Math.floor(HEAVY_SESSIONS / size));
            return {
              ...request,
              path: `/payments/v1/payment_sessions?page_size=${size}&page=${page}&include_metadata=true`,
            };
          },
        },
      ],
      SECONDS,
      HEAVY_CONNECTIONS,
    );
    const healthUnderReads = await healthPoll.stop();
    const devUnderReads = await devPoll.stop();
    // Creates by `other`, 40 at a time, while `dev` creates one at a time.
    healthPoll = poller(health);
    creator = devCreator(sandbox.baseUrl);
    let n = 0;
    const writes = await load(
      sandbox.baseUrl,
      [
        {
          method: 'POST',
          path: '/payments/v1/create_payment_session',
          headers: { 'x-service-api-key': OTHER_KEY, 'content-type': 'application/json' },
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify(sessionRequest({ idempotency_key: `other-${Date.now()}-${n++}` })),
          }),
        },
      ],
      SECONDS,
      HEAVY_CONNECTIONS,
    );
    const healthUnderWrites = await healthPoll.stop();
    const createUnderWrites = await creator.stop();
    return {
      backend,
      health: { alone: healthAlone, underReads: healthUnderReads, underWrites: healthUnderWrites },
      devRetrieve: { alone: devAlone, underReads: devUnderReads },
      devCreate: { alone: createAlone, underWrites: createUnderWrites },
      heavyReadsPerSecond: Math.round(reads.requestsPerSecond),
      otherCreatesPerSecond: Math.round(writes.requestsPerSecond),
    };
  } finally {
    await sandbox.stop();
  }
}

export async function benchFairness(): Promise<FairnessFigures[]> {
  const figures: FairnessFigures[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-fairness-'));
  try {
    const file = path.join(dir, 'fairness.db');
    const sqlite = openDatabase(file);
    await seed(sqliteBackend(createStore(sqlite)));
    sqlite.close();
    figures.push(await measure('SQLite', file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const server = await startTestPostgres();
  try {
    const url = await freshDatabase(server.url, 'sandbox_fairness');
    const store = await createPostgresStore(url);
    await seed(store);
    await store.close();
    figures.push(await measure('PostgreSQL', url));
  } finally {
    await server.stop();
  }
  return figures;
}

const line = (what: string, l: Latencies) =>
  `${what.padEnd(34)} p50 ${String(l.p50Ms).padStart(6)} ms  p99 ${String(l.p99Ms).padStart(6)} ms  max ${String(l.maxMs).padStart(6)} ms  (${l.requests})`;

if (import.meta.url === `file://${process.argv[1]}`) {
  // The sandbox runs compiled, as npm start runs it: compiled now if its code changed.
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'compile-cli.mjs')], { stdio: 'inherit' });
  console.log(`Machine: ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)} at the start.`);
  for (const f of await benchFairness()) {
    console.log(
      `\n${f.backend}: other reads ${f.heavyReadsPerSecond} heavy pages/s, creates ${f.otherCreatesPerSecond}/s`,
    );
    console.log(line('/health alone', f.health.alone));
    console.log(line('/health, other reading', f.health.underReads));
    console.log(line('/health, other creating', f.health.underWrites));
    console.log(line("dev's retrieve alone", f.devRetrieve.alone));
    console.log(line("dev's retrieve, other reading", f.devRetrieve.underReads));
    console.log(line("dev's create alone", f.devCreate.alone));
    console.log(line("dev's create, other creating", f.devCreate.underWrites));
  }
}
