// The request metrics' series, counted in plain numbers on a request's path and handed to
// prom-client as a scrape reads them. prom-client hashes a series' labels at every count, even
// through a child bound to them (`labels(...).inc()` calls the parent with the labels again): a
// request cost about 2 µs in its counter and histogram, of a retrieve's 35.
import { Counter, Histogram, type Registry } from 'prom-client';

/** One series of the request counter: its labels, and what it counted since the last scrape. */
export interface CountedSeries {
  labels: Readonly<Record<string, string | number>>;
  pending: number;
}

/**
 * A counter whose series are counted by whoever holds them (`series.pending += 1`), and added to
 * prom-client's totals as a scrape collects it.
 */
export function plainCounter(options: {
  name: string;
  help: string;
  labelNames: readonly string[];
  registry: Registry;
}): { series(labels: CountedSeries['labels']): CountedSeries } {
  const all: CountedSeries[] = [];
  new Counter({
    name: options.name,
    help: options.help,
    labelNames: options.labelNames,
    registers: [options.registry],
    collect() {
      for (const series of all) {
        if (series.pending === 0) continue;
        this.inc(series.labels, series.pending);
        series.pending = 0;
      }
    },
  });
  return {
    series(labels) {
      const made = { labels, pending: 0 };
      all.push(made);
      return made;
    },
  };
}

/** One series of a histogram: its labels, each bucket's own count (not cumulative), the sum and count. */
export interface ObservedSeries {
  labels: Readonly<Record<string, string | number>>;
  observe(value: number): void;
}

/** A histogram whose series count in arrays, and export in prom-client's shape when a scrape reads them. */
class ArrayHistogram extends Histogram<string> {
  readonly #name: string;
  readonly #help: string;
  readonly #bounds: readonly number[];
  readonly #all: Array<{ labels: Record<string, string | number>; counts: number[]; sum: number; count: number }> = [];

  constructor(options: {
    name: string;
    help: string;
    labelNames: readonly string[];
    buckets: readonly number[];
    registry: Registry;
  }) {
    super({
      name: options.name,
      help: options.help,
      labelNames: options.labelNames,
      buckets: [...options.buckets],
      registers: [options.registry],
    });
    this.#name = options.name;
    this.#help = options.help;
    this.#bounds = [...options.buckets].sort((a, b) => a - b);
  }

  series(labels: Record<string, string | number>): ObservedSeries {
    const bounds = this.#bounds;
    const kept = { labels, counts: bounds.map(() => 0), sum: 0, count: 0 };
    this.#all.push(kept);
    return {
      labels,
      observe(value) {
        kept.sum += value;
        kept.count += 1;
        for (let i = 0; i < bounds.length; i++) {
          if (value <= bounds[i]!) {
            kept.counts[i]! += 1;
            return;
          }
        }
      },
    };
  }

  /** The series as prom-client exports a histogram's: cumulative buckets, +Inf, the sum and the count. */
  override async get(): ReturnType<Histogram<string>['get']> {
    const name = this.#name;
    const values: Awaited<ReturnType<Histogram<string>['get']>>['values'] = [];
    for (const { labels, counts, sum, count } of this.#all) {
      if (count === 0) continue;
      let below = 0;
      this.#bounds.forEach((le, i) => {
        below += counts[i]!;
        values.push({ labels: { ...labels, le }, value: below, metricName: `${name}_bucket` });
      });
      values.push(
        { labels: { ...labels, le: '+Inf' }, value: count, metricName: `${name}_bucket` },
        { labels, value: sum, metricName: `${name}_sum` },
        { labels, value: count, metricName: `${name}_count` },
      );
    }
    // prom-client's own `type` is the text of the exposition format; its typings name an enum it does not export.
    return { name, help: this.#help, type: 'histogram' as never, aggregator: 'sum', collect: () => {}, values };
  }

  /** What the registry reads for the text format: the same series (prom-client's would read its own, empty, map). */
  getForPromString(): ReturnType<Histogram<string>['get']> {
    return this.get();
  }

  override reset(): void {
    super.reset();
    // prom-client's constructor resets the histogram before this class's fields exist.
    if (!(#all in this)) return;
    for (const kept of this.#all) {
      kept.counts.fill(0);
      kept.sum = 0;
      kept.count = 0;
    }
  }
}

export function plainHistogram(options: {
  name: string;
  help: string;
  labelNames: readonly string[];
  buckets: readonly number[];
  registry: Registry;
}): { series(labels: Record<string, string | number>): ObservedSeries } {
  const histogram = new ArrayHistogram(options);
  return { series: (labels) => histogram.series(labels) };
}
