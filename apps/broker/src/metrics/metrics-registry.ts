// A tiny Prometheus registry: counters, gauges (set, or read from a callback at scrape time) and histograms with
// fixed buckets, each optionally labelled, rendered in the text exposition format 0.0.4. Other components'
// samples (the Kafka broker's, the group coordinator's) join through `addCollector`. Updates are synchronous
// and allocation-free once a label set exists; nothing here does I/O.

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

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

function labelKey(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((key) => `${key}=${labels[key] ?? ""}`)
    .join("\u0000");
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function formatLabels(labels: Labels, extra?: readonly [string, string]): string {
  const entries = Object.entries(labels);
  if (extra !== undefined) entries.push([extra[0], extra[1]]);
  if (entries.length === 0) return "";
  return `{${entries.map(([key, value]) => `${key}="${escapeLabel(value)}"`).join(",")}}`;
}

function formatNumber(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}

function escapeHelp(help: string): string {
  return help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

/** One histogram series: its cumulative buckets (the last one `le` +Inf), sum and count. */
function renderHistogramSeries(
  lines: string[],
  name: string,
  labels: Labels,
  buckets: ReadonlyArray<{ readonly le: number; readonly count: number }>,
  sum: number,
  count: number,
): void {
  for (const bucket of buckets)
    lines.push(`${name}_bucket${formatLabels(labels, ["le", formatNumber(bucket.le)])} ${String(bucket.count)}`);
  lines.push(`${name}_sum${formatLabels(labels)} ${formatNumber(sum)}`);
  lines.push(`${name}_count${formatLabels(labels)} ${String(count)}`);
}

interface Family {
  readonly name: string;
  readonly help: string;
  render(lines: string[]): void;
}

/** A monotonically increasing count per label set. */
export class Counter implements Family {
  readonly name: string;
  readonly help: string;
  readonly #values = new Map<string, { labels: Labels; value: number }>();

  constructor(name: string, help: string) {
    this.name = name;
    this.help = help;
  }

  inc(labels: Labels = {}, by = 1): void {
    const key = labelKey(labels);
    const entry = this.#values.get(key);
    if (entry === undefined) this.#values.set(key, { labels: { ...labels }, value: by });
    else entry.value += by;
  }

  value(labels: Labels = {}): number {
    return this.#values.get(labelKey(labels))?.value ?? 0;
  }

  render(lines: string[]): void {
    lines.push(`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} counter`);
    for (const { labels, value } of this.#values.values())
      lines.push(`${this.name}${formatLabels(labels)} ${formatNumber(value)}`);
  }
}

/** A value that goes up and down, set directly or read at scrape time. */
export class Gauge implements Family {
  readonly name: string;
  readonly help: string;
  readonly #values = new Map<string, { labels: Labels; value: number }>();
  readonly #read: (() => number) | undefined;

  constructor(name: string, help: string, read?: () => number) {
    this.name = name;
    this.help = help;
    this.#read = read;
  }

  set(value: number, labels: Labels = {}): void {
    this.#values.set(labelKey(labels), { labels: { ...labels }, value });
  }

  add(by: number, labels: Labels = {}): void {
    const key = labelKey(labels);
    const entry = this.#values.get(key);
    if (entry === undefined) this.#values.set(key, { labels: { ...labels }, value: by });
    else entry.value += by;
  }

  value(labels: Labels = {}): number {
    if (this.#read !== undefined && Object.keys(labels).length === 0) return this.#read();
    return this.#values.get(labelKey(labels))?.value ?? 0;
  }

  render(lines: string[]): void {
    lines.push(`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} gauge`);
    if (this.#read !== undefined) lines.push(`${this.name} ${formatNumber(this.#read())}`);
    for (const { labels, value } of this.#values.values())
      lines.push(`${this.name}${formatLabels(labels)} ${formatNumber(value)}`);
  }
}

/** Observations counted into cumulative buckets (upper bounds, ascending), with their sum and count. */
export class Histogram implements Family {
  readonly name: string;
  readonly help: string;
  readonly buckets: readonly number[];
  readonly #series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();

  constructor(name: string, help: string, buckets: readonly number[]) {
    if (buckets.length === 0 || buckets.some((bound, index) => index > 0 && bound <= buckets[index - 1]!)) {
      throw new Error(`histogram ${name}: buckets must be non-empty and strictly ascending`);
    }
    this.name = name;
    this.help = help;
    this.buckets = buckets;
  }

  observe(value: number, labels: Labels = {}): void {
    const key = labelKey(labels);
    let series = this.#series.get(key);
    if (series === undefined) {
      series = { labels: { ...labels }, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    const index = this.buckets.findIndex((bound) => value <= bound);
    if (index >= 0) series.counts[index]! += 1;
    series.sum += value;
    series.count += 1;
  }

  count(labels: Labels = {}): number {
    return this.#series.get(labelKey(labels))?.count ?? 0;
  }

  render(lines: string[]): void {
    lines.push(`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} histogram`);
    for (const { labels, counts, sum, count } of this.#series.values()) {
      let cumulative = 0;
      const buckets = this.buckets.map((le, index) => ({ le, count: (cumulative += counts[index]!) }));
      buckets.push({ le: Number.POSITIVE_INFINITY, count });
      renderHistogramSeries(lines, this.name, labels, buckets, sum, count);
    }
  }
}

/** Latency buckets in seconds, 0.5 ms to 10 s. */
export const LATENCY_BUCKETS_SECONDS: readonly number[] = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** The registry of one broker process. */
export class MetricsRegistry {
  readonly #families = new Map<string, Family>();
  readonly #collectors: Array<() => readonly CollectedFamily[]> = [];

  #register<T extends Family>(family: T): T {
    if (!NAME.test(family.name)) throw new Error(`invalid metric name ${family.name}`);
    if (this.#families.has(family.name)) throw new Error(`metric ${family.name} is already registered`);
    this.#families.set(family.name, family);
    return family;
  }

  counter(name: string, help: string): Counter {
    return this.#register(new Counter(name, help));
  }

  gauge(name: string, help: string, read?: () => number): Gauge {
    return this.#register(new Gauge(name, help, read));
  }

  histogram(name: string, help: string, buckets: readonly number[] = LATENCY_BUCKETS_SECONDS): Histogram {
    return this.#register(new Histogram(name, help, buckets));
  }

  /** Adds families computed at scrape time. A collector that throws is skipped for that scrape. */
  addCollector(collect: () => readonly CollectedFamily[]): void {
    this.#collectors.push(collect);
  }

  /** Everything, in the Prometheus text format (ends with a newline). */
  render(): string {
    const lines: string[] = [];
    for (const family of this.#families.values()) family.render(lines);
    for (const collect of this.#collectors) {
      let families: readonly CollectedFamily[];
      try {
        families = collect();
      } catch {
        continue;
      }
      for (const family of families) {
        if (this.#families.has(family.name) || !NAME.test(family.name)) continue;
        lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
        if (family.type === "histogram") {
          for (const series of family.series)
            renderHistogramSeries(lines, family.name, series.labels, series.buckets, series.sum, series.count);
          continue;
        }
        for (const sample of family.samples)
          lines.push(`${family.name}${formatLabels(sample.labels)} ${formatNumber(sample.value)}`);
      }
    }
    return `${lines.join("\n")}\n`;
  }
}
