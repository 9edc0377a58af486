// Backpressure on publishing. Each connection counts its pending publish requests (SENDs received and not answered
// yet) and their bytes; the broker adds every connection's bytes into one shared buffer. A connection asks its
// listener to stop reading its socket once it holds `maxPendingPerConnection` pending publishes, or while the shared
// buffer is over its limit; it asks to read again once its publishes drain to half the bound and the shared buffer
// drains to half its limit. Frames already read when reading pauses are still served, so a connection may exceed its
// bound by what one socket read holds. A closed connection gives its bytes back at once, whatever its appends do.

/** Where a connection asks its socket to stop and go on reading. */
export interface ReadControl {
  pauseReading(): void;
  resumeReading(): void;
}

/**
 * The broker-wide bytes of pending publishes. Paused from the moment they reach `limitBytes` until they drain to half
 * of it; each subscriber hears every change of that state.
 */
export class PublishBuffer {
  readonly limitBytes: number;
  #used = 0;
  #paused = false;
  readonly #subscribers = new Set<() => void>();

  /** `limitBytes` must be a positive safe integer. */
  constructor(limitBytes: number) {
    if (!Number.isSafeInteger(limitBytes) || limitBytes < 1)
      throw new RangeError(`limitBytes must be a positive integer, got ${String(limitBytes)}`);
    this.limitBytes = limitBytes;
  }

  get usedBytes(): number {
    return this.#used;
  }

  /** True while the connections must not read more publishes. */
  get paused(): boolean {
    return this.#paused;
  }

  add(bytes: number): void {
    this.#used += bytes;
    if (!this.#paused && this.#used >= this.limitBytes) this.#set(true);
  }

  remove(bytes: number): void {
    this.#used = Math.max(0, this.#used - bytes);
    if (this.#paused && this.#used <= this.limitBytes / 2) this.#set(false);
  }

  /** Calls `changed` on every change of `paused`; returns the unsubscription. */
  subscribe(changed: () => void): () => void {
    this.#subscribers.add(changed);
    return () => this.#subscribers.delete(changed);
  }

  #set(paused: boolean): void {
    this.#paused = paused;
    for (const changed of [...this.#subscribers]) changed();
  }
}

/** One connection's pending publishes (see the module comment). */
export class PublishThrottle {
  readonly #maxPending: number;
  readonly #buffer: PublishBuffer;
  readonly #control: ReadControl | undefined;
  readonly #unsubscribe: () => void;
  #pending = 0;
  #pendingBytes = 0;
  /** Set once the connection's own bound was reached, until its publishes drain to half of it. */
  #overBound = false;
  #readingPaused = false;
  #closed = false;

  /** `maxPendingPerConnection` must be a positive safe integer; `control` is optional (no socket to pause). */
  constructor(maxPendingPerConnection: number, buffer: PublishBuffer, control: ReadControl | undefined) {
    this.#maxPending = maxPendingPerConnection;
    this.#buffer = buffer;
    this.#control = control;
    this.#unsubscribe = buffer.subscribe(() => this.#update());
  }

  get pendingCount(): number {
    return this.#pending;
  }

  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  /** True while the connection asked its socket not to be read. */
  get readingPaused(): boolean {
    return this.#readingPaused;
  }

  /** A publish of `bytes` was received; returns the idempotent call that marks it answered (or dropped). */
  started(bytes: number): () => void {
    if (this.#closed) return () => undefined;
    this.#pending += 1;
    this.#pendingBytes += bytes;
    this.#buffer.add(bytes);
    if (this.#pending >= this.#maxPending) this.#overBound = true;
    this.#update();
    let done = false;
    return () => {
      if (done || this.#closed) return;
      done = true;
      this.#pending -= 1;
      this.#pendingBytes -= bytes;
      if (this.#overBound && this.#pending <= this.#maxPending / 2) this.#overBound = false;
      this.#buffer.remove(bytes);
      this.#update();
    };
  }

  /** The connection closed: its pending bytes go back to the shared buffer. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe();
    this.#buffer.remove(this.#pendingBytes);
    this.#pending = 0;
    this.#pendingBytes = 0;
  }

  #update(): void {
    if (this.#closed) return;
    const pause = this.#overBound || this.#buffer.paused;
    if (pause === this.#readingPaused) return;
    this.#readingPaused = pause;
    if (pause) this.#control?.pauseReading();
    else this.#control?.resumeReading();
  }
}
