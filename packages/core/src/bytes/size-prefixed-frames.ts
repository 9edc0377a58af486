// Splits a TCP byte stream of size-prefixed frames (`u32 size` big-endian, then `size` bytes), the framing Kafka and
// Pulsar share. Takes chunks of any size and boundary and returns every frame completed so far, in order, without
// its size prefix. The protocol decides which sizes it accepts (`checkSize`); a refused size is a DECODE_ERROR naming
// the stream offset, raised as soon as the prefix is read, after which the splitter stays failed (a byte stream cannot
// resynchronise). Ownership: a frame inside one pushed chunk is returned as a view of that chunk (never written to);
// a frame spanning chunks is copied into a fresh array, so callers that reuse chunk buffers must copy the frames they
// keep. No I/O; no reference to returned frames is kept.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

const PREFIX_BYTES = 4;

/** What one protocol's framing adds to the splitter. */
export interface SizePrefixedFramesOptions {
  /** Names the stream in errors, e.g. "Kafka frame". */
  readonly context: string;
  /** Names the prefix in errors, e.g. "size prefix". */
  readonly prefixName: string;
  /** Why a frame of `size` bytes (the prefix's unsigned value) is refused, or undefined to accept it. */
  readonly checkSize: (size: number) => string | undefined;
}

/** Incremental splitter of one connection's size-prefixed frames. */
export class SizePrefixedFrames {
  readonly #options: SizePrefixedFramesOptions;
  readonly #chunks: Uint8Array[] = [];
  /** Read position inside `#chunks[0]`. */
  #head = 0;
  #buffered = 0;
  /** Size of the frame being assembled, or -1 while its prefix is incomplete. */
  #frameSize = -1;
  /** Stream offset of the next unconsumed byte (for error messages). */
  #streamOffset = 0;
  #failure: NereusError | undefined;

  constructor(options: SizePrefixedFramesOptions) {
    this.#options = options;
  }

  /** Bytes held for the frame in progress (a prefix already parsed is not counted). */
  get bufferedBytes(): number {
    return this.#buffered;
  }

  /** Declared size of the frame being assembled (its prefix read, not all its bytes), else 0. */
  get pendingFrameBytes(): number {
    return this.#frameSize >= 0 ? this.#frameSize : 0;
  }

  /** True while a frame or its prefix is partly received. */
  get midFrame(): boolean {
    return this.#buffered > 0 || this.#frameSize >= 0;
  }

  /** Adds a chunk and returns the frames it completed. Throws DECODE_ERROR on a refused size, and after one. */
  push(chunk: Uint8Array): Uint8Array[] {
    const { frames, failure } = this.pushSettled(chunk);
    if (failure !== undefined) throw failure;
    return frames;
  }

  /**
   * Like {@link push}, but a refused size is returned as `failure` together with the frames the chunk completed
   * before it (a server answers those before it closes the connection). Once failed, every call returns the failure.
   */
  pushSettled(chunk: Uint8Array): { frames: Uint8Array[]; failure?: NereusError } {
    if (this.#failure !== undefined) return { frames: [], failure: this.#failure };
    if (chunk.length > 0) {
      this.#chunks.push(chunk);
      this.#buffered += chunk.length;
    }
    const frames: Uint8Array[] = [];
    for (;;) {
      if (this.#frameSize < 0) {
        if (this.#buffered < PREFIX_BYTES) break;
        const size = this.#readSize();
        if (size === undefined) return { frames, failure: this.#failure };
        this.#frameSize = size;
      }
      if (this.#buffered < this.#frameSize) break;
      frames.push(this.#take(this.#frameSize));
      this.#frameSize = -1;
    }
    return { frames };
  }

  /** Declares the end of the stream: DECODE_ERROR when a frame (or its prefix) is incomplete. */
  end(): void {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.midFrame) {
      const expected = this.#frameSize >= 0 ? `${String(this.#frameSize)}-byte frame` : this.#options.prefixName;
      this.#fail(`stream ended inside a ${expected} (${String(this.#buffered)} byte(s) buffered)`, this.#streamOffset);
    }
  }

  /** The next frame's size, or undefined when the protocol refuses it (the splitter is failed then). */
  #readSize(): number | undefined {
    const field = this.#take(PREFIX_BYTES);
    const size = new DataView(field.buffer, field.byteOffset, PREFIX_BYTES).getUint32(0);
    const refused = this.#options.checkSize(size);
    if (refused === undefined) return size;
    this.#failure = this.#failureOf(refused, this.#streamOffset - PREFIX_BYTES);
    return undefined;
  }

  #fail(reason: string, offset: number): never {
    throw (this.#failure = this.#failureOf(reason, offset));
  }

  #failureOf(reason: string, offset: number): NereusError {
    const { context } = this.#options;
    this.#chunks.length = 0;
    this.#buffered = 0;
    return new NereusError(ErrorCode.DECODE_ERROR, `${context} at stream byte offset ${String(offset)}: ${reason}`, {
      details: { context, offset },
    });
  }

  /** Removes `size` bytes from the front of the buffer (the caller checked they are there). */
  #take(size: number): Uint8Array {
    this.#buffered -= size;
    this.#streamOffset += size;
    if (size === 0) return new Uint8Array(0);
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
