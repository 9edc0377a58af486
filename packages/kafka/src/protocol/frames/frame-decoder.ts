// Splits a Kafka TCP byte stream into frames: `int32 size` then `size` bytes (a request or response). Takes
// chunks of any size and boundary, returns every frame completed so far, in order. A negative size or one above
// the configured maximum is a DECODE_ERROR naming the stream offset, after which the decoder stays failed (a
// byte stream cannot resynchronise). Ownership: a frame that lies inside one pushed chunk is returned as a view
// of that chunk (never written to); a frame spanning chunks is copied into a fresh array. Callers that reuse
// their chunk buffers must copy the frames they keep. Does no I/O and keeps no reference to returned frames.
import { ErrorCode, NereusError } from "@nereus/core";

/** Kafka's default socket.request.max.bytes (100 MiB). */
export const DEFAULT_MAX_FRAME_BYTES = 104_857_600;

const SIZE_PREFIX_BYTES = 4;

/** Options of {@link FrameDecoder}. */
export interface FrameDecoderOptions {
  /** Largest accepted frame (excluding the 4-byte size prefix); default {@link DEFAULT_MAX_FRAME_BYTES}. */
  readonly maxFrameBytes?: number;
}

/** Incremental size-prefixed frame splitter for one connection. */
export class FrameDecoder {
  readonly maxFrameBytes: number;
  readonly #chunks: Uint8Array[] = [];
  /** Read position inside `#chunks[0]`. */
  #head = 0;
  #buffered = 0;
  /** Size of the frame being assembled, or -1 while its size prefix is incomplete. */
  #frameSize = -1;
  /** Stream offset of the next unconsumed byte (for error messages). */
  #streamOffset = 0;
  #failure: NereusError | undefined;

  constructor(options: FrameDecoderOptions = {}) {
    const max = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    if (!Number.isSafeInteger(max) || max < 0 || max > 0x7fff_ffff) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `maxFrameBytes must be an integer in [0, 2^31-1], got ${String(max)}`,
      );
    }
    this.maxFrameBytes = max;
  }

  /** Bytes held for the frame in progress (a size prefix already parsed is not counted). */
  get bufferedBytes(): number {
    return this.#buffered;
  }

  /** Declared size of the frame being assembled (its size prefix read, not all its bytes), else 0. */
  get pendingFrameBytes(): number {
    return this.#frameSize >= 0 ? this.#frameSize : 0;
  }

  /** True while a frame or its size prefix is partly received. */
  get midFrame(): boolean {
    return this.#buffered > 0 || this.#frameSize >= 0;
  }

  /** Adds a chunk and returns the frames it completed (size prefixes removed). Throws DECODE_ERROR on a bad size. */
  push(chunk: Uint8Array): Uint8Array[] {
    if (this.#failure !== undefined) throw this.#failure;
    if (chunk.length > 0) {
      this.#chunks.push(chunk);
      this.#buffered += chunk.length;
    }
    const frames: Uint8Array[] = [];
    for (;;) {
      if (this.#frameSize < 0) {
        if (this.#buffered < SIZE_PREFIX_BYTES) break;
        const prefix = this.#take(SIZE_PREFIX_BYTES);
        const size = new DataView(prefix.buffer, prefix.byteOffset, SIZE_PREFIX_BYTES).getInt32(0);
        const at = this.#streamOffset - SIZE_PREFIX_BYTES;
        if (size < 0) this.#fail(`negative frame size ${String(size)}`, at);
        if (size > this.maxFrameBytes) {
          this.#fail(`frame size ${String(size)} exceeds the maximum of ${String(this.maxFrameBytes)} bytes`, at);
        }
        this.#frameSize = size;
      }
      if (this.#buffered < this.#frameSize) break;
      frames.push(this.#take(this.#frameSize));
      this.#frameSize = -1;
    }
    return frames;
  }

  /**
   * Declares the end of the stream. Throws DECODE_ERROR when a frame (or size prefix) is incomplete: the peer
   * closed the connection mid-frame.
   */
  end(): void {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#buffered > 0 || this.#frameSize >= 0) {
      const expected = this.#frameSize >= 0 ? `${String(this.#frameSize)}-byte frame` : "size prefix";
      this.#fail(`stream ended inside a ${expected} (${String(this.#buffered)} byte(s) buffered)`, this.#streamOffset);
    }
  }

  #fail(reason: string, offset: number): never {
    this.#failure = new NereusError(
      ErrorCode.DECODE_ERROR,
      `Kafka frame at stream byte offset ${String(offset)}: ${reason}`,
      {
        details: { context: "Kafka frame", offset },
      },
    );
    this.#chunks.length = 0;
    this.#buffered = 0;
    throw this.#failure;
  }

  /** Removes `size` bytes from the front of the buffer (caller checked they are there). */
  #take(size: number): Uint8Array {
    this.#buffered -= size;
    this.#streamOffset += size;
    const first = this.#chunks[0];
    if (size === 0) return new Uint8Array(0);
    if (first !== undefined && first.length - this.#head >= size) {
      const view = first.subarray(this.#head, this.#head + size);
      this.#advance(first, size);
      return view;
    }
    const out = new Uint8Array(size);
    let filled = 0;
    while (filled < size) {
      const chunk = this.#chunks[0];
      if (chunk === undefined) break;
      const count = Math.min(size - filled, chunk.length - this.#head);
      out.set(chunk.subarray(this.#head, this.#head + count), filled);
      filled += count;
      this.#advance(chunk, count);
    }
    return out;
  }

  #advance(chunk: Uint8Array, count: number): void {
    this.#head += count;
    if (this.#head === chunk.length) {
      this.#chunks.shift();
      this.#head = 0;
    }
  }
}
