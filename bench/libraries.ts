// What each library the hosting issue names costs a request (CONTRIBUTING.md says why each is used
// or not): a bare fastify answering a small JSON on one route, then the same with one thing added
// at a time, each in its own process under autocannon, three rounds alternated; the cost is the
// time per request above the bare server's (one thread: 1/throughput), at the median round.
//   - the sandbox's rate limiter (keys/rate-limiter.ts, a limit it never reaches: spent from memory);
//   - @fastify/rate-limit, in memory (its default store), a limit it never reaches;
//   - the sandbox's metrics (prom-client: a counter and a histogram per request);
//   - fastify-metrics (prom-client through its plugin, route metrics on);
//   - @fastify/under-pressure (its event loop and heap sampling, no limit reached).
// `npm run bench:libraries`; BENCH_SECONDS sets each run's length (3 by default).
import { type ChildProcess, spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { freePort } from '../testkit/processes.js';
import { load } from './load.js';

const VARIANTS = [
  'bare fastify',
  "the sandbox's rate limiter",
  '@fastify/rate-limit',
  "the sandbox's metrics",
  'fastify-metrics',
  '@fastify/under-pressure',
] as const;
type Variant = (typeof VARIANTS)[number];
const SERVE_FLAG = '--serve-library-variant';
const ROUNDS = 3;
const KEY = 'bench-key';

async function serve(variant: Variant, port: number): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  if (variant === "the sandbox's rate limiter") {
    const { openDatabase, createStore } = await import('../src/sandbox/store/index.js');
    const { sqliteBackend } = await import('../src/sandbox/store/sqlite-backend.js');
    const { RateLimiter } = await import('../src/sandbox/keys/rate-limiter.js');
    const { registerRateLimit } = await import('../src/sandbox/http/rate-limit.js');
    const store = sqliteBackend(createStore(openDatabase(':memory:')));
    // The auth hook's part, which the limiter's hook reads: the route takes a key.
    app.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), requiresKey: true };
    });
    registerRateLimit(app, new RateLimiter(store, { perSecond: 10_000_000, burst: 10_000_000 }));
  } else if (variant === '@fastify/rate-limit') {
    const { default: rateLimit } = await import('@fastify/rate-limit');
    await app.register(rateLimit, {
      max: 10_000_000,
      timeWindow: 1000,
      keyGenerator: (request) => String(request.headers['x-service-api-key']),
    });
  } else if (variant === "the sandbox's metrics") {
    const { openDatabase, createStore } = await import('../src/sandbox/store/index.js');
    const { sqliteBackend } = await import('../src/sandbox/store/sqlite-backend.js');
    const { sandboxMetrics } = await import('../src/sandbox/metrics/sandbox-metrics.js');
    const { registerMetrics } = await import('../src/sandbox/http/metrics-route.js');
    registerMetrics(app, sandboxMetrics(sqliteBackend(createStore(openDatabase(':memory:')))));
  } else if (variant === 'fastify-metrics') {
    // CommonJS, whose default export is the module's `default` property.
    const loaded = (await import('fastify-metrics')) as unknown as { default: { default?: unknown } };
    const metrics = (loaded.default.default ?? loaded.default) as import('fastify').FastifyPluginAsync<{
      endpoint: string;
    }>;
    await app.register(metrics, { endpoint: '/metrics' });
  } else if (variant === '@fastify/under-pressure') {
    const { default: underPressure } = await import('@fastify/under-pressure');
    await app.register(underPressure, { maxEventLoopDelay: 10_000, maxHeapUsedBytes: 8e9, maxRssBytes: 8e9 });
  }
  app.get('/payments/v1/payment_sessions', async () => ({ payment_sessions: [], has_more: false }));
  await app.listen({ host: '127.0.0.1', port });
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

async function start(variant: Variant): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, SERVE_FLAG, variant, String(port)],
    {
      cwd: path.resolve(import.meta.dirname, '..'),
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    try {
      if ((await fetch(`${url}/payments/v1/payment_sessions`, { headers: { 'x-service-api-key': KEY } })).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface LibraryCost {
  variant: Variant;
  requestsPerSecond: number;
  /** Microseconds per request above the bare server's, at the median round. */
  costMicroseconds: number;
  /** The rounds' spread of that cost. */
  spread: [number, number];
}

export async function benchLibraries(seconds = Number(process.env.BENCH_SECONDS ?? 3)): Promise<LibraryCost[]> {
  const rounds = new Map<Variant, number[]>(VARIANTS.map((variant) => [variant, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const variant of VARIANTS) {
      const server = await start(variant);
      try {
        const result = await load(
          server.url,
          [{ method: 'GET', path: '/payments/v1/payment_sessions', headers: { 'x-service-api-key': KEY } }],
          seconds,
        );
        if (result.failures > 0) throw new Error(`${variant}: ${result.failures} failures`);
        rounds.get(variant)!.push(result.requestsPerSecond);
      } finally {
        await server.stop();
      }
    }
  const bare = rounds.get('bare fastify')!;
  return VARIANTS.map((variant) => {
    const costs = rounds
      .get(variant)!
      .map((rps, i) => 1e6 / rps - 1e6 / bare[i]!)
      .sort((a, b) => a - b);
    const rps = [...rounds.get(variant)!].sort((a, b) => a - b);
    return {
      variant,
      requestsPerSecond: Math.round(rps[1]!),
      costMicroseconds: Math.round(costs[1]! * 10) / 10,
      spread: [Math.round(costs[0]! * 10) / 10, Math.round(costs[2]! * 10) / 10],
    };
  });
}

if (process.argv[2] === SERVE_FLAG) await serve(process.argv[3] as Variant, Number(process.argv[4]));
else if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Machine: ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)} at the start.`);
  for (const cost of await benchLibraries())
    console.log(
      `${cost.variant.padEnd(28)} ${String(cost.requestsPerSecond).padStart(7)} req/s  ` +
        `${String(cost.costMicroseconds).padStart(6)} µs per request above bare (rounds ${cost.spread[0]} to ${cost.spread[1]})`,
    );
}
