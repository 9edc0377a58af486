// Splits a Kafka TCP byte stream into frames: `int32 size` then `size` bytes (a request or response). Takes
// chunks of any size and boundary, returns every frame completed so far, in order. A negative size or one above
// the configured maximum is a DECODE_ERROR naming the stream offset, after which the decoder stays failed (a
// byte stream cannot resynchronise). Ownership: a frame that lies inside one pushed chunk is returned as a view
// of that chunk (never written to); a frame spanning chunks is copied into a fresh array. Callers that reuse
// their chunk buffers must copy the frames they keep. Does no I/O and keeps no reference to returned frames.
import { ErrorCode, NereusError, SizePrefixedFrames } from "@nereus/core";

/** Kafka's default socket.request.max.bytes (100 MiB). */
export const DEFAULT_MAX_FRAME_BYTES = 104_857_600;

/** Options of {@link FrameDecoder}. */
export interface FrameDecoderOptions {
  /** Largest accepted frame (excluding the 4-byte size prefix); default {@link DEFAULT_MAX_FRAME_BYTES}. */
  readonly maxFrameBytes?: number;
}

/** Incremental size-prefixed frame splitter for one connection. */
export class FrameDecoder {
  readonly maxFrameBytes: number;
  readonly #frames: SizePrefixedFrames;

  constructor(options: FrameDecoderOptions = {}) {
    const max = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    if (!Number.isSafeInteger(max) || max < 0 || max > 0x7fff_ffff) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `maxFrameBytes must be an integer in [0, 2^31-1], got ${String(max)}`,
      );
    }
    this.maxFrameBytes = max;
    this.#frames = new SizePrefixedFrames({
      context: "Kafka frame",
      prefixName: "size prefix",
      checkSize: (size) => {
        const signed = size | 0;
        if (signed < 0) return `negative frame size ${String(signed)}`;
        if (size > max) return `frame size ${String(size)} exceeds the maximum of ${String(max)} bytes`;
        return undefined;
      },
    });
  }

  /** Bytes held for the frame in progress (a size prefix already parsed is not counted). */
  get bufferedBytes(): number {
    return this.#frames.bufferedBytes;
  }

  /** Declared size of the frame being assembled (its size prefix read, not all its bytes), else 0. */
  get pendingFrameBytes(): number {
    return this.#frames.pendingFrameBytes;
  }

  /** True while a frame or its size prefix is partly received. */
  get midFrame(): boolean {
    return this.#frames.midFrame;
  }

  /** Adds a chunk and returns the frames it completed (size prefixes removed). Throws DECODE_ERROR on a bad size. */
  push(chunk: Uint8Array): Uint8Array[] {
    return this.#frames.push(chunk);
  }

  /**
   * Declares the end of the stream. Throws DECODE_ERROR when a frame (or size prefix) is incomplete: the peer
   * closed the connection mid-frame.
   */
  end(): void {
    this.#frames.end();
  }
}
