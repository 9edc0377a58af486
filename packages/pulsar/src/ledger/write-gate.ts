// Admission of one ledger's appends: the offset each admitted entry must start at (so that after one failure every
// entry admitted behind it fails too, instead of committing out of order), the entries in flight, and the fence.
// The gate is fenced while an uncertain append is unresolved or the next offset is stale (after any failed append,
// until the ledger re-read its head with nothing in flight). Settlement is chained: an admitted entry settles only
// after every entry admitted before it, so callers see outcomes in admission order. No I/O.

/** One admitted entry. */
export interface Admission {
  /** The stream offset the entry must start at. */
  readonly expectedOffset: number;
  /** Settles when every entry admitted before this one has settled. */
  readonly previous: Promise<void>;
  /** Marks this entry settled (after `previous`). */
  readonly settle: () => void;
}

/** The write fence and admission order of one ledger. */
export class WriteGate {
  #nextOffset: number;
  #inFlight = 0;
  #stale = false;
  readonly #unresolved = new Set<string>();
  #lastSettled: Promise<void> = Promise.resolve();
  #idle: Array<() => void> = [];

  constructor(nextOffset: number) {
    this.#nextOffset = nextOffset;
  }

  /** Why writes are fenced, or undefined when they are not. */
  get fence(): string | undefined {
    if (this.#unresolved.size > 0) return "an append of uncertain outcome is being recovered";
    if (this.#stale) return "the ledger end is being re-read after a failed append";
    return undefined;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** True when the ledger should re-read its head now: stale, nothing in flight, nothing unresolved. */
  get readyToResync(): boolean {
    return this.#stale && this.#inFlight === 0 && this.#unresolved.size === 0;
  }

  /** Admits one entry at the next offset (the caller checked `fence` first). */
  admit(): Admission {
    const previous = this.#lastSettled;
    let settle!: () => void;
    this.#lastSettled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const expectedOffset = this.#nextOffset;
    this.#nextOffset += 1;
    this.#inFlight += 1;
    return { expectedOffset, previous, settle };
  }

  /** An admitted entry's append call returned (successfully or not). */
  finish(): void {
    this.#inFlight -= 1;
    if (this.#inFlight > 0) return;
    const idle = this.#idle;
    this.#idle = [];
    for (const wake of idle) wake();
  }

  /** Resolves when no admitted entry is in flight. */
  idle(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Fences writes until `attemptId` is resolved. */
  uncertain(attemptId: string): void {
    this.#unresolved.add(attemptId);
  }

  resolved(attemptId: string): void {
    this.#unresolved.delete(attemptId);
  }

  /** The next offset is no longer known: fence until `resynced`. */
  markStale(): void {
    this.#stale = true;
  }

  /** The head was re-read with nothing in flight: admit again from `committedEndOffset`. */
  resynced(committedEndOffset: number): void {
    this.#nextOffset = committedEndOffset;
    this.#stale = false;
  }
}
