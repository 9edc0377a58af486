// Messages and bytes per topic, in (stored from SENDs; duplicates not counted) and out (dispatched to consumers,
// redeliveries included), counted since the broker started, with rates over the last completed window (a window
// closes when the topic's traffic is read at least RATE_WINDOW_MS after it began). At most `maxTopics` topics are counted by name; traffic of further topics is counted under
// OTHER_TOPICS, so what is reported (and the labels of metrics built on it) stays bounded.

/** The name the traffic of topics beyond the bound is counted under. */
export const OTHER_TOPICS = "_other";

/** How long the window is over which rates are measured, in milliseconds. */
export const RATE_WINDOW_MS = 10_000;

/** Topics counted by name, by default. */
const DEFAULT_MAX_TOPICS = 10_000;

/** One topic's counts since the broker started. */
export interface MessageCounts {
  readonly msgInCounter: number;
  readonly bytesInCounter: number;
  readonly msgOutCounter: number;
  readonly bytesOutCounter: number;
}

/** One topic's counts and its rates (per second) over the last window. */
export interface MessageTraffic extends MessageCounts {
  readonly msgRateIn: number;
  readonly msgThroughputIn: number;
  readonly msgRateOut: number;
  readonly msgThroughputOut: number;
}

interface Counts {
  msgInCounter: number;
  bytesInCounter: number;
  msgOutCounter: number;
  bytesOutCounter: number;
}

interface TopicEntry {
  readonly counts: Counts;
  /** The counts when the current window began, and when that was. */
  windowStart: { readonly counts: MessageCounts; readonly at: number };
  /** The rates measured over the last completed window. */
  rates: Pick<MessageTraffic, "msgRateIn" | "msgThroughputIn" | "msgRateOut" | "msgThroughputOut">;
}

const NO_COUNTS: MessageCounts = { msgInCounter: 0, bytesInCounter: 0, msgOutCounter: 0, bytesOutCounter: 0 };

const NO_RATES = { msgRateIn: 0, msgThroughputIn: 0, msgRateOut: 0, msgThroughputOut: 0 } as const;

/** The broker's per-topic message counters (see the module comment). */
export class TopicMessageCounters {
  readonly #topics = new Map<string, TopicEntry>();
  readonly #clock: () => number;
  readonly #maxTopics: number;

  /** `maxTopics`: topics counted by name (a positive integer, default 10,000). */
  constructor(options: { readonly clock?: () => number; readonly maxTopics?: number } = {}) {
    this.#clock = options.clock ?? Date.now;
    this.#maxTopics = options.maxTopics ?? DEFAULT_MAX_TOPICS;
  }

  /** `messages` messages of `bytes` bytes were stored on `topic`. */
  recordIn(topic: string, messages: number, bytes: number): void {
    const { counts } = this.#entry(topic);
    counts.msgInCounter += messages;
    counts.bytesInCounter += bytes;
  }

  /** `messages` messages of `bytes` bytes of `topic` were dispatched to a consumer. */
  recordOut(topic: string, messages: number, bytes: number): void {
    const { counts } = this.#entry(topic);
    counts.msgOutCounter += messages;
    counts.bytesOutCounter += bytes;
  }

  /** The counts and rates of `topic` (zeros for a topic with no traffic, or counted under OTHER_TOPICS). */
  trafficOf(topic: string): MessageTraffic {
    const entry = this.#topics.get(topic);
    if (entry === undefined) return { ...NO_COUNTS, ...NO_RATES };
    this.#roll(entry);
    return { ...entry.counts, ...entry.rates };
  }

  /** Every counted topic name (OTHER_TOPICS included once it counted anything) with its counts. */
  *counts(): IterableIterator<[string, MessageCounts]> {
    for (const [topic, entry] of this.#topics) yield [topic, entry.counts];
  }

  #entry(topic: string): TopicEntry {
    let entry = this.#topics.get(topic);
    if (entry !== undefined) return entry;
    const name = this.#topics.size >= this.#maxTopics ? OTHER_TOPICS : topic;
    entry = this.#topics.get(name);
    if (entry !== undefined) return entry;
    const counts: Counts = { ...NO_COUNTS };
    entry = { counts, windowStart: { counts: { ...counts }, at: this.#clock() }, rates: NO_RATES };
    this.#topics.set(name, entry);
    return entry;
  }

  /** Closes the window when RATE_WINDOW_MS passed: its rates become the reported ones. */
  #roll(entry: TopicEntry): void {
    const now = this.#clock();
    const elapsedMs = now - entry.windowStart.at;
    if (elapsedMs < RATE_WINDOW_MS) return;
    const start = entry.windowStart.counts;
    const perSecond = (delta: number): number => (delta * 1_000) / elapsedMs;
    entry.rates = {
      msgRateIn: perSecond(entry.counts.msgInCounter - start.msgInCounter),
      msgThroughputIn: perSecond(entry.counts.bytesInCounter - start.bytesInCounter),
      msgRateOut: perSecond(entry.counts.msgOutCounter - start.msgOutCounter),
      msgThroughputOut: perSecond(entry.counts.bytesOutCounter - start.bytesOutCounter),
    };
    entry.windowStart = { counts: { ...entry.counts }, at: now };
  }
}
