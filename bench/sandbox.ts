// Sandbox benchmark: throughput and latency of the sandbox (a child process on a SQLite file,
// compiled, as `npm start` runs it) under autocannon, against two anchors measured in the same run:
//   - the Prism mock of the same contract (-v error), the stateless alternative users have;
//   - a bare fastify server answering the same JSON on the same routes: the floor of the stack,
//     so that sandbox/bare shows what validation, SQLite and the handlers cost.
// Three cases: retrieve (GET one session), create (POST create_payment_session with 3 items, a
// new idempotency_key per request, so every request creates a session) and list (page_size 30).
// Each case runs a second time on a sandbox with its line per request on, as `npm start` runs it
// (its own file, so that each sandbox reads and writes only its own sessions), writing its lines to
// a file, as to a terminal: another process's work, not the load generator's.
// Each case runs BENCH_ROUNDS rounds (3), every target once per round, the order alternated
// (rounds.ts): a ratio is read within a round, and reported as the median of the rounds.
// The same cases run on PostgreSQL (postgres-sandboxes.ts): one sandbox on a database, and two
// sandboxes on one database with the load split between them.
// The sandbox's resident memory is read after each case.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../testkit/processes.js';
import { startPrism } from '../testkit/prism.js';
import { SANDBOX_API_KEY, startSandboxProcess } from '../testkit/sandbox-process.js';
import { CONNECTIONS, load, loadSpread, rssMiB, type AutocannonRequest, type LoadResult } from './load.js';
import { ONE_ON_POSTGRES, startPostgresSandboxes, TWO_ON_POSTGRES } from './postgres-sandboxes.js';
import { roundOrder, roundsOf } from './rounds.js';

const SERVE_BARE_FLAG = '--serve-bare-fastify';

export const BENCH_CASES = ['retrieve', 'create', 'list'] as const;
export type BenchCase = (typeof BENCH_CASES)[number];
export type BenchTarget =
  | 'sandbox'
  | 'sandbox, request log on'
  | 'prism'
  | 'bare fastify'
  | typeof ONE_ON_POSTGRES
  | typeof TWO_ON_POSTGRES;

export interface BenchRun extends LoadResult {
  case: BenchCase;
  target: BenchTarget;
  /** The round it ran in, from 0: its ratio is read against its anchor's run of the same round. */
  round: number;
}

export interface SandboxBenchResult {
  seconds: number;
  connections: number;
  rounds: number;
  runs: BenchRun[];
  /** The sandbox's resident memory (MiB) after start, and after each case's last round. */
  memory: Array<{ after: string; rssMiB: number }>;
  /** The same loads again, briefly: memory is flat when the second round leaves it where the first did. */
  memoryAgain: Array<{ after: string; rssMiB: number }>;
}

const noCharges = { total_additional_charges: 0, total_discounts: 0 };
/** A realistic checkout: three items, shipping, a discount, an email. */
export const createBody = (idempotencyKey: string) => ({
  kind: 'authorization',
  total_amount: 7799,
  amount_details: { total_additional_charges: 800, total_discounts: 0 },
  success_url: 'https://shop.example/orders/{{payment_session_id}}/thanks',
  failure_url: 'https://shop.example/orders/{{payment_session_id}}/failed',
  customer_email: 'jane.doe@example.com',
  customer_name: 'Jane Doe',
  metadata: '{"order_id":"A-1001"}',
  idempotency_key: idempotencyKey,
  order_items: [
    {
      name: 'Blood pressure monitor',
      sku: 'BPM-200',
      quantity: 1,
      price: 4999,
      amount_details: { total_additional_charges: 0, total_discounts: -500 },
    },
    { name: 'Thermometer', sku: 'TH-10', quantity: 2, price: 1250, amount_details: noCharges },
    { name: 'First aid kit', sku: 'FAK-50', quantity: 1, price: 0, amount_details: noCharges },
  ],
});

const LIST_PATH = '/payments/v1/payment_sessions?page_size=30';
const HEADERS = { 'x-service-api-key': SANDBOX_API_KEY, 'content-type': 'application/json' };

const createOn = (baseUrl: string, key: string) =>
  fetch(`${baseUrl}/payments/v1/create_payment_session`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(createBody(key)),
  });

/** A first page of 30 sessions for the list case, then the session the retrieve case reads: its id. */
async function prepareSessions(baseUrl: string): Promise<string> {
  for (let n = 0; n < 30; n++) await createOn(baseUrl, `bench-page-${n}`);
  const { id } = (await (await createOn(baseUrl, 'bench-retrieve')).json()) as { id: string };
  return id;
}

function requestsOf(benchCase: BenchCase, sessionId: string): AutocannonRequest[] {
  const key = { 'x-service-api-key': SANDBOX_API_KEY };
  if (benchCase === 'retrieve')
    return [{ method: 'GET', path: `/payments/v1/payment_session/${sessionId}`, headers: key }];
  if (benchCase === 'list') return [{ method: 'GET', path: LIST_PATH, headers: key }];
  const run = randomUUID().slice(0, 8);
  let n = 0;
  return [
    {
      method: 'POST',
      path: '/payments/v1/create_payment_session',
      headers: { ...key, 'content-type': 'application/json' },
      // A new key per request: each one creates a session instead of replaying the first.
      setupRequest: (request) => ({ ...request, body: JSON.stringify(createBody(`bench-${run}-${n++}`)) }),
    },
  ];
}

/** The bare fastify anchor, in its own process like the others (this file, run with SERVE_BARE_FLAG). */
export async function startBareFastify(
  session: unknown,
  list: unknown,
): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, SERVE_BARE_FLAG], {
    cwd: path.resolve(import.meta.dirname, '..'),
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      BENCH_BARE_PORT: String(port),
      BENCH_BARE_SESSION: JSON.stringify(session),
      BENCH_BARE_LIST: JSON.stringify(list),
    },
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
  const list = JSON.parse(process.env.BENCH_BARE_LIST ?? '{}') as Record<string, unknown>;
  const app = Fastify({ logger: false });
  const unauthorized = { error: 'Unauthorized', message: 'The x-service-api-key header is missing.' };
  app.get('/health', async () => ({ status: 'ok' }));
  app.get<{ Params: { id: string } }>('/payments/v1/payment_session/:id', async (request, reply) => {
    if (!request.headers['x-service-api-key']) return reply.code(401).send(unauthorized);
    return { ...session, id: request.params.id };
  });
  app.get('/payments/v1/payment_sessions', async (request, reply) => {
    if (!request.headers['x-service-api-key']) return reply.code(401).send(unauthorized);
    return list;
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
export async function benchSandbox({
  seconds = Number(process.env.BENCH_SECONDS ?? 5),
  rounds = roundsOf(process.env.BENCH_ROUNDS),
} = {}): Promise<SandboxBenchResult> {
  if (!(seconds > 0))
    throw new Error(`BENCH_SECONDS must be a positive number of seconds, not ${process.env.BENCH_SECONDS}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-bench-'));
  const stops: Array<() => Promise<void>> = [];
  try {
    const [sandboxStart, loggedStart, prismStart, postgresStart] = await Promise.allSettled([
      startSandboxProcess({ db: path.join(dir, 'sandbox.db'), compiled: true }),
      startSandboxProcess({
        db: path.join(dir, 'logged.db'),
        compiled: true,
        quiet: false,
        stdoutFile: path.join(dir, 'logged.out'),
      }),
      startPrism(),
      startPostgresSandboxes(),
    ]);
    for (const started of [sandboxStart, loggedStart, prismStart, postgresStart])
      if (started.status === 'fulfilled') stops.push(started.value.stop);
    if (sandboxStart.status === 'rejected') throw sandboxStart.reason;
    if (loggedStart.status === 'rejected') throw loggedStart.reason;
    if (prismStart.status === 'rejected') throw prismStart.reason;
    if (postgresStart.status === 'rejected') throw postgresStart.reason;
    const [sandbox, logged, prism, postgres] = [
      sandboxStart.value,
      loggedStart.value,
      prismStart.value,
      postgresStart.value,
    ];
    const memory = [{ after: 'start', rssMiB: rssMiB(sandbox.pid) }];

    // The session the retrieve case reads, and a first page of 30: what the bare anchor answers.
    const id = await prepareSessions(sandbox.baseUrl);
    // The logged sandbox's page and session: the same requests, so the same answers but their ids.
    const loggedId = await prepareSessions(logged.baseUrl);
    // Each PostgreSQL database its own page and session, made through its first sandbox: the
    // second reads them as its own (several sandboxes on one database act as one).
    const onePostgresId = await prepareSessions(postgres.one[0]!);
    const twoPostgresId = await prepareSessions(postgres.two[0]!);
    const detail = await (
      await fetch(`${sandbox.baseUrl}/payments/v1/payment_session/${id}`, { headers: HEADERS })
    ).json();
    const page = await (await fetch(`${sandbox.baseUrl}${LIST_PATH}`, { headers: HEADERS })).json();
    if ((detail as { id?: string }).id !== id)
      throw new Error(`Could not set up the retrieve case: ${JSON.stringify(detail)}`);

    const bare = await startBareFastify(detail, page);
    stops.push(bare.stop);

    // Each target's servers: the load is spread over them (the two sandboxes on PostgreSQL).
    const targets: Array<[BenchTarget, string[], string]> = [
      ['sandbox', [sandbox.baseUrl], id],
      ['sandbox, request log on', [logged.baseUrl], loggedId],
      ['prism', [prism.baseUrl], id],
      ['bare fastify', [bare.baseUrl], id],
      [ONE_ON_POSTGRES, postgres.one, onePostgresId],
      [TWO_ON_POSTGRES, postgres.two, twoPostgresId],
    ];
    const runs: BenchRun[] = [];
    for (const benchCase of BENCH_CASES) {
      for (let round = 0; round < rounds; round++) {
        for (const [target, baseUrls, sessionId] of roundOrder(targets, round)) {
          // Each server its own requests: a create's keys are new on each.
          const servers = baseUrls.map((url) => ({ url, requests: requestsOf(benchCase, sessionId) }));
          runs.push({ case: benchCase, target, round, ...(await loadSpread(servers, seconds)) });
        }
      }
      memory.push({ after: benchCase, rssMiB: rssMiB(sandbox.pid) });
    }
    const memoryAgain: SandboxBenchResult['memoryAgain'] = [];
    for (const benchCase of BENCH_CASES) {
      await load(sandbox.baseUrl, requestsOf(benchCase, id), Math.min(2, seconds));
      memoryAgain.push({ after: benchCase, rssMiB: rssMiB(sandbox.pid) });
    }
    return { seconds, connections: CONNECTIONS, rounds, runs, memory, memoryAgain };
  } finally {
    for (const stop of stops.reverse()) await stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (
  process.argv.includes(SERVE_BARE_FLAG) &&
  process.argv[1] !== undefined &&
  path.resolve(process.argv[1]) === import.meta.filename
) {
  await serveBareFastify();
}
