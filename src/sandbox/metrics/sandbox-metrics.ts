// What an operator watches of a sandbox, in Prometheus' terms (prom-client): requests by route and
// status, their latency, webhook attempts by outcome, the outbox's depth, the connection pool's
// use, requests refused by the rate limit per channel, and the process's own (event loop lag, memory,
// CPU). Each sandbox has its own registry and counts its own requests; Prometheus scrapes each and
// sums them. The depth and the pool are read as a scrape asks, never on a request's path.
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { RecordedOutcome } from '../delivery/record.js';
import type { SandboxStore } from '../store/store.js';
import { type CountedSeries, type ObservedSeries, plainCounter, plainHistogram } from './request-series.js';

/** Latency buckets, in seconds: the sandbox answers most requests in milliseconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Records one answered request of a route: its method, status and time. */
export type RouteRecorder = (method: string, status: number, seconds: number) => void;

/** The method a request is counted by when its route does not serve it (a 405, a 404). */
export const OTHER_METHOD = 'other';

export interface SandboxMetrics {
  registry: Registry;
  /**
   * The recorder of a route's answered requests, by its template (not the URL) and the methods it
   * serves: any other method is counted as OTHER_METHOD. Node parses some thirty methods
   * (PROPFIND, MKCALENDAR…), and anyone, with no key, could otherwise add a series per method.
   * Made once per route, as the route is added: a request then costs no label lookup.
   */
  route(route: string, served: readonly string[]): RouteRecorder;
  attempt(outcome: RecordedOutcome | 'dropped'): void;
  rateLimited(channel: string): void;
}

export function sandboxMetrics(store: SandboxStore): SandboxMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'sandbox_' });
  const requests = plainCounter({
    name: 'sandbox_http_requests_total',
    help: 'Requests answered, by route template, method and status.',
    labelNames: ['route', 'method', 'status'],
    registry,
  });
  const latency = plainHistogram({
    name: 'sandbox_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by route template and method.',
    labelNames: ['route', 'method'],
    buckets: LATENCY_BUCKETS,
    registry,
  });
  const attempts = new Counter({
    name: 'sandbox_webhook_attempts_total',
    help:
      'Webhook delivery attempts recorded by this sandbox, by what they did: delivered, retry (due again), failed ' +
      '(for good), or dropped (reported after another claim took the delivery).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const limited = new Counter({
    name: 'sandbox_rate_limited_requests_total',
    help: 'Requests refused 429 by the rate limit, by channel.',
    labelNames: ['channel'] as const,
    registers: [registry],
  });
  // Before the outbox's depth: a scrape collects every gauge at once, and the pool read after the
  // depth's query had asked for a connection would count that query as waiting.
  new Gauge({
    name: 'sandbox_db_pool_connections',
    help: "The PostgreSQL pool's connections: open, idle, and requests waiting for one (none on SQLite).",
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const use = store.poolUse();
      if (!use) return;
      this.set({ state: 'open' }, use.open);
      this.set({ state: 'idle' }, use.idle);
      this.set({ state: 'waiting' }, use.waiting);
    },
  });
  new Gauge({
    name: 'sandbox_outbox_pending_deliveries',
    help: 'Webhook deliveries not yet delivered nor failed, of every channel and endpoint (read at each scrape).',
    registers: [registry],
    async collect() {
      this.set(await store.deliveries.pendingCount());
    },
  });
  return {
    registry,
    route(route, served) {
      // Each method's series, made at its first request: the counter's by status, and the histogram's.
      const series = new Map<string, { byStatus: Map<number, CountedSeries>; latency: ObservedSeries }>();
      const seriesOf = (method: string) => {
        let found = series.get(method);
        if (found === undefined) {
          found = { byStatus: new Map(), latency: latency.series({ route, method }) };
          series.set(method, found);
        }
        return found;
      };
      return (requestMethod, status, seconds) => {
        const method = served.includes(requestMethod) ? requestMethod : OTHER_METHOD;
        const { byStatus, latency: observed } = seriesOf(method);
        let counted = byStatus.get(status);
        if (counted === undefined) {
          counted = requests.series({ route, method, status });
          byStatus.set(status, counted);
        }
        counted.pending += 1;
        observed.observe(seconds);
      };
    },
    attempt: (outcome) => attempts.inc({ outcome }),
    rateLimited: (channel) => limited.inc({ channel }),
  };
}
