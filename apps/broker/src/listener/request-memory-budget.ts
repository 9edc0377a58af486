// The bytes of request frames one broker holds at once: frames received and not yet answered, plus the frame
// each connection is receiving. A connection reserves a frame's declared size before it reads the frame's body;
// when the budget has no room, the connection stops reading (its socket pauses) and waits in line. Memory is
// bounded by the budget plus one frame (a frame larger than the whole budget is still served, alone) plus one
// socket chunk per connection, and nothing deadlocks: a reserved frame is always read to its end (or its
// connection is closed), and every frame in flight is answered, so held bytes always drain.

/** A shared, first-come-first-served byte budget. */
export class RequestMemoryBudget {
  readonly limitBytes: number;
  #used = 0;
  /** Waiting owners in arrival order (Map iteration order is insertion order). */
  readonly #waiting = new Map<object, { readonly bytes: number; readonly grant: () => void }>();

  constructor(limitBytes: number) {
    if (!Number.isSafeInteger(limitBytes) || limitBytes < 1)
      throw new RangeError(`limitBytes must be a positive integer, got ${String(limitBytes)}`);
    this.limitBytes = limitBytes;
  }

  get usedBytes(): number {
    return this.#used;
  }

  get waitingCount(): number {
    return this.#waiting.size;
  }

  /** Charges bytes that are already in memory (a frame that arrived whole in one read). Never refuses. */
  charge(bytes: number): void {
    this.#used += bytes;
  }

  /**
   * Charges `bytes` when nobody waits and they fit (or nothing is held at all); 0 bytes ask only whether reading
   * may go on (the budget is not full). Returns whether it did.
   */
  tryReserve(bytes: number): boolean {
    if (this.#waiting.size > 0 || !this.#fits(bytes)) return false;
    this.#used += bytes;
    return true;
  }

  /**
   * Queues `owner` for `bytes`; `grant` runs once they are charged to it (from a later `release`). An owner waits
   * at most once: a second call replaces the first.
   */
  wait(owner: object, bytes: number, grant: () => void): void {
    this.#waiting.delete(owner);
    this.#waiting.set(owner, { bytes, grant });
  }

  /** Takes `owner` out of the line (its connection closed). */
  cancel(owner: object): void {
    this.#waiting.delete(owner);
    this.#grantWaiting();
  }

  /** Gives bytes back and lets waiting owners in, in order, while they fit. */
  release(bytes: number): void {
    this.#used = Math.max(0, this.#used - bytes);
    this.#grantWaiting();
  }

  #fits(bytes: number): boolean {
    if (bytes === 0) return this.#used < this.limitBytes;
    return this.#used === 0 || this.#used + bytes <= this.limitBytes;
  }

  #grantWaiting(): void {
    for (const [owner, waiter] of this.#waiting) {
      if (!this.#fits(waiter.bytes)) return;
      this.#waiting.delete(owner);
      this.#used += waiter.bytes;
      waiter.grant();
    }
  }
}
