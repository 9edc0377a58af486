// A small in-memory time index of one partition for ListOffsets by timestamp: sparse marks (one per
// `intervalBytes` of batches) holding a batch's base offset and the largest max timestamp of all batches before
// it. Because that running maximum never decreases, the first batch with maxTimestamp >= t lies between the last
// mark whose running maximum is below t and the next mark: a binary search plus a scan of at most one interval.
// The index covers the batches the log replayed or appended; the range below that (when a checkpoint shortened
// the replay) is scanned in once, on the first query that needs it. Memory: one mark per interval.
import type { BatchSummary } from "./stored-batch.js";

/** Default bytes of batches between marks. */
export const DEFAULT_TIME_INDEX_INTERVAL_BYTES = 1024 * 1024;

interface Mark {
  readonly offset: number;
  /** Largest maxTimestamp of the covered batches before `offset` (-Infinity when none). */
  readonly maxBefore: number;
}

/** Reads the stored batches with offsets in [from, until) in order. */
export type BatchScanner = (from: number, until: number) => AsyncIterable<BatchSummary>;

/** The batch found for a timestamp. */
export interface TimestampMatch {
  readonly batch: BatchSummary;
}

/** Sparse time index; `observe` must see batches in offset order without gaps. */
export class TimeIndex {
  readonly #intervalBytes: number;
  #marks: Mark[] = [];
  #coveredFrom: number;
  #coveredTo: number;
  #runningMax = Number.NEGATIVE_INFINITY;
  #bytesSinceMark = 0;
  #extending: Promise<void> | undefined;

  /** An empty index whose coverage starts (and ends) at `coveredFrom`. */
  constructor(coveredFrom: number, intervalBytes = DEFAULT_TIME_INDEX_INTERVAL_BYTES) {
    this.#coveredFrom = coveredFrom;
    this.#coveredTo = coveredFrom;
    this.#intervalBytes = intervalBytes;
  }

  /** First offset covered. */
  get coveredFrom(): number {
    return this.#coveredFrom;
  }

  /** Largest max timestamp of the covered batches (-Infinity when none). */
  get maxTimestamp(): number {
    return this.#runningMax;
  }

  /** Number of marks held. */
  get size(): number {
    return this.#marks.length;
  }

  /** Adds the next batch (its base offset must be the covered end, or contain it). */
  observe(batch: BatchSummary): void {
    if (batch.baseOffset + batch.recordCount <= this.#coveredTo && this.#marks.length > 0) return;
    if (this.#marks.length === 0 || this.#bytesSinceMark >= this.#intervalBytes) {
      this.#marks.push({ offset: batch.baseOffset, maxBefore: this.#runningMax });
      this.#bytesSinceMark = 0;
    }
    this.#bytesSinceMark += batch.bytes;
    if (batch.maxTimestamp > this.#runningMax) this.#runningMax = batch.maxTimestamp;
    this.#coveredTo = batch.baseOffset + batch.recordCount;
  }

  /**
   * The first batch in [logStart, end) whose maxTimestamp >= `timestamp`, or undefined when there is none.
   * Batches below the coverage are scanned in (once) with `scan`.
   */
  async find(timestamp: number, logStart: number, scan: BatchScanner): Promise<TimestampMatch | undefined> {
    if (this.#coveredFrom > logStart) await this.#extendDown(logStart, scan);
    if (!(this.#runningMax >= timestamp)) return undefined;
    let low = 0;
    let high = this.#marks.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      const mark = this.#marks[middle];
      if (mark !== undefined && mark.maxBefore < timestamp) low = middle;
      else high = middle - 1;
    }
    const start = Math.max(this.#marks[low]?.offset ?? this.#coveredFrom, logStart);
    for await (const batch of scan(start, this.#coveredTo)) {
      if (batch.maxTimestamp >= timestamp) return { batch };
    }
    return undefined;
  }

  async #extendDown(logStart: number, scan: BatchScanner): Promise<void> {
    this.#extending ??= (async () => {
      const prefix = new TimeIndex(logStart, this.#intervalBytes);
      const until = this.#coveredFrom;
      for await (const batch of scan(logStart, until)) {
        if (batch.baseOffset >= until) break;
        prefix.observe(batch);
      }
      const prefixMax = prefix.#runningMax;
      const marks = [
        ...prefix.#marks,
        ...this.#marks.map((mark) => ({ offset: mark.offset, maxBefore: Math.max(mark.maxBefore, prefixMax) })),
      ];
      this.#marks = marks.filter((mark, index) => index === 0 || mark.offset > (marks[index - 1]?.offset ?? -1));
      this.#coveredFrom = Math.min(prefix.#coveredFrom, this.#coveredFrom);
      if (prefixMax > this.#runningMax) this.#runningMax = prefixMax;
    })().finally(() => {
      this.#extending = undefined;
    });
    await this.#extending;
  }
}
