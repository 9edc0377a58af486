// An immutable set of whole-acknowledged entry offsets as sorted half-open ranges, held in two Float64Arrays plus a
// prefix sum of range lengths. Built once (O(n)) from snapshot arrays or by merging; every single-offset query and
// every count over an offset interval is a binary search (O(log n)), so sets of millions of ranges stay cheap to
// consult. It never changes after construction; merging returns a new set.
import { ErrorCode, NereusError } from "@nereus/core";
import type { AckRange } from "../domain/ack-types.js";

/**
 * Sorted, disjoint, non-adjacent half-open ranges `[start, end)` of safe non-negative integers.
 * Invariants (checked on construction): `0 <= start < end`, `end(i) < start(i + 1)`.
 */
export class AckRangeSet {
  static readonly EMPTY: AckRangeSet = new AckRangeSet(new Float64Array(0), new Float64Array(0));

  readonly #starts: Float64Array;
  readonly #ends: Float64Array;
  /** `#covered[i]` = total length of ranges `0 .. i - 1`; length `size + 1`. */
  readonly #covered: Float64Array;

  private constructor(starts: Float64Array, ends: Float64Array) {
    if (starts.length !== ends.length) {
      throw invalid(`range starts (${starts.length}) and ends (${ends.length}) differ in length`);
    }
    const covered = new Float64Array(starts.length + 1);
    let previousEnd = -Infinity;
    for (let index = 0; index < starts.length; index++) {
      const start = starts[index]!;
      const end = ends[index]!;
      if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end <= start) {
        throw invalid(`range ${index} [${start}, ${end}) is not a non-empty range of safe non-negative integers`);
      }
      if (start <= previousEnd) {
        throw invalid(`range ${index} [${start}, ${end}) is not above the previous range with a gap`);
      }
      covered[index + 1] = covered[index]! + (end - start);
      previousEnd = end;
    }
    this.#starts = starts;
    this.#ends = ends;
    this.#covered = covered;
  }

  /** A set over copies of the given arrays (the caller keeps its arrays). Throws INVALID_ARGUMENT when not canonical. */
  static fromArrays(starts: Float64Array, ends: Float64Array): AckRangeSet {
    if (starts.length === 0 && ends.length === 0) return AckRangeSet.EMPTY;
    return new AckRangeSet(starts.slice(), ends.slice());
  }

  /** A set of the given ranges (sorted, disjoint, non-adjacent). Throws INVALID_ARGUMENT when not canonical. */
  static fromRanges(ranges: readonly AckRange[]): AckRangeSet {
    if (ranges.length === 0) return AckRangeSet.EMPTY;
    const starts = new Float64Array(ranges.length);
    const ends = new Float64Array(ranges.length);
    ranges.forEach((range, index) => {
      starts[index] = range.start;
      ends[index] = range.end;
    });
    return new AckRangeSet(starts, ends);
  }

  /** Number of ranges. */
  get size(): number {
    return this.#starts.length;
  }

  /** Number of offsets in all ranges. */
  get coveredCount(): number {
    return this.#covered[this.#starts.length]!;
  }

  startAt(index: number): number {
    return this.#checkedIndex(this.#starts, index);
  }

  endAt(index: number): number {
    return this.#checkedIndex(this.#ends, index);
  }

  /** Index of the first range whose end is above `offset` (the range holding `offset`, or the next one); `size` if none. */
  firstEndingAfter(offset: number): number {
    const ends = this.#ends;
    let low = 0;
    let high = ends.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (ends[middle]! <= offset) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Index of the range containing `offset`, or -1. */
  indexContaining(offset: number): number {
    const index = this.firstEndingAfter(offset);
    return index < this.#starts.length && this.#starts[index]! <= offset ? index : -1;
  }

  contains(offset: number): boolean {
    return this.indexContaining(offset) >= 0;
  }

  /** End of the range containing `offset`, or undefined when `offset` is in no range. */
  endOfRangeContaining(offset: number): number | undefined {
    const index = this.indexContaining(offset);
    return index < 0 ? undefined : this.#ends[index];
  }

  /** Start of the first range that starts at or after `offset`, or undefined. */
  nextStartAtOrAfter(offset: number): number | undefined {
    const index = this.firstEndingAfter(offset);
    if (index >= this.#starts.length) return undefined;
    const start = this.#starts[index]!;
    if (start >= offset) return start;
    return index + 1 < this.#starts.length ? this.#starts[index + 1] : undefined;
  }

  /** Number of offsets in `[from, to)` covered by the set; O(log n). */
  countIn(from: number, to: number): number {
    if (to <= from) return 0;
    return this.#coveredBelow(to) - this.#coveredBelow(from);
  }

  /** Number of ranges ending above `offset` (what remains after clipping the set at `offset`). */
  countEndingAfter(offset: number): number {
    return this.#starts.length - this.firstEndingAfter(offset);
  }

  /** The ranges, in order, as plain values (O(n)). */
  toRanges(): AckRange[] {
    const ranges: AckRange[] = [];
    for (let index = 0; index < this.#starts.length; index++) {
      ranges.push({ start: this.#starts[index]!, end: this.#ends[index]! });
    }
    return ranges;
  }

  /** Copies of the start and end arrays (O(n)). */
  toArrays(): { starts: Float64Array; ends: Float64Array } {
    return { starts: this.#starts.slice(), ends: this.#ends.slice() };
  }

  /**
   * The union of the offsets at or above `floor` in this set and in `ranges` (sorted by start; they may overlap or
   * touch this set and each other), as a new canonical set. O(n + m).
   */
  unionAbove(floor: number, ranges: readonly AckRange[]): AckRangeSet {
    const starts = new Float64Array(this.countEndingAfter(floor) + ranges.length);
    const ends = new Float64Array(starts.length);
    let count = 0;
    const append = (start: number, end: number): void => {
      const clippedStart = Math.max(start, floor);
      if (end <= clippedStart) return;
      if (count > 0 && clippedStart <= ends[count - 1]!) {
        ends[count - 1] = Math.max(ends[count - 1]!, end);
        return;
      }
      starts[count] = clippedStart;
      ends[count] = end;
      count++;
    };
    let mine = this.firstEndingAfter(floor);
    let theirs = 0;
    while (mine < this.#starts.length || theirs < ranges.length) {
      const other = ranges[theirs];
      if (other === undefined || (mine < this.#starts.length && this.#starts[mine]! <= other.start)) {
        append(this.#starts[mine]!, this.#ends[mine]!);
        mine++;
      } else {
        append(other.start, other.end);
        theirs++;
      }
    }
    if (count === 0) return AckRangeSet.EMPTY;
    return new AckRangeSet(starts.subarray(0, count), ends.subarray(0, count));
  }

  /** Offsets below `offset` covered by the set. */
  #coveredBelow(offset: number): number {
    const index = this.firstEndingAfter(offset);
    let count = this.#covered[index]!;
    if (index < this.#starts.length && this.#starts[index]! < offset) count += offset - this.#starts[index]!;
    return count;
  }

  #checkedIndex(array: Float64Array, index: number): number {
    const value = array[index];
    if (value === undefined) throw invalid(`range index ${index} is outside 0..${array.length - 1}`);
    return value;
  }
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, `ack range set: ${message}`);
}
