// A publish worker's read buffers: shared chunks in power-of-two size classes (64 KiB to 8 MiB), lent to the main
// thread and given back by it once the last view of a lent chunk was garbage-collected ("release" messages). At
// most `limitBytes` of chunks exist; a read that finds none free (or is too small or too large for a chunk) gets a
// buffer of its own instead.
import { MAX_READ_CHUNK_BYTES, MIN_POOLED_READ_BYTES, MIN_READ_CHUNK_BYTES } from "./publish-worker-protocol.js";

/** See the module comment. Invariant: a chunk is handed out again only after it was released. */
export class ReadChunks {
  readonly #limitBytes: number;
  readonly #chunks: SharedArrayBuffer[] = [];
  /** Free chunk ids by chunk size. */
  readonly #free = new Map<number, number[]>();
  #bytes = 0;

  constructor(limitBytes: number) {
    this.#limitBytes = limitBytes;
  }

  /** A free chunk of at least `length` bytes (its id), or undefined: the read gets a buffer of its own. */
  take(length: number): number | undefined {
    if (length < MIN_POOLED_READ_BYTES || length > MAX_READ_CHUNK_BYTES) return undefined;
    let size = MIN_READ_CHUNK_BYTES;
    while (size < length) size *= 2;
    const free = this.#free.get(size);
    if (free !== undefined && free.length > 0) return free.pop();
    if (this.#bytes + size > this.#limitBytes) return undefined;
    this.#bytes += size;
    this.#chunks.push(new SharedArrayBuffer(size));
    return this.#chunks.length - 1;
  }

  /** The memory of chunk `id` (taken before). */
  buffer(id: number): SharedArrayBuffer {
    const chunk = this.#chunks[id];
    if (chunk === undefined) throw new RangeError(`read chunk ${String(id)} does not exist`);
    return chunk;
  }

  /** Chunk `id` may be handed out again; an unknown id is ignored. */
  release(id: number): void {
    const chunk = this.#chunks[id];
    if (chunk === undefined) return;
    let free = this.#free.get(chunk.byteLength);
    if (free === undefined) this.#free.set(chunk.byteLength, (free = []));
    free.push(id);
  }
}
