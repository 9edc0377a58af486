// Metric families whose values are kept elsewhere — the Kafka broker's and the group coordinator's counters, the
// stores' statistics, I/O histograms kept in memory shared with worker threads — read at scrape time into a
// prom-client registry. A collector reports the same families (names, types, help) on every call; they are
// registered once, from a first call, and each scrape calls the collector once for all of them. prom-client's
// registry asks a metric only for its name and `get()` (the family with its values) and formats the text itself, so
// each family is a small object with that shape.
import type { Metric, Registry } from "prom-client";

export type Labels = Readonly<Record<string, string>>;

/** A family of samples as a collector reports it (the Kafka broker's MetricFamily fits). */
export type CollectedFamily = CollectedValueFamily | CollectedHistogramFamily;

interface CollectedValueFamily {
  readonly name: string;
  readonly help: string;
  readonly type: "counter" | "gauge";
  readonly samples: ReadonlyArray<{ readonly labels: Labels; readonly value: number }>;
}

/** Histograms kept elsewhere (e.g. in memory shared with worker threads), read at scrape time. */
interface CollectedHistogramFamily {
  readonly name: string;
  readonly help: string;
  readonly type: "histogram";
  readonly series: ReadonlyArray<{
    readonly labels: Labels;
    /** Cumulative counts per upper bound, ascending; the last bound is +Inf and its count is `count`. */
    readonly buckets: ReadonlyArray<{ readonly le: number; readonly count: number }>;
    readonly sum: number;
    readonly count: number;
  }>;
}

interface ExposedValue {
  readonly value: number;
  readonly labels: Record<string, string | number>;
  readonly metricName?: string;
}

function exposedValues(family: CollectedFamily): ExposedValue[] {
  if (family.type !== "histogram") return family.samples.map(({ labels, value }) => ({ labels: { ...labels }, value }));
  return family.series.flatMap(({ labels, buckets, sum, count }) => [
    ...buckets.map(({ le, count: cumulative }) => ({
      metricName: `${family.name}_bucket`,
      labels: { ...labels, le: le === Number.POSITIVE_INFINITY ? "+Inf" : le },
      value: cumulative,
    })),
    { metricName: `${family.name}_sum`, labels: { ...labels }, value: sum },
    { metricName: `${family.name}_count`, labels: { ...labels }, value: count },
  ]);
}

/** One scrape's families: the collector runs once per scrape, whichever family asks first. */
class ScrapeCache {
  readonly #collect: () => readonly CollectedFamily[];
  #families: ReadonlyMap<string, CollectedFamily> | undefined;

  constructor(collect: () => readonly CollectedFamily[]) {
    this.#collect = collect;
  }

  /** The family `name` of the current scrape (undefined when the collector failed or left it out). */
  family(name: string): CollectedFamily | undefined {
    if (this.#families === undefined) {
      let families: readonly CollectedFamily[] = [];
      try {
        families = this.#collect();
      } catch {
        // A failing collector leaves its families empty for this scrape; the rest of /metrics is still served.
      }
      this.#families = new Map(families.map((family) => [family.name, family]));
      // Every family of one scrape asks within the same synchronous pass (prom-client's Registry.metrics()).
      queueMicrotask(() => (this.#families = undefined));
    }
    return this.#families.get(name);
  }
}

function collectedMetric(declared: CollectedFamily, scrape: ScrapeCache): Metric {
  const { name, help, type } = declared;
  const metric = {
    name,
    help,
    type,
    aggregator: "sum",
    get: () => {
      const family = scrape.family(name);
      return Promise.resolve({
        name,
        help,
        type,
        aggregator: "sum",
        values: family === undefined || family.type !== type ? [] : exposedValues(family),
      });
    },
    reset: () => undefined,
  };
  // prom-client's registry reads only these members of a metric (see the module header).
  return metric as unknown as Metric;
}

/**
 * Registers the families `collect` reports (asked once now for their names, types and help) on `registry`; their
 * values are read from `collect` at each scrape. Invariant: `collect` reports the same families every time — a family
 * it reports only later is not exported. Throws when a family's name is already registered.
 */
export function registerCollectedFamilies(registry: Registry, collect: () => readonly CollectedFamily[]): void {
  const scrape = new ScrapeCache(collect);
  for (const family of collect()) registry.registerMetric(collectedMetric(family, scrape));
}
