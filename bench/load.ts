// autocannon, typed for the part the benches use, and the resident memory of a process.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// autocannon ships no types, and the project adds no @types package for it: the part used here.
export interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (
  options: Record<string, unknown>,
) => Promise<AutocannonResult>;

export const CONNECTIONS = 50;

export interface LoadResult {
  requestsPerSecond: number;
  /** autocannon's latencies, in whole milliseconds. */
  p50Ms: number;
  p99Ms: number;
  /** Answers that were not 2xx, plus connection errors and timeouts: 0 in a meaningful run. */
  failures: number;
}

/** A warm-up second, then `seconds` of load at 50 connections. */
export async function load(url: string, requests: AutocannonRequest[], seconds: number): Promise<LoadResult> {
  await autocannon({ url, connections: CONNECTIONS, duration: Math.min(1, seconds), requests });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, requests });
  return {
    requestsPerSecond: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    failures: r.non2xx + r.errors + r.timeouts,
  };
}

/** A process's resident memory, MiB (Linux). */
export const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
