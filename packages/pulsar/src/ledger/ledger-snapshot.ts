// What a ledger knows of its stream without reading it: trim offset, committed end and cumulative size. Advanced
// from the exact results of its own appends and trims and from heads it reads; every field only grows, so a late
// or stale observation never moves it back.
import type { StreamHead } from "@nereus/core";
import type { LedgerBounds } from "./position-mapping.js";

/** The monotone bounds of one ledger. */
export class LedgerSnapshot implements LedgerBounds {
  #trimOffset: number;
  #committedEndOffset: number;
  #cumulativeSize: number;

  constructor(head: StreamHead) {
    this.#trimOffset = head.trimOffset;
    this.#committedEndOffset = head.committedEndOffset;
    this.#cumulativeSize = head.cumulativeSize;
  }

  get trimOffset(): number {
    return this.#trimOffset;
  }

  get committedEndOffset(): number {
    return this.#committedEndOffset;
  }

  /** Logical bytes ever committed (trimmed entries included). */
  get cumulativeSize(): number {
    return this.#cumulativeSize;
  }

  /** Entries between the trim offset and the committed end. */
  get entryCount(): number {
    return this.#committedEndOffset - this.#trimOffset;
  }

  /** Takes what `head` says where it is ahead. */
  observeHead(head: StreamHead): void {
    this.observeCommit(head.committedEndOffset, head.cumulativeSize);
    this.observeTrim(head.trimOffset);
  }

  /** A commit this ledger saw (its own append's result, or a read's committed end). */
  observeCommit(committedEndOffset: number, cumulativeSize?: number): void {
    if (committedEndOffset > this.#committedEndOffset) this.#committedEndOffset = committedEndOffset;
    if (cumulativeSize !== undefined && cumulativeSize > this.#cumulativeSize) this.#cumulativeSize = cumulativeSize;
  }

  /** A trim offset this ledger saw. */
  observeTrim(trimOffset: number): void {
    if (trimOffset > this.#trimOffset) this.#trimOffset = trimOffset;
  }
}
