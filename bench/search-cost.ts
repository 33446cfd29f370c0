// What a search costs the whole server: at 100,000 sessions in channel dev,
//   - the latency of a search in channel other, which holds no session (it must not pay for dev's
//     rows), beside the latency of GET /health as the anchor of what an answer costs at all;
//   - GET /health while 30 connections search dev (one event loop: a search that holds it delays
//     every other request), and the searches' own throughput and status codes.
// Run alone with `npx tsx bench/search-cost.ts`; `npm run bench` runs it too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createStore, openDatabase } from '../src/sandbox/store/index.js';
import { SANDBOX_API_KEY, startSandboxProcess } from '../testkit/sandbox-process.js';
import { seed } from './list-scale.js';

export const SEARCH_SESSIONS = 100_000;
export const SEARCH_CONNECTIONS = 30;
/**
 * Every seeded email holds example.com (the case: past the bound of matches, refused);
 * 1,000 hold 99@example (answered, every match counted); buyer99999 is one session's.
 */
export const SEARCHES = ['example.com', '99@example', 'buyer99999'] as const;
const OTHER_CHANNEL_KEY = 'sandbox-other-key';
const SEQUENTIAL_REQUESTS = 300;

export interface Latency {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface SearchUnderLoad {
  search: string;
  /** GET /health on one connection while the searches run. */
  health: Latency & { requests: number };
  searches: Latency & { requestsPerSecond: number; statuses: Record<string, number> };
}

export interface SearchCostBench {
  sessions: number;
  connections: number;
  /** A search in a channel without sessions, one request at a time. */
  emptyChannel: Latency & { search: string; statuses: Record<string, number> };
  /** GET /health alone, one request at a time: the cost of any answer. */
  healthAlone: Latency;
  underLoad: SearchUnderLoad[];
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const round = (ms: number) => Math.round(ms * 100) / 100;
function latencyOf(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50Ms: round(quantile(sorted, 0.5)), p99Ms: round(quantile(sorted, 0.99)), maxMs: round(sorted.at(-1)!) };
}

interface Timed {
  latencies: number[];
  statuses: Record<string, number>;
}

/** One request, timed from send to the end of its body. */
async function timed(url: string, headers: Record<string, string>, into: Timed): Promise<void> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  into.latencies.push(performance.now() - started);
  into.statuses[response.status] = (into.statuses[response.status] ?? 0) + 1;
}

/** `count` requests one after the other, after 20 that warm the connection and the statements. */
async function sequential(url: string, headers: Record<string, string>, count: number): Promise<Timed> {
  for (let i = 0; i < 20; i++) await timed(url, headers, { latencies: [], statuses: {} });
  const result: Timed = { latencies: [], statuses: {} };
  for (let i = 0; i < count; i++) await timed(url, headers, result);
  return result;
}

/** Requests one after the other until `until`; the one in flight then is awaited and counted, however late. */
async function loop(url: string, headers: Record<string, string>, until: number, into: Timed): Promise<void> {
  while (performance.now() < until) await timed(url, headers, into);
}

/**
 * 30 connections search for `seconds`, each sending its next search when the last is answered,
 * while one connection asks for /health. Timed here rather than by autocannon, which leaves out a
 * request still unanswered at the end of its run: a search that holds the server for seconds
 * would leave no figure at all.
 */
async function underLoad(baseUrl: string, search: string, seconds: number): Promise<SearchUnderLoad> {
  const searchUrl = `${baseUrl}/payments/v1/payment_sessions?search=${encodeURIComponent(search)}`;
  const headers = { 'x-service-api-key': SANDBOX_API_KEY };
  const searched: Timed = { latencies: [], statuses: {} };
  const health: Timed = { latencies: [], statuses: {} };
  const started = performance.now();
  const until = started + seconds * 1000;
  const searching = Array.from({ length: SEARCH_CONNECTIONS }, () => loop(searchUrl, headers, until, searched));
  // The health checks start once the searches hold their connections.
  await new Promise((resolve) => setTimeout(resolve, 250));
  await loop(`${baseUrl}/health`, {}, until, health);
  await Promise.all(searching);
  const elapsed = (performance.now() - started) / 1000;
  return {
    search,
    health: { ...latencyOf(health.latencies), requests: health.latencies.length },
    searches: {
      ...latencyOf(searched.latencies),
      requestsPerSecond: Math.round(searched.latencies.length / elapsed),
      statuses: searched.statuses,
    },
  };
}

export async function benchSearchCost({
  seconds = Number(process.env.BENCH_SECONDS ?? 5),
} = {}): Promise<SearchCostBench> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-search-bench-'));
  try {
    const file = path.join(dir, 'sessions.db');
    seed(file, SEARCH_SESSIONS);
    // Measured on a caught-up index, as a sandbox is a few seconds after its sessions are written.
    const db = openDatabase(file);
    createStore(db).sessions.indexPendingSearches();
    db.close();
    const sandbox = await startSandboxProcess({ db: file, compiled: true });
    try {
      const search = SEARCHES[0];
      const empty = await sequential(
        `${sandbox.baseUrl}/payments/v1/payment_sessions?search=${search}`,
        { 'x-service-api-key': OTHER_CHANNEL_KEY },
        SEQUENTIAL_REQUESTS,
      );
      const healthAlone = await sequential(`${sandbox.baseUrl}/health`, {}, SEQUENTIAL_REQUESTS);
      const loads: SearchUnderLoad[] = [];
      for (const needle of SEARCHES) loads.push(await underLoad(sandbox.baseUrl, needle, seconds));
      return {
        sessions: SEARCH_SESSIONS,
        connections: SEARCH_CONNECTIONS,
        emptyChannel: { search, ...latencyOf(empty.latencies), statuses: empty.statuses },
        healthAlone: latencyOf(healthAlone.latencies),
        underLoad: loads,
      };
    } finally {
      await sandbox.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // @ts-expect-error: plain JavaScript, without types.
  const { compileIfStale } = await import('../scripts/prepare-start.mjs');
  compileIfStale({ quiet: true });
  console.log(JSON.stringify(await benchSearchCost(), null, 2));
}
