// A strict reader of the Prometheus text exposition format 0.0.4 for the metrics tests: it answers the problems a
// scraper or `promtool check metrics` would report — malformed lines, a sample outside its family's HELP/TYPE, a
// family declared twice or split, duplicate series, counters without `_total` (and `_total` on anything else),
// histogram buckets that are not cumulative or whose +Inf bucket is not the count — and the parsed samples.

/** One sample line. */
export interface ExposedSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** What {@link readExposition} found. */
export interface Exposition {
  readonly types: ReadonlyMap<string, string>;
  readonly samples: readonly ExposedSample[];
  readonly problems: readonly string[];
}

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const LABEL = '([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"';
const VALUE = "([Nn][Aa][Nn]|[+-]Inf|[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)";
const SAMPLE_LINE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*,?)?\\})? ${VALUE}(?: -?\\d+)?$`);
const HELP_LINE = new RegExp(`^# HELP (${NAME}) (.*)$`);
const TYPE_LINE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
const TYPES_WITH_SUFFIXES: Readonly<Record<string, readonly string[]>> = {
  histogram: ["_bucket", "_sum", "_count"],
  summary: ["_sum", "_count", ""],
};

function parseLabels(text: string | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  if (text === undefined) return labels;
  for (const match of text.matchAll(new RegExp(LABEL, "g")))
    labels[match[1]!] = match[2]!.replace(/\\n/g, "\n").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
  return labels;
}

function parseValue(text: string): number {
  if (text.toLowerCase() === "nan") return Number.NaN;
  if (text === "+Inf") return Number.POSITIVE_INFINITY;
  if (text === "-Inf") return Number.NEGATIVE_INFINITY;
  return Number(text);
}

/** The family a sample name belongs to, given the declared types. */
function familyOf(name: string, types: ReadonlyMap<string, string>): string | undefined {
  if (types.has(name) && TYPES_WITH_SUFFIXES[types.get(name)!] === undefined) return name;
  for (const [family, type] of types) {
    const suffixes = TYPES_WITH_SUFFIXES[type];
    if (suffixes?.some((suffix) => name === `${family}${suffix}`) === true) return family;
  }
  return undefined;
}

function seriesKey(sample: ExposedSample, without?: string): string {
  const labels = Object.entries(sample.labels)
    .filter(([key]) => key !== without)
    .sort(([a], [b]) => a.localeCompare(b));
  return `${sample.name}${JSON.stringify(labels)}`;
}

function checkHistograms(types: ReadonlyMap<string, string>, samples: readonly ExposedSample[]): string[] {
  const problems: string[] = [];
  for (const [family, type] of types) {
    if (type !== "histogram") continue;
    const series = new Map<string, { buckets: Array<[number, number]>; count?: number }>();
    for (const sample of samples) {
      const base = sample.name.replace(/_(bucket|count)$/, "");
      if (base !== family || sample.name === `${family}_sum`) continue;
      const key = seriesKey({ ...sample, name: family }, "le");
      const entry = series.get(key) ?? { buckets: [] };
      if (sample.name.endsWith("_bucket")) entry.buckets.push([parseValue(sample.labels.le ?? "NaN"), sample.value]);
      else entry.count = sample.value;
      series.set(key, entry);
    }
    for (const [key, { buckets, count }] of series) {
      const sorted = [...buckets].sort(([a], [b]) => a - b);
      if (sorted.at(-1)?.[0] !== Number.POSITIVE_INFINITY) problems.push(`${key}: no +Inf bucket`);
      if (sorted.some(([, value], index) => index > 0 && value < sorted[index - 1]![1]))
        problems.push(`${key}: buckets are not cumulative`);
      if (count !== undefined && sorted.at(-1)?.[1] !== count) problems.push(`${key}: +Inf bucket is not the count`);
    }
  }
  return problems;
}

/** Reads `text` strictly (see the module header). */
export function readExposition(text: string): Exposition {
  const problems: string[] = [];
  const types = new Map<string, string>();
  const helps = new Set<string>();
  const closed = new Set<string>();
  const samples: ExposedSample[] = [];
  const series = new Set<string>();
  let current: string | undefined;
  if (!text.endsWith("\n")) problems.push("the text does not end with a newline");
  text.split("\n").forEach((line, index) => {
    const where = `line ${String(index + 1)}`;
    if (line === "") return;
    const help = HELP_LINE.exec(line);
    const type = TYPE_LINE.exec(line);
    if (help !== null || type !== null) {
      const family = (help ?? type)![1]!;
      if (family !== current) {
        if (current !== undefined) closed.add(current);
        if (closed.has(family)) problems.push(`${where}: family ${family} is split or declared twice`);
        current = family;
      }
      if (help !== null) {
        if (helps.has(family)) problems.push(`${where}: second HELP for ${family}`);
        helps.add(family);
      } else {
        if (types.has(family)) problems.push(`${where}: second TYPE for ${family}`);
        types.set(family, type![2]!);
        if (type![2] === "counter" && !family.endsWith("_total"))
          problems.push(`${where}: counter ${family} should end in _total`);
        if (type![2] !== "counter" && family.endsWith("_total"))
          problems.push(`${where}: non-counter ${family} should not end in _total`);
      }
      return;
    }
    if (line.startsWith("#")) return;
    const match = SAMPLE_LINE.exec(line);
    if (match === null) {
      problems.push(`${where}: not a sample: ${line}`);
      return;
    }
    const sample = { name: match[1]!, labels: parseLabels(match[2]), value: parseValue(match.at(-1)!) };
    const family = familyOf(sample.name, types);
    if (family === undefined || family !== current) problems.push(`${where}: ${sample.name} outside its family`);
    const key = seriesKey(sample);
    if (series.has(key)) problems.push(`${where}: duplicate series ${key}`);
    series.add(key);
    samples.push(sample);
  });
  for (const family of types.keys()) if (!helps.has(family)) problems.push(`family ${family} has no HELP`);
  problems.push(...checkHistograms(types, samples));
  return { types, samples, problems };
}
