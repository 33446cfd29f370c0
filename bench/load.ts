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
export async function load(
  url: string,
  requests: AutocannonRequest[],
  seconds: number,
  connections = CONNECTIONS,
): Promise<LoadResult> {
  return loadSpread([{ url, requests }], seconds, connections);
}

/**
 * One load spread over several servers at once (the sandboxes behind a load balancer): the 50
 * connections shared out between them, each server its own autocannon, all started together, a
 * warm-up second first. The requests per second are summed; p50 and p99 are the worst server's,
 * for a client behind the balancer meets the slowest one; failures are summed.
 */
export async function loadSpread(
  servers: Array<{ url: string; requests: AutocannonRequest[] }>,
  seconds: number,
  total = CONNECTIONS,
): Promise<LoadResult> {
  const connections = Math.max(1, Math.floor(total / servers.length));
  const round = (duration: number) =>
    Promise.all(servers.map(({ url, requests }) => autocannon({ url, connections, duration, requests })));
  await round(Math.min(1, seconds));
  const results = await round(seconds);
  return {
    requestsPerSecond: results.reduce((sum, r) => sum + r.requests.average, 0),
    p50Ms: Math.max(...results.map((r) => r.latency.p50)),
    p99Ms: Math.max(...results.map((r) => r.latency.p99)),
    failures: results.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
  };
}

/** A process's resident memory, MiB (Linux). */
export const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
