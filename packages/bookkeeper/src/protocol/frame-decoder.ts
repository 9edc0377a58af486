// Splits a TCP byte stream into BookKeeper frames: `[int32 big-endian length][payload]`, the length counting the
// payload only. Holds partial input between pushes; emitted payloads are fresh or views of a pushed chunk that
// the decoder no longer uses, so the caller owns them.
import { ErrorCode, NereusError } from "@nereus/core";

/** The bookie's default `nettyMaxFrameSizeBytes` (5 MiB): larger frames break the connection. */
export const DEFAULT_MAX_FRAME_SIZE = 5 * 1024 * 1024;

/**
 * Incremental frame splitter.
 *
 * Invariants: payloads come out in stream order, each exactly once; a declared length above `maxFrameSize` or
 * negative throws DECODE_ERROR and the decoder must then be discarded (the stream is out of sync).
 */
export class FrameDecoder {
  readonly #maxFrameSize: number;
  #pending: Uint8Array[] = [];
  #pendingLength = 0;

  constructor(maxFrameSize = DEFAULT_MAX_FRAME_SIZE) {
    this.#maxFrameSize = maxFrameSize;
  }

  /** Bytes buffered but not yet emitted. */
  get bufferedLength(): number {
    return this.#pendingLength;
  }

  /** Adds received bytes and returns every frame payload now complete. */
  push(chunk: Uint8Array): Uint8Array[] {
    if (chunk.length === 0) return [];
    this.#pending.push(chunk);
    this.#pendingLength += chunk.length;
    const frames: Uint8Array[] = [];
    for (;;) {
      if (this.#pendingLength < 4) break;
      const head = this.#peek(4);
      const length = new DataView(head.buffer, head.byteOffset, 4).getInt32(0);
      if (length < 0 || length > this.#maxFrameSize) {
        throw new NereusError(
          ErrorCode.DECODE_ERROR,
          `frame length ${String(length)} outside [0, ${String(this.#maxFrameSize)}]`,
          {
            details: { length, maxFrameSize: this.#maxFrameSize },
          },
        );
      }
      if (this.#pendingLength < 4 + length) break;
      this.#consume(4);
      frames.push(this.#consume(length));
    }
    return frames;
  }

  /** The first `length` buffered bytes without consuming them (copied only when they span chunks). */
  #peek(length: number): Uint8Array {
    const first = this.#pending[0];
    if (first !== undefined && first.length >= length) return first.subarray(0, length);
    return this.#gather(length, false);
  }

  #consume(length: number): Uint8Array {
    const first = this.#pending[0];
    if (first !== undefined && first.length >= length) {
      const out = first.subarray(0, length);
      if (first.length === length) this.#pending.shift();
      else this.#pending[0] = first.subarray(length);
      this.#pendingLength -= length;
      return out;
    }
    return this.#gather(length, true);
  }

  #gather(length: number, consume: boolean): Uint8Array {
    const out = new Uint8Array(length);
    let at = 0;
    let index = 0;
    while (at < length) {
      const chunk = this.#pending[index];
      if (chunk === undefined) break;
      const take = Math.min(chunk.length, length - at);
      out.set(chunk.subarray(0, take), at);
      at += take;
      if (consume) {
        if (take === chunk.length) this.#pending.shift();
        else this.#pending[0] = chunk.subarray(take);
      } else {
        index += 1;
      }
    }
    if (consume) this.#pendingLength -= length;
    return out;
  }
}
