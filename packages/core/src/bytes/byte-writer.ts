// Growable big-endian writer for durable binary formats. Integers are JS numbers checked as safe integers
// (anything out of range throws INVALID_ARGUMENT, never wraps); strings are u32-length-prefixed strict UTF-8.
// Does not validate record semantics; codecs do. `finish()` returns a fresh copy; the writer keeps its buffer.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { encodeStrictUtf8 } from "./strict-utf8.js";

const U32_MAX = 0xffff_ffff;
const TWO_POW_32 = 0x1_0000_0000;

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
  readonly #openLengthSlots = new Set<number>();

  constructor(initialCapacity = 256) {
    checkUnsigned("initialCapacity", initialCapacity, U32_MAX);
    this.#buffer = new Uint8Array(Math.max(16, initialCapacity));
    this.#view = new DataView(this.#buffer.buffer);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.#length;
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

  /** u32 byte length followed by strict UTF-8 (unpaired surrogates throw INVALID_ARGUMENT). */
  writeString(value: string): this {
    return this.writeLengthPrefixedBytes(encodeStrictUtf8(value));
  }

  /** Reserves a u32 length slot and returns its position; fill it with `patchLength(position)`. */
  reserveLength(): number {
    const at = this.#ensure(4);
    this.#view.setUint32(at, 0);
    this.#openLengthSlots.add(at);
    return at;
  }

  /** Writes into a reserved slot the number of bytes written after it. Each slot is patched exactly once. */
  patchLength(position: number): this {
    if (!this.#openLengthSlots.delete(position)) {
      throw new NereusError(ErrorCode.INVALID_ARGUMENT, `no open length slot at position ${String(position)}`);
    }
    const length = this.#length - position - 4;
    checkUnsigned("patched length", length, U32_MAX);
    this.#view.setUint32(position, length);
    return this;
  }

  /** Returns a copy of the bytes written so far. Throws if a reserved length slot is still unpatched. */
  finish(): Uint8Array {
    if (this.#openLengthSlots.size > 0) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `unpatched length slot(s) at position(s) ${[...this.#openLengthSlots].join(", ")}`,
      );
    }
    return this.#buffer.slice(0, this.#length);
  }
}
