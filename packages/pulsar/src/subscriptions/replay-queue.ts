// Entries waiting to be delivered again (negatively acknowledged, timed out, left behind by a closed consumer) or
// held back by Key_Shared ordering: kept in offset order with the metadata dispatch decides on, and counted per
// hash slot so newer entries of a slot with older ones waiting can be held back too.

/** What dispatch knows of an entry without its bytes. */
export interface EntryMeta {
  readonly offset: number;
  readonly numMessages: number;
  /** Sticky-key hash slot (0..65535). */
  readonly slot: number;
}

/** Entries by offset; iteration is in ascending offset order. */
export class ReplayQueue {
  readonly #byOffset = new Map<number, EntryMeta>();
  /** Ascending; may hold offsets already removed from `#byOffset` (compacted lazily). */
  #order: number[] = [];
  readonly #slotCounts = new Map<number, number>();

  get size(): number {
    return this.#byOffset.size;
  }

  has(offset: number): boolean {
    return this.#byOffset.has(offset);
  }

  /** True when an entry of `slot` is waiting. */
  hasSlot(slot: number): boolean {
    return this.#slotCounts.has(slot);
  }

  add(meta: EntryMeta): void {
    if (this.#byOffset.has(meta.offset)) return;
    this.#byOffset.set(meta.offset, meta);
    this.#slotCounts.set(meta.slot, (this.#slotCounts.get(meta.slot) ?? 0) + 1);
    const last = this.#order[this.#order.length - 1];
    if (last === undefined || meta.offset > last) {
      this.#order.push(meta.offset);
      return;
    }
    const index = lowerBound(this.#order, meta.offset);
    if (this.#order[index] !== meta.offset) this.#order.splice(index, 0, meta.offset);
  }

  delete(offset: number): EntryMeta | undefined {
    const meta = this.#byOffset.get(offset);
    if (meta === undefined) return undefined;
    this.#byOffset.delete(offset);
    const count = this.#slotCounts.get(meta.slot)! - 1;
    if (count === 0) this.#slotCounts.delete(meta.slot);
    else this.#slotCounts.set(meta.slot, count);
    if (this.#order.length > 64 && this.#order.length > 2 * this.#byOffset.size) this.#compact();
    return meta;
  }

  /** The waiting entries in offset order (a snapshot: deleting while iterating is safe). */
  entries(): EntryMeta[] {
    this.#compact();
    return this.#order.map((offset) => this.#byOffset.get(offset)!);
  }

  clear(): void {
    this.#byOffset.clear();
    this.#slotCounts.clear();
    this.#order = [];
  }

  #compact(): void {
    if (this.#order.length !== this.#byOffset.size) {
      this.#order = this.#order.filter((offset) => this.#byOffset.has(offset));
    }
  }
}

function lowerBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
