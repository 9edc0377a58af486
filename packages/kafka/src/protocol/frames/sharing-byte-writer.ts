// A ByteWriter that does not copy large byte fields: a `writeBytes` of at least `minSharedBytes` is kept by
// reference as its own part, and `parts()` returns the written bytes as an ordered list of parts (the writer's
// buffer between shared fields, and the shared fields themselves). A Fetch response carrying a megabyte of records
// is then written to the socket as a few parts (one writev) instead of being copied into the frame and copied
// again by `finish()`. Length slots cannot be patched across a shared field (their length would miss it); the
// frame's size prefix is set with `setU32` once the total is known.
import { ByteWriter, ErrorCode, NereusError } from "@nereus/core";

interface SharedPart {
  /** Position in the writer's own buffer where the part belongs. */
  readonly at: number;
  readonly bytes: Uint8Array;
}

/**
 * Invariants: the concatenation of `parts()` is exactly what a plain ByteWriter would have written; shared parts
 * are the caller's arrays (not copied — they must not change until the parts are written out).
 */
export class SharingByteWriter extends ByteWriter {
  readonly #minSharedBytes: number;
  readonly #shared: SharedPart[] = [];
  #sharedBytes = 0;

  constructor(initialCapacity: number, minSharedBytes: number) {
    super(initialCapacity);
    if (!Number.isSafeInteger(minSharedBytes) || minSharedBytes < 1)
      throw new RangeError(`minSharedBytes must be a positive integer, got ${String(minSharedBytes)}`);
    this.#minSharedBytes = minSharedBytes;
  }

  override writeBytes(bytes: Uint8Array): this {
    if (bytes.length < this.#minSharedBytes) return super.writeBytes(bytes);
    this.#shared.push({ at: this.length, bytes });
    this.#sharedBytes += bytes.length;
    return this;
  }

  override patchLength(position: number): this {
    if (this.#shared.some((part) => part.at > position)) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `length slot at ${String(position)} spans a shared part; set it with setU32 instead`,
      );
    }
    return super.patchLength(position);
  }

  /** Every byte written, own and shared. */
  get totalLength(): number {
    return this.length + this.#sharedBytes;
  }

  /** The written bytes in order, as parts. The own parts are views of this writer's buffer: write no more after. */
  parts(): Uint8Array[] {
    const own = this.view();
    const parts: Uint8Array[] = [];
    let from = 0;
    for (const part of this.#shared) {
      if (part.at > from) parts.push(own.subarray(from, part.at));
      parts.push(part.bytes);
      from = part.at;
    }
    if (own.length > from || parts.length === 0) parts.push(own.subarray(from));
    return parts;
  }
}
