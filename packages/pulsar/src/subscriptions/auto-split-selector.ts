// Key_Shared auto-split hash ranges. Each consumer owns one range of slots, identified by its inclusive upper
// bound; the bound 65536 stands for the top of the slot space (slots are 0..65535). The first consumer owns every
// slot; each later one takes the lower half of the largest range (the first largest, from slot 0 up); a leaving
// consumer's slots go to the owner of the range above it, or, for the topmost range, to the one below. Pure
// bookkeeping over consumer ids; no dispatch state.
import { STICKY_KEY_HASH_RANGE } from "./sticky-key-hash.js";
import { SubscriptionRefusedError } from "./subscription-refused-error.js";

/** One consumer's slots: `[start, end]`, inclusive, within 0..65535. */
export interface SlotRange {
  readonly consumerId: bigint;
  readonly start: number;
  readonly end: number;
}

/**
 * Ranges of consecutive slots, each owned by one consumer. Invariant: the ranges are disjoint, cover 0..65535 when
 * at least one consumer is present, and each consumer owns exactly one range.
 */
export class AutoSplitSelector {
  /** Inclusive upper bounds of the ranges, ascending; the last is always 65536. */
  readonly #bounds: number[] = [];
  /** `#owners[i]` owns the slots `(#bounds[i - 1], #bounds[i]]` (from 0 for the first range). */
  readonly #owners: bigint[] = [];

  get size(): number {
    return this.#owners.length;
  }

  /** Gives `consumerId` the lower half of the largest range. Refused (CONSUMER_ASSIGN) when none can be split. */
  add(consumerId: bigint): void {
    if (this.#owners.includes(consumerId)) return;
    if (this.#bounds.length === 0) {
      this.#bounds.push(STICKY_KEY_HASH_RANGE);
      this.#owners.push(consumerId);
      return;
    }
    const index = this.#largestRange();
    const upper = this.#bounds[index]!;
    const lower = this.#lowerOf(index);
    if (upper - lower <= 1) {
      throw new SubscriptionRefusedError("CONSUMER_ASSIGN", `no hash range left to split for consumer ${consumerId}`);
    }
    this.#bounds.splice(index, 0, upper - ((upper - lower) >> 1));
    this.#owners.splice(index, 0, consumerId);
  }

  /** Hands the range of `consumerId` to the range above it (the topmost range: to the one below). */
  remove(consumerId: bigint): void {
    const index = this.#owners.indexOf(consumerId);
    if (index < 0) return;
    const topmost = index === this.#owners.length - 1;
    this.#owners.splice(index, 1);
    this.#bounds.splice(topmost && index > 0 ? index - 1 : index, 1);
  }

  /** The owner of `slot` (0..65535), or undefined without consumers. */
  select(slot: number): bigint | undefined {
    let low = 0;
    let high = this.#bounds.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (slot <= this.#bounds[middle]!) high = middle;
      else low = middle + 1;
    }
    return this.#owners[low];
  }

  /** The ranges in slot order. */
  ranges(): SlotRange[] {
    return this.#owners.map((consumerId, index) => ({
      consumerId,
      start: index === 0 ? 0 : this.#bounds[index - 1]! + 1,
      end: Math.min(this.#bounds[index]!, STICKY_KEY_HASH_RANGE - 1),
    }));
  }

  /** The bound below range `index` (0 for the first range). */
  #lowerOf(index: number): number {
    return index === 0 ? 0 : this.#bounds[index - 1]!;
  }

  #largestRange(): number {
    let best = 0;
    for (let index = 1; index < this.#bounds.length; index++) {
      if (this.#bounds[index]! - this.#lowerOf(index) > this.#bounds[best]! - this.#lowerOf(best)) best = index;
    }
    return best;
  }
}
