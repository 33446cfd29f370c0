// The request metrics count in plain numbers and hand them to prom-client at a scrape
// (metrics/request-series.ts): what a scrape shows must be what prom-client's own counter and
// histogram would show for the same requests, scrape after scrape.
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { plainCounter, plainHistogram } from '../../src/sandbox/metrics/request-series.js';

const BUCKETS = [0.001, 0.005, 0.01, 0.1, 1];

/** A scrape's sample lines, each with its labels in one order: the text format does not order them. */
const samples = (text: string) =>
  text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [, name, labels = '', value] = /^([^{ ]+)(?:\{(.*)\})? (.+)$/.exec(line)!;
      return `${name}{${labels
        .split(/,(?=[a-z]+=)/)
        .filter(Boolean)
        .sort()
        .join(',')}} ${value}`;
    })
    .sort();

describe('the request series counted in plain numbers', () => {
  it("show what prom-client's histogram shows for the same observations: cumulative buckets, +Inf, sum and count", async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const options = { name: 'latency_seconds', help: 'Latency.', labelNames: ['route', 'method'] };
    const plain = plainHistogram({ ...options, buckets: BUCKETS, registry: ours });
    const reference = new Histogram({ ...options, buckets: BUCKETS, registers: [theirs] });
    const observations: Array<[string, string, number]> = [
      ['/a', 'GET', 0.0005],
      ['/a', 'GET', 0.001],
      ['/a', 'GET', 0.0051],
      ['/a', 'GET', 0.5],
      ['/a', 'GET', 12],
      ['/a', 'POST', 0.01],
      ['/b', 'GET', 1],
    ];
    const series = new Map<string, ReturnType<typeof plain.series>>();
    for (const [route, method, seconds] of observations) {
      const key = `${route} ${method}`;
      if (!series.has(key)) series.set(key, plain.series({ route, method }));
      series.get(key)!.observe(seconds);
      reference.observe({ route, method }, seconds);
    }
    plain.series({ route: '/never', method: 'GET' });
    const scraped = samples(await ours.metrics());
    expect(scraped).toEqual(samples(await theirs.metrics()));
    expect(scraped).toContain('latency_seconds_bucket{le="0.001",method="GET",route="/a"} 2');
    expect(scraped).toContain('latency_seconds_bucket{le="+Inf",method="GET",route="/a"} 5');
    expect(scraped.some((line) => line.includes('/never'))).toBe(false);
    // As JSON too (getMetricsAsJSON reads get()).
    const [json] = await ours.getMetricsAsJSON();
    expect(json).toMatchObject({ name: 'latency_seconds', type: 'histogram', aggregator: 'sum' });
    expect(json!.values).toHaveLength(3 * (BUCKETS.length + 3));
  });

  it('are emptied by a reset of the registry, as prom-client empties its own', async () => {
    const registry = new Registry();
    const plain = plainHistogram({
      name: 'latency_seconds',
      help: 'Latency.',
      labelNames: ['route'],
      buckets: BUCKETS,
      registry,
    });
    const series = plain.series({ route: '/a' });
    series.observe(0.002);
    registry.resetMetrics();
    expect(samples(await registry.metrics())).toEqual([]);
    series.observe(0.02);
    expect(samples(await registry.metrics())).toContain('latency_seconds_count{route="/a"} 1');
  });

  it("count as prom-client's counter does, the counts since each scrape added to the totals", async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const options = { name: 'requests_total', help: 'Requests.', labelNames: ['route', 'status'] };
    const plain = plainCounter({ ...options, registry: ours });
    const reference = new Counter({ ...options, registers: [theirs] });
    const ok = plain.series({ route: '/a', status: 200 });
    const missing = plain.series({ route: '/a', status: 404 });
    plain.series({ route: '/never', status: 200 });
    for (let n = 0; n < 3; n++) {
      ok.pending += 1;
      reference.inc({ route: '/a', status: 200 });
    }
    expect(samples(await ours.metrics())).toEqual(samples(await theirs.metrics()));
    ok.pending += 1;
    missing.pending += 2;
    reference.inc({ route: '/a', status: 200 });
    reference.inc({ route: '/a', status: 404 }, 2);
    const second = samples(await ours.metrics());
    expect(second).toEqual(samples(await theirs.metrics()));
    expect(second).toEqual(['requests_total{route="/a",status="200"} 4', 'requests_total{route="/a",status="404"} 2']);
    expect(samples(await ours.metrics())).toEqual(second);
  });
});
