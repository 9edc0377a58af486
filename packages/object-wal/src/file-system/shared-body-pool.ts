// Reusable shared memory for object bodies of the filesystem store. A body is built in a SharedArrayBuffer (with
// room for the file header in front), handed to a publish worker that has seen that buffer before — the job then
// names it by id, so neither the bytes nor the buffer cross threads again — and, once its writer releases it and no
// put of it is in flight, goes back to a free list by size class. Steady-state appends then allocate no new
// memory: no allocation, no page faults on fresh pages, and no external-memory growth driving full GCs.
// Buffers larger than the biggest class, or beyond the pooled-bytes cap, are dropped instead (`onDrop` lets the
// workers forget them).

/** One buffer the pool handed out or keeps. */
interface PoolEntry {
  readonly id: number;
  readonly memory: SharedArrayBuffer;
  /** Whether it returns to a free list (false: larger than the biggest class). */
  readonly pooled: boolean;
  /** Puts reading it right now. */
  users: number;
  /** The caller still holds it (allocated, not released). */
  held: boolean;
}

export interface SharedBodyPoolOptions {
  /** Bytes reserved in front of every body (the store's file header). */
  readonly headerBytes: number;
  /** Smallest size class (default 64 KiB). */
  readonly minClassBytes?: number;
  /** Largest size class; bigger bodies get a buffer of their own that is not reused (default 16 MiB). */
  readonly maxClassBytes?: number;
  /** Most bytes of free buffers kept (default 64 MiB). */
  readonly maxFreeBytes?: number;
  /** Called when a buffer leaves the pool for good (to release the workers' references). */
  readonly onDrop?: (id: number) => void;
}

/** A pooled body's buffer: what a publish job names. */
export interface PooledMemory {
  readonly id: number;
  readonly memory: SharedArrayBuffer;
}

/**
 * Invariants: a buffer is handed out to one holder at a time; it is reused only after `release` and after every
 * `beginUse` was matched by `endUse`; contents of a reused buffer are unspecified (the holder writes every byte).
 */
export class SharedBodyPool {
  readonly #headerBytes: number;
  readonly #minClassBytes: number;
  readonly #maxClassBytes: number;
  readonly #maxFreeBytes: number;
  readonly #onDrop: (id: number) => void;
  readonly #entries = new Map<SharedArrayBuffer, PoolEntry>();
  readonly #free = new Map<number, SharedArrayBuffer[]>();
  #freeBytes = 0;
  #nextId = 0;

  constructor(options: SharedBodyPoolOptions) {
    this.#headerBytes = options.headerBytes;
    this.#minClassBytes = options.minClassBytes ?? 64 * 1024;
    this.#maxClassBytes = options.maxClassBytes ?? 16 * 1024 * 1024;
    this.#maxFreeBytes = options.maxFreeBytes ?? 64 * 1024 * 1024;
    this.#onDrop = options.onDrop ?? (() => undefined);
  }

  /** Bytes of free buffers kept for reuse. */
  get freeBytes(): number {
    return this.#freeBytes;
  }

  /** Buffers handed out or in use by a put. */
  get activeBuffers(): number {
    return this.#entries.size - [...this.#free.values()].reduce((total, list) => total + list.length, 0);
  }

  /** A body of `length` bytes at offset `headerBytes` of a (possibly reused) shared buffer. */
  allocate(length: number): Uint8Array {
    const needed = this.#headerBytes + length;
    const size = this.#classOf(needed);
    let memory = size === undefined ? undefined : this.#free.get(size)?.pop();
    if (memory !== undefined) {
      this.#freeBytes -= memory.byteLength;
      const entry = this.#entries.get(memory) as PoolEntry;
      entry.held = true;
    } else {
      memory = new SharedArrayBuffer(size ?? needed);
      this.#entries.set(memory, { id: ++this.#nextId, memory, pooled: size !== undefined, users: 0, held: true });
    }
    return new Uint8Array(memory, this.#headerBytes, length);
  }

  /** The pool buffer of `body` when `body` is exactly a body this pool handed out and still held, else undefined. */
  lookup(body: Uint8Array): PooledMemory | undefined {
    const memory = body.buffer;
    if (!(memory instanceof SharedArrayBuffer) || body.byteOffset !== this.#headerBytes) return undefined;
    const entry = this.#entries.get(memory);
    return entry === undefined || !entry.held ? undefined : { id: entry.id, memory };
  }

  /** A put starts reading `memory`. */
  beginUse(memory: SharedArrayBuffer): void {
    const entry = this.#entries.get(memory);
    if (entry !== undefined) entry.users += 1;
  }

  /** A put finished reading `memory`. */
  endUse(memory: SharedArrayBuffer): void {
    const entry = this.#entries.get(memory);
    if (entry === undefined) return;
    entry.users -= 1;
    this.#maybeRecycle(entry);
  }

  /** The holder of `body` will not use it again (ignored for memory this pool did not hand out). */
  release(body: Uint8Array): void {
    const memory = body.buffer;
    if (!(memory instanceof SharedArrayBuffer)) return;
    const entry = this.#entries.get(memory);
    if (entry === undefined || !entry.held) return;
    entry.held = false;
    this.#maybeRecycle(entry);
  }

  #maybeRecycle(entry: PoolEntry): void {
    if (entry.held || entry.users > 0) return;
    if (entry.pooled && this.#freeBytes + entry.memory.byteLength <= this.#maxFreeBytes) {
      let list = this.#free.get(entry.memory.byteLength);
      if (list === undefined) this.#free.set(entry.memory.byteLength, (list = []));
      list.push(entry.memory);
      this.#freeBytes += entry.memory.byteLength;
      return;
    }
    this.#entries.delete(entry.memory);
    this.#onDrop(entry.id);
  }

  #classOf(bytes: number): number | undefined {
    if (bytes > this.#maxClassBytes) return undefined;
    let size = this.#minClassBytes;
    while (size < bytes) size *= 2;
    return size;
  }
}
