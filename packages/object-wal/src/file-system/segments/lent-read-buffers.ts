// Reusable read buffers for the reads served on the calling thread (hot-segment-reads.ts). A fresh buffer per read
// costs twice: the kernel zeroes and maps every page the read fills (page faults), and V8 counts the buffer as
// external memory, starting a full garbage collection after every 64 MiB of it — several per second while a
// consumer catches up. Here reads land in `SharedArrayBuffer` chunks (power-of-two size classes) that are reused:
// each read gets its own `SharedArrayBuffer` object over a chunk (every view of the bytes references that object),
// and a `FinalizationRegistry` returns the chunk to the free list once that object was collected — once nothing can
// read the bytes any more. Until then the chunk is never reused, so lent bytes never change. Shared memory is not
// counted as this isolate's external memory, so pooled reads start no collections. When no chunk is free and the
// pool is at its limit, the read gets a buffer of its own, as before (and that buffer's external memory eventually
// starts the collection that gives chunks back). Same scheme as the publish workers' read chunks. Memory is held
// only while reads need it: chunks are created as reads ask for them, and once nothing was lent for a whole idle
// period the free chunks are let go (the garbage collector frees them); a chunk still lent then goes at a later
// check, once it came back.

/** Reads shorter than this get a buffer of their own (a small allocation is cheap and rarely faults). */
export const MIN_LENT_READ_BYTES = 16 * 1024;
/** Size classes: powers of two from 64 KiB to 8 MiB; longer reads get a buffer of their own. */
const MIN_CHUNK_BYTES = 64 * 1024;
const MAX_CHUNK_BYTES = 8 * 1024 * 1024;
/** Default bytes of chunks one pool keeps at most. */
export const DEFAULT_LENT_READ_BUFFER_BYTES = 256 * 1024 * 1024;
/** Default idle period after which free chunks are let go. */
const DEFAULT_LENT_READ_IDLE_MS = 30_000;

/** Counters for tests, logs and metrics. */
export class LentReadBuffersStats {
  /** Buffers lent from a chunk. */
  lent = 0;
  /** Buffers of their own (too small, too large, or the pool was exhausted). */
  own = 0;
  /** Chunks given back after their lent object was collected. */
  returned = 0;
  /** Chunks let go after an idle period (their memory is freed by the garbage collector). */
  released = 0;
  /** Bytes of the chunks held now, lent or free (a gauge). */
  chunkBytes = 0;
}

/**
 * See the module comment. Invariant: a chunk is on the free list only while no lent object over it is alive, so a
 * buffer returned by {@link take} never changes under its holder. Not thread-safe: use from one thread.
 */
export class LentReadBuffers {
  readonly stats = new LentReadBuffersStats();
  readonly #limitBytes: number;
  readonly #free = new Map<number, SharedArrayBuffer[]>();
  readonly #returns = new FinalizationRegistry<SharedArrayBuffer>((chunk) => this.#giveBack(chunk));
  #closed = false;
  /** Something was lent since the last idle check. */
  #lentSinceCheck = false;
  readonly #idleTimer: NodeJS.Timeout | undefined;

  /**
   * `limitBytes`: most bytes of chunks kept (0 lends nothing: every read gets a buffer of its own). `idleMs`: free
   * chunks are let go once nothing was lent for between one and two such periods (0: never).
   */
  constructor(limitBytes: number = DEFAULT_LENT_READ_BUFFER_BYTES, idleMs: number = DEFAULT_LENT_READ_IDLE_MS) {
    if (!Number.isSafeInteger(limitBytes) || limitBytes < 0)
      throw new RangeError(`lent read buffer bytes must be a non-negative integer, got ${String(limitBytes)}`);
    if (!Number.isSafeInteger(idleMs) || idleMs < 0)
      throw new RangeError(`lent read buffer idle period must be a non-negative integer of ms, got ${String(idleMs)}`);
    this.#limitBytes = limitBytes;
    // Unref'd: never keeps the process alive.
    this.#idleTimer =
      limitBytes > 0 && idleMs > 0 ? setInterval(() => this.#releaseIfIdle(), idleMs).unref() : undefined;
  }

  /** Bytes of chunks allocated so far (lent or free). */
  get chunkBytes(): number {
    return this.stats.chunkBytes;
  }

  /** A buffer of exactly `length` bytes, contents unspecified: lent from a chunk when one is free, else its own. */
  take(length: number): Uint8Array {
    const chunk = this.#chunkFor(length);
    if (chunk === undefined) {
      this.stats.own += 1;
      const own = Buffer.allocUnsafeSlow(length);
      return new Uint8Array(own.buffer, own.byteOffset, length);
    }
    // This read's own object over the chunk's memory: the chunk goes back once it is collected.
    const lent = structuredClone(chunk);
    this.#returns.register(lent, chunk);
    this.stats.lent += 1;
    this.#lentSinceCheck = true;
    return new Uint8Array(lent, 0, length);
  }

  /** Keeps no free chunk any more (lent ones stay valid; they are simply not reused). Idempotent. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#idleTimer);
    this.#free.clear();
  }

  #chunkFor(length: number): SharedArrayBuffer | undefined {
    if (this.#closed || length < MIN_LENT_READ_BYTES || length > MAX_CHUNK_BYTES) return undefined;
    let size = MIN_CHUNK_BYTES;
    while (size < length) size *= 2;
    const free = this.#free.get(size)?.pop();
    if (free !== undefined) return free;
    if (this.stats.chunkBytes + size > this.#limitBytes) return undefined;
    this.stats.chunkBytes += size;
    return new SharedArrayBuffer(size);
  }

  /** Lets the free chunks go when nothing was lent since the last check (a chunk lent then goes at a later check). */
  #releaseIfIdle(): void {
    if (this.#lentSinceCheck) {
      this.#lentSinceCheck = false;
      return;
    }
    for (const [size, list] of this.#free) {
      this.stats.chunkBytes -= size * list.length;
      this.stats.released += list.length;
    }
    this.#free.clear();
  }

  #giveBack(chunk: SharedArrayBuffer): void {
    this.stats.returned += 1;
    if (this.#closed) return;
    const list = this.#free.get(chunk.byteLength);
    if (list === undefined) this.#free.set(chunk.byteLength, [chunk]);
    else list.push(chunk);
  }
}
