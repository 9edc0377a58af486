// Splits a Pulsar TCP byte stream into frames: `u32 totalSize` then `totalSize` bytes. Takes chunks of any size
// and boundary and returns every frame completed so far, in order, without its totalSize field (so a frame starts
// with its commandSize; decode it with `decodeFrame`). A totalSize too small to hold the commandSize field, or a
// frame larger than the configured maximum (counted with its totalSize field, as Pulsar counts it), is a
// DECODE_ERROR naming the stream offset, raised as soon as the size is read; after it the decoder stays failed (a
// byte stream cannot resynchronise). Ownership: a frame inside one pushed chunk is returned as a view of that chunk
// (never written to); a frame spanning chunks is copied. Callers that reuse chunk buffers must copy the frames they
// keep. No I/O; no reference to returned frames is kept.
import { ErrorCode, NereusError, SizePrefixedFrames } from "@nereus/core";
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
  readonly #frames: SizePrefixedFrames;

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
    this.#frames = new SizePrefixedFrames({
      context: "Pulsar frame",
      prefixName: "totalSize field",
      checkSize: (size) => {
        if (size < COMMAND_SIZE_BYTES) {
          return `totalSize ${String(size)} cannot hold the ${String(COMMAND_SIZE_BYTES)}-byte commandSize`;
        }
        if (size > max - TOTAL_SIZE_BYTES) {
          return `frame of ${String(size + TOTAL_SIZE_BYTES)} bytes exceeds the maximum of ${String(max)}`;
        }
        return undefined;
      },
    });
  }

  /** Bytes held for the frame in progress (a totalSize field already parsed is not counted). */
  get bufferedBytes(): number {
    return this.#frames.bufferedBytes;
  }

  /** True while a frame or its totalSize field is partly received. */
  get midFrame(): boolean {
    return this.#frames.midFrame;
  }

  /**
   * Adds a chunk and returns the frames it completed (each without its totalSize field). Throws DECODE_ERROR on an
   * impossible or oversized totalSize, and on every call after that.
   */
  push(chunk: Uint8Array): Uint8Array[] {
    return this.#frames.push(chunk);
  }

  /**
   * Like {@link push}, but an impossible or oversized totalSize is returned as `failure` together with the frames
   * completed before it, so a broker can answer those before it closes the connection.
   */
  pushSettled(chunk: Uint8Array): { frames: Uint8Array[]; failure?: NereusError } {
    return this.#frames.pushSettled(chunk);
  }

  /**
   * Declares the end of the stream. Throws DECODE_ERROR when a frame (or its totalSize field) is incomplete: the
   * peer closed the connection mid-frame.
   */
  end(): void {
    this.#frames.end();
  }
}
