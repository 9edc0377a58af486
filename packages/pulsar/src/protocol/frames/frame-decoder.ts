// Splits a Pulsar TCP byte stream into frames: `u32 totalSize` then `totalSize` bytes. Takes chunks of any size
// and boundary and returns every frame completed so far, in order, without its totalSize field (so a frame starts
// with its commandSize; decode it with `decodeFrame`). A totalSize too small to hold the commandSize field, or a
// frame larger than the configured maximum (counted with its totalSize field, as Pulsar counts it), is a
// DECODE_ERROR naming the stream offset, raised as soon as the size is read; after it the decoder stays failed (a
// byte stream cannot resynchronise). Ownership: a frame inside one pushed chunk is returned as a view of that chunk
// (never written to); a frame spanning chunks is copied. Callers that reuse chunk buffers must copy the frames they
// keep. No I/O; no reference to returned frames is kept.
import { ErrorCode, NereusError } from "@nereus/core";
import { COMMAND_SIZE_BYTES, DEFAULT_MAX_FRAME_BYTES, TOTAL_SIZE_BYTES } from "./frame-layout.js";

/** Options of {@link PulsarFrameDecoder}. */
export interface FrameDecoderOptions {
  /**
   * Largest accepted frame in bytes, counting its 4-byte totalSize field; default {@link DEFAULT_MAX_FRAME_BYTES}
   * (5 MiB + 10 KiB). A broker that raises its max message size raises this by the same amount.
   */
  readonly maxFrameBytes?: number;
}

/** Incremental frame splitter for one Pulsar connection (either direction). */
export class PulsarFrameDecoder {
  readonly maxFrameBytes: number;
  readonly #chunks: Uint8Array[] = [];
  /** Read position inside `#chunks[0]`. */
  #head = 0;
  #buffered = 0;
  /** totalSize of the frame being assembled, or -1 while its totalSize field is incomplete. */
  #frameSize = -1;
  /** Stream offset of the next unconsumed byte (for error messages). */
  #streamOffset = 0;
  #failure: NereusError | undefined;

  constructor(options: FrameDecoderOptions = {}) {
    const max = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    const smallest = TOTAL_SIZE_BYTES + COMMAND_SIZE_BYTES;
    if (!Number.isSafeInteger(max) || max < smallest || max > 0xffff_ffff) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `maxFrameBytes must be an integer in [${String(smallest)}, 2^32-1], got ${String(max)}`,
      );
    }
    this.maxFrameBytes = max;
  }

  /** Bytes held for the frame in progress (a totalSize field already parsed is not counted). */
  get bufferedBytes(): number {
    return this.#buffered;
  }

  /** True while a frame or its totalSize field is partly received. */
  get midFrame(): boolean {
    return this.#buffered > 0 || this.#frameSize >= 0;
  }

  /**
   * Adds a chunk and returns the frames it completed (each without its totalSize field). Throws DECODE_ERROR on an
   * impossible or oversized totalSize, and on every call after that.
   */
  push(chunk: Uint8Array): Uint8Array[] {
    if (this.#failure !== undefined) throw this.#failure;
    if (chunk.length > 0) {
      this.#chunks.push(chunk);
      this.#buffered += chunk.length;
    }
    const frames: Uint8Array[] = [];
    for (;;) {
      if (this.#frameSize < 0) {
        if (this.#buffered < TOTAL_SIZE_BYTES) break;
        this.#frameSize = this.#readTotalSize();
      }
      if (this.#buffered < this.#frameSize) break;
      frames.push(this.#take(this.#frameSize));
      this.#frameSize = -1;
    }
    return frames;
  }

  /**
   * Declares the end of the stream. Throws DECODE_ERROR when a frame (or its totalSize field) is incomplete: the
   * peer closed the connection mid-frame.
   */
  end(): void {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.midFrame) {
      const expected = this.#frameSize >= 0 ? `${String(this.#frameSize)}-byte frame` : "totalSize field";
      this.#fail(`stream ended inside a ${expected} (${String(this.#buffered)} byte(s) buffered)`, this.#streamOffset);
    }
  }

  #readTotalSize(): number {
    const field = this.#take(TOTAL_SIZE_BYTES);
    const size = new DataView(field.buffer, field.byteOffset, TOTAL_SIZE_BYTES).getUint32(0);
    const at = this.#streamOffset - TOTAL_SIZE_BYTES;
    if (size < COMMAND_SIZE_BYTES) {
      this.#fail(`totalSize ${String(size)} cannot hold the ${String(COMMAND_SIZE_BYTES)}-byte commandSize`, at);
    }
    if (size > this.maxFrameBytes - TOTAL_SIZE_BYTES) {
      this.#fail(
        `frame of ${String(size + TOTAL_SIZE_BYTES)} bytes exceeds the maximum of ${String(this.maxFrameBytes)}`,
        at,
      );
    }
    return size;
  }

  #fail(reason: string, offset: number): never {
    this.#failure = new NereusError(
      ErrorCode.DECODE_ERROR,
      `Pulsar frame at stream byte ${String(offset)}: ${reason}`,
      {
        details: { context: "Pulsar frame", offset },
      },
    );
    this.#chunks.length = 0;
    this.#buffered = 0;
    throw this.#failure;
  }

  /** Removes `size` bytes from the front of the buffer (the caller checked they are there). */
  #take(size: number): Uint8Array {
    this.#buffered -= size;
    this.#streamOffset += size;
    const first = this.#chunks[0];
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
