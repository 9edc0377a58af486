// Growable big-endian writer for durable binary formats. Integers are JS numbers checked as safe integers
// (anything out of range throws INVALID_ARGUMENT, never wraps); strings are u32-length-prefixed strict UTF-8.
// Does not validate record semantics; codecs do. `finish()` returns a fresh copy; the writer keeps its buffer.
// Hot paths build in a reused scratch writer (`withScratchWriter`), so an encoded record costs one allocation:
// the exact-size copy `finish()` returns.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { encodeStrictUtf8 } from "./strict-utf8.js";

const U32_MAX = 0xffff_ffff;
const TWO_POW_32 = 0x1_0000_0000;
/** Initial capacity of a scratch writer, and the largest buffer a released scratch writer keeps. */
const SCRATCH_CAPACITY = 1024;
const SCRATCH_MAX_RETAINED = 64 * 1024;

function outOfRange(kind: string, value: number, range: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, `${kind} value ${String(value)} is not an integer in ${range}`, {
    details: { kind, value },
  });
}

function checkUnsigned(kind: string, value: number, max: number): void {
  if (!Number.isInteger(value) || value < 0 || value > max) throw outOfRange(kind, value, `[0, ${String(max)}]`);
}

/**
 * Appends big-endian fields to a growing buffer.
 *
 * Invariants: every write either appends exactly its bytes or throws without appending anything; a length slot
 * from `reserveLength()` must be patched before `finish()`.
 */
export class ByteWriter {
  #buffer: Uint8Array;
  #view: DataView;
  #length = 0;
  /** Positions of reserved, not yet patched length slots (allocated on first use). */
  #openLengthSlots: number[] | undefined;

  constructor(initialCapacity = 256) {
    checkUnsigned("initialCapacity", initialCapacity, U32_MAX);
    this.#buffer = new Uint8Array(Math.max(16, initialCapacity));
    this.#view = new DataView(this.#buffer.buffer);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.#length;
  }

  /** Size of the current buffer. */
  get capacity(): number {
    return this.#buffer.length;
  }

  /** Grows the buffer for `extra` more bytes and returns where they start. Read `#buffer`/`#view` after this. */
  #ensure(extra: number): number {
    const needed = this.#length + extra;
    if (needed > this.#buffer.length) {
      let capacity = this.#buffer.length * 2;
      while (capacity < needed) capacity *= 2;
      const next = new Uint8Array(capacity);
      next.set(this.#buffer.subarray(0, this.#length));
      this.#buffer = next;
      this.#view = new DataView(next.buffer);
    }
    const at = this.#length;
    this.#length = needed;
    return at;
  }

  writeU8(value: number): this {
    checkUnsigned("u8", value, 0xff);
    const at = this.#ensure(1);
    this.#view.setUint8(at, value);
    return this;
  }

  writeU16(value: number): this {
    checkUnsigned("u16", value, 0xffff);
    const at = this.#ensure(2);
    this.#view.setUint16(at, value);
    return this;
  }

  writeU32(value: number): this {
    checkUnsigned("u32", value, U32_MAX);
    const at = this.#ensure(4);
    this.#view.setUint32(at, value);
    return this;
  }

  writeI32(value: number): this {
    if (!Number.isInteger(value) || value < -0x8000_0000 || value > 0x7fff_ffff) {
      throw outOfRange("i32", value, "[-2147483648, 2147483647]");
    }
    const at = this.#ensure(4);
    this.#view.setInt32(at, value);
    return this;
  }

  /** Unsigned 64-bit field holding a non-negative safe integer (0 .. 2^53-1). */
  writeU64(value: number): this {
    if (!Number.isSafeInteger(value) || value < 0) throw outOfRange("u64", value, "[0, 2^53-1]");
    const at = this.#ensure(8);
    this.#view.setUint32(at, Math.floor(value / TWO_POW_32));
    this.#view.setUint32(at + 4, value % TWO_POW_32);
    return this;
  }

  /** Two's-complement 64-bit field holding a safe integer (-(2^53-1) .. 2^53-1). */
  writeI64(value: number): this {
    if (!Number.isSafeInteger(value)) throw outOfRange("i64", value, "[-(2^53-1), 2^53-1]");
    const at = this.#ensure(8);
    this.#view.setBigInt64(at, BigInt(value));
    return this;
  }

  /** One byte: 1 for true, 0 for false (also the presence flag of optional fields). */
  writeBoolean(value: boolean): this {
    return this.writeU8(value ? 1 : 0);
  }

  /** Raw bytes, no length prefix. The bytes are copied. */
  writeBytes(bytes: Uint8Array): this {
    const at = this.#ensure(bytes.length);
    this.#buffer.set(bytes, at);
    return this;
  }

  /** u32 length followed by the bytes. */
  writeLengthPrefixedBytes(bytes: Uint8Array): this {
    if (bytes.length > U32_MAX) throw outOfRange("byte length", bytes.length, `[0, ${String(U32_MAX)}]`);
    this.writeU32(bytes.length);
    return this.writeBytes(bytes);
  }

  /** Strict UTF-8 without a length prefix (unpaired surrogates throw INVALID_ARGUMENT). */
  writeUtf8(value: string): this {
    if (typeof value === "string" && this.#writeAscii(value, 0)) return this;
    return this.writeBytes(encodeStrictUtf8(value));
  }

  /** u32 byte length followed by strict UTF-8 (unpaired surrogates throw INVALID_ARGUMENT). */
  writeString(value: string): this {
    if (typeof value === "string" && this.#writeAscii(value, 4)) {
      this.#view.setUint32(this.#length - value.length - 4, value.length);
      return this;
    }
    return this.writeLengthPrefixedBytes(encodeStrictUtf8(value));
  }

  /**
   * ASCII fast path (the UTF-8 bytes of ASCII are its code units, and ASCII has no surrogates): writes `value`
   * after `gap` bytes, in place. Returns false and writes nothing when `value` is not ASCII.
   */
  #writeAscii(value: string, gap: number): boolean {
    const count = value.length;
    const at = this.#ensure(gap + count);
    const buffer = this.#buffer;
    const start = at + gap;
    for (let index = 0; index < count; index += 1) {
      const code = value.charCodeAt(index);
      if (code >= 0x80) {
        this.#length = at;
        return false;
      }
      buffer[start + index] = code;
    }
    return true;
  }

  /** Reserves a u32 length slot and returns its position; fill it with `patchLength(position)`. */
  reserveLength(): number {
    const at = this.#ensure(4);
    this.#view.setUint32(at, 0);
    (this.#openLengthSlots ??= []).push(at);
    return at;
  }

  /** Writes into a reserved slot the number of bytes written after it. Each slot is patched exactly once. */
  patchLength(position: number): this {
    const slots = this.#openLengthSlots;
    const index = slots === undefined ? -1 : slots.lastIndexOf(position);
    if (slots === undefined || index < 0) {
      throw new NereusError(ErrorCode.INVALID_ARGUMENT, `no open length slot at position ${String(position)}`);
    }
    slots.splice(index, 1);
    const length = this.#length - position - 4;
    checkUnsigned("patched length", length, U32_MAX);
    this.#view.setUint32(position, length);
    return this;
  }

  /** Overwrites the u32 at `position` (a field already written, e.g. a checksum placeholder). */
  setU32(position: number, value: number): this {
    checkUnsigned("u32", value, U32_MAX);
    if (!Number.isInteger(position) || position < 0 || position + 4 > this.#length) {
      throw new NereusError(ErrorCode.INVALID_ARGUMENT, `no written u32 at position ${String(position)}`);
    }
    this.#view.setUint32(position, value);
    return this;
  }

  /**
   * A view (no copy) of the bytes written in [start, length). Valid only until the next write or `reset()`:
   * hash or checksum it, never retain it.
   */
  view(start = 0): Uint8Array {
    return this.#buffer.subarray(start, this.#length);
  }

  /** Forgets everything written (and every open slot), keeping the buffer for reuse. */
  reset(): void {
    this.#length = 0;
    this.#openLengthSlots = undefined;
  }

  /** Returns a copy of the bytes written so far. Throws if a reserved length slot is still unpatched. */
  finish(): Uint8Array {
    if (this.#openLengthSlots !== undefined && this.#openLengthSlots.length > 0) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `unpatched length slot(s) at position(s) ${this.#openLengthSlots.join(", ")}`,
      );
    }
    return this.#buffer.slice(0, this.#length);
  }
}

let spareScratch: ByteWriter | undefined;

/**
 * Runs `build` with an empty writer that is reused across calls (no buffer allocation per record). The writer
 * and any `view()` of it must not escape `build`; return `finish()` (a copy) or a value computed from the bytes.
 * Reentrant: a nested call gets its own writer.
 */
export function withScratchWriter<T>(build: (writer: ByteWriter) => T): T {
  const writer = spareScratch ?? new ByteWriter(SCRATCH_CAPACITY);
  spareScratch = undefined;
  try {
    return build(writer);
  } finally {
    writer.reset();
    if (writer.capacity <= SCRATCH_MAX_RETAINED) spareScratch = writer;
  }
}
