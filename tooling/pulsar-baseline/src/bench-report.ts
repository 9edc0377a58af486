// The figures of the Nereus-vs-Apache-Pulsar benchmark and their table: per broker and round the figures each
// phase produced (a failed phase leaves its figures out and records why), the median over the rounds, and the
// Nereus/Apache ratio of the medians with the direction that counts as better. Pure: no I/O.

/** The two brokers of the benchmark. */
export type BrokerName = "apache" | "nereus";

/** Figures of one broker in one round at one partition count. */
export interface RoundFigures {
  produceMBs?: number;
  produceMsgPerSec?: number;
  consumeMBs?: number;
  consumeMsgPerSec?: number;
  publishP50Ms?: number;
  publishP99Ms?: number;
  publishMaxMs?: number;
  /** Broker CPU milliseconds per MB produced (warm-up included) and per MB consumed (warm-up included). */
  produceCpuMsPerMB?: number;
  consumeCpuMsPerMB?: number;
  /** Broker CPU milliseconds per MB published during the fixed-rate latency phase (its warm-up included). */
  latencyCpuMsPerMB?: number;
}

/** A metric of the table. */
export type MetricKey = keyof RoundFigures;

/** One broker's rounds at one partition count: the figures of each round and the failures, in order. */
export interface BrokerRounds {
  readonly rounds: readonly RoundFigures[];
  readonly failures: readonly string[];
}

interface MetricRow {
  readonly key: MetricKey;
  readonly label: string;
  /** True when a larger value is better (throughput), false when smaller is (latency, CPU). */
  readonly higherIsBetter: boolean;
  readonly digits: number;
}

/** The table's rows, in order. */
const METRIC_ROWS: readonly MetricRow[] = [
  { key: "produceMBs", label: "produce MB/s", higherIsBetter: true, digits: 1 },
  { key: "produceMsgPerSec", label: "produce msg/s", higherIsBetter: true, digits: 0 },
  { key: "consumeMBs", label: "consume MB/s", higherIsBetter: true, digits: 1 },
  { key: "consumeMsgPerSec", label: "consume msg/s", higherIsBetter: true, digits: 0 },
  { key: "publishP50Ms", label: "publish p50 ms", higherIsBetter: false, digits: 2 },
  { key: "publishP99Ms", label: "publish p99 ms", higherIsBetter: false, digits: 2 },
  { key: "publishMaxMs", label: "publish max ms", higherIsBetter: false, digits: 2 },
  { key: "produceCpuMsPerMB", label: "broker CPU ms/MB produced", higherIsBetter: false, digits: 1 },
  { key: "consumeCpuMsPerMB", label: "broker CPU ms/MB consumed", higherIsBetter: false, digits: 1 },
  { key: "latencyCpuMsPerMB", label: "broker CPU ms/MB at fixed rate", higherIsBetter: false, digits: 1 },
];

/** The median of `values` (the mean of the middle two for an even count); undefined for none. */
export function median(values: readonly number[]): number | undefined {
  const finite = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (finite.length === 0) return undefined;
  const middle = Math.floor(finite.length / 2);
  const upper = finite[middle] as number;
  return finite.length % 2 === 1 ? upper : ((finite[middle - 1] as number) + upper) / 2;
}

/** The median of one metric over a broker's rounds, and how many rounds had it. */
export function medianOf(
  rounds: readonly RoundFigures[],
  key: MetricKey,
): { value: number | undefined; count: number } {
  const values = rounds.map((round) => round[key]).filter((value): value is number => value !== undefined);
  return { value: median(values), count: values.length };
}

/** Nereus/Apache, or undefined when either is missing or Apache's is 0. */
export function ratio(nereus: number | undefined, apache: number | undefined): number | undefined {
  if (nereus === undefined || apache === undefined || apache === 0) return undefined;
  return nereus / apache;
}

/** What the comparison table describes. */
export interface ComparisonInput {
  readonly title: string;
  /** Column heading of the Apache side (e.g. "Apache Pulsar 4.2.4"). */
  readonly apacheLabel: string;
  readonly roundCount: number;
  readonly apache: BrokerRounds;
  readonly nereus: BrokerRounds;
}

/**
 * The table: one row per metric with both medians, the Nereus/Apache ratio and the goal (`>= 1` where more is
 * better, `<= 1` where less is). A median over fewer rounds than ran is marked `(k/n)`; a metric no round produced
 * is `-`. Failures follow the table, one line each.
 */
export function renderComparison(input: ComparisonInput): string {
  const header = ["metric", input.apacheLabel, "Nereus", "Nereus/Apache", "goal"];
  const rows = METRIC_ROWS.map((row) => {
    const apache = medianOf(input.apache.rounds, row.key);
    const nereus = medianOf(input.nereus.rounds, row.key);
    const quotient = ratio(nereus.value, apache.value);
    return [
      row.label,
      cell(apache, row.digits, input.roundCount),
      cell(nereus, row.digits, input.roundCount),
      quotient === undefined ? "-" : `${quotient.toFixed(2)}x`,
      row.higherIsBetter ? ">= 1" : "<= 1",
    ];
  });
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => (row[column] ?? "").length)));
  const line = (row: readonly string[]): string =>
    row
      .map((text, column) => (column === 0 ? text.padEnd(widths[column] ?? 0) : text.padStart(widths[column] ?? 0)))
      .join("  ");
  const failures = [
    ...input.apache.failures.map((failure) => `  ${input.apacheLabel}: ${failure}`),
    ...input.nereus.failures.map((failure) => `  Nereus: ${failure}`),
  ];
  return [
    input.title,
    line(header),
    ...rows.map(line),
    ...(failures.length === 0 ? [] : ["failures:", ...failures]),
  ].join("\n");
}

function cell(median: { value: number | undefined; count: number }, digits: number, roundCount: number): string {
  if (median.value === undefined) return "-";
  const text = median.value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return median.count < roundCount ? `${text} (${String(median.count)}/${String(roundCount)})` : text;
}
