// The plain model the history property checks a cursor against: the mark-delete position, a set of whole-acked
// entries and, per partially acked entry, the set of acked batch indexes — plus the stream's committed end and
// trim. Deliberately naive (sets and loops), so it is obviously right.

/** Batch sizes of the history's entries, by offset (every entry keeps its size). */
const BATCH_SIZES = [1, 2, 3, 4, 5, 8, 64, 70];

/** The batch size of entry `offset` in every history. */
export function historyBatchSize(offset: number): number {
  return BATCH_SIZES[offset % BATCH_SIZES.length] ?? 1;
}

export class CursorModel {
  markDelete: number;
  committedEnd: number;
  /** The stream's trim offset (positions below it are gone). */
  trimOffset = 0;
  readonly whole = new Set<number>();
  readonly acked = new Map<number, Set<number>>();

  constructor(markDelete: number, committedEnd: number) {
    this.markDelete = markDelete;
    this.committedEnd = committedEnd;
  }

  isWhole(offset: number): boolean {
    return offset < this.markDelete || this.whole.has(offset);
  }

  isIndexAcked(offset: number, index: number): boolean {
    return this.isWhole(offset) || (this.acked.get(offset)?.has(index) ?? false);
  }

  /** Acks `indexes` of entry `offset` (undefined: the whole entry); true when anything changed. */
  ackEntry(offset: number, indexes: readonly number[] | undefined): boolean {
    if (this.isWhole(offset)) return false;
    if (indexes === undefined) return this.#markWhole(offset);
    const acked = this.acked.get(offset) ?? new Set<number>();
    const before = acked.size;
    for (const index of indexes) acked.add(index);
    if (acked.size === historyBatchSize(offset)) return this.#markWhole(offset);
    if (acked.size > 0) this.acked.set(offset, acked);
    return acked.size > before;
  }

  /** Moves markDelete over whole-acked entries and forgets everything below it. */
  fold(): void {
    while (this.whole.has(this.markDelete)) this.markDelete++;
    for (const offset of this.whole) if (offset < this.markDelete) this.whole.delete(offset);
    for (const offset of this.acked.keys()) if (offset < this.markDelete) this.acked.delete(offset);
  }

  /** Drops every ack and puts markDelete at `target`. */
  reset(target: number): void {
    this.markDelete = target;
    this.whole.clear();
    this.acked.clear();
  }

  /** Entries in [markDelete, end) not acked as a whole. */
  backlog(end: number = this.committedEnd): number {
    let count = 0;
    for (let offset = this.markDelete; offset < end; offset++) if (!this.isWhole(offset)) count++;
    return count;
  }

  /** The offset just past the `count`th entry at or above markDelete not acked as a whole, at most `end`. */
  afterUnacked(count: number, end: number): number {
    let remaining = count;
    for (let offset = this.markDelete; offset < end; offset++) {
      if (!this.isWhole(offset) && --remaining === 0) return offset + 1;
    }
    return end;
  }

  #markWhole(offset: number): boolean {
    this.whole.add(offset);
    this.acked.delete(offset);
    return true;
  }
}
