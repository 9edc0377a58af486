// Bounds-checked big-endian reader for durable binary formats. Every failure is a NereusError(DECODE_ERROR)
// naming the context, the field and the byte offset. Byte fields are views into the input (copy before retaining);
// the reader never copies or mutates its input.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { decodeStrictUtf8 } from "./strict-utf8.js";

const TWO_POW_32 = 0x1_0000_0000;
const MAX_SAFE_HIGH_WORD = 0x1f_ffff;

/**
 * Reads fields in order from a byte array.
 *
 * Invariants: a failed read throws and leaves `offset` unchanged; `expectEnd()` rejects trailing bytes; 64-bit
 * fields outside the safe-integer range are rejected (fail closed), never rounded.
 */
export class ByteReader {
  readonly #bytes: Uint8Array;
  readonly #view: DataView;
  readonly #context: string;
  #offset = 0;

  /** `context` prefixes every error message (e.g. "StreamHead payload"). */
  constructor(bytes: Uint8Array, context = "input") {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#context = context;
  }

  /** Position of the next unread byte. */
  get offset(): number {
    return this.#offset;
  }

  get remaining(): number {
    return this.#bytes.length - this.#offset;
  }

  /** A DECODE_ERROR naming `field` at byte `offset` (defaults to the current position), for codecs to throw. */
  error(field: string, reason: string, offset: number = this.#offset, cause?: unknown): NereusError {
    return new NereusError(
      ErrorCode.DECODE_ERROR,
      `${this.#context}: ${field} at byte offset ${String(offset)}: ${reason}`,
      {
        cause,
        details: { context: this.#context, field, offset },
      },
    );
  }

  #take(size: number, field: string, kind: string): number {
    if (this.remaining < size) {
      throw this.error(field, `truncated ${kind}: needs ${String(size)} byte(s), ${String(this.remaining)} remain`);
    }
    const at = this.#offset;
    this.#offset += size;
    return at;
  }

  readU8(field: string): number {
    return this.#view.getUint8(this.#take(1, field, "u8"));
  }

  readU16(field: string): number {
    return this.#view.getUint16(this.#take(2, field, "u16"));
  }

  readU32(field: string): number {
    return this.#view.getUint32(this.#take(4, field, "u32"));
  }

  readI32(field: string): number {
    return this.#view.getInt32(this.#take(4, field, "i32"));
  }

  /** Unsigned 64-bit field; values above 2^53-1 are rejected. */
  readU64(field: string): number {
    if (this.remaining >= 8 && this.#view.getUint32(this.#offset) > MAX_SAFE_HIGH_WORD) {
      throw this.error(field, "u64 value exceeds the safe-integer range");
    }
    const at = this.#take(8, field, "u64");
    return this.#view.getUint32(at) * TWO_POW_32 + this.#view.getUint32(at + 4);
  }

  /** Two's-complement 64-bit field; values outside ±(2^53-1) are rejected. */
  readI64(field: string): number {
    if (this.remaining >= 8) {
      const value = this.#view.getBigInt64(this.#offset);
      if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
        throw this.error(field, "i64 value exceeds the safe-integer range");
      }
    }
    return Number(this.#view.getBigInt64(this.#take(8, field, "i64")));
  }

  /** One byte that must be exactly 0 or 1. */
  readBoolean(field: string): boolean {
    if (this.remaining >= 1) {
      const flag = this.#view.getUint8(this.#offset);
      if (flag > 1) throw this.error(field, `boolean/presence byte must be 0 or 1, got ${String(flag)}`);
    }
    return this.#view.getUint8(this.#take(1, field, "boolean")) === 1;
  }

  /** `length` raw bytes as a view into the input. */
  readBytes(length: number, field: string): Uint8Array {
    const at = this.#take(length, field, "bytes");
    return this.#bytes.subarray(at, at + length);
  }

  /** u32 length then that many bytes (a view into the input). */
  readLengthPrefixedBytes(field: string): Uint8Array {
    const start = this.#offset;
    const length = this.readU32(field);
    if (this.remaining < length) {
      this.#offset = start;
      throw this.error(
        field,
        `truncated bytes: length prefix ${String(length)} exceeds ${String(this.remaining)} remaining byte(s) after it`,
        start,
      );
    }
    return this.readBytes(length, field);
  }

  /** u32 byte length then strict UTF-8. */
  readString(field: string): string {
    const start = this.#offset;
    const bytes = this.readLengthPrefixedBytes(field);
    try {
      return decodeStrictUtf8(bytes, field);
    } catch (cause) {
      this.#offset = start;
      throw this.error(field, "string is not well-formed UTF-8", start, cause);
    }
  }

  /** Consumes `expected.length` bytes and requires them to equal `expected` (magic numbers, tags). */
  expectBytes(expected: Uint8Array, field: string): void {
    const start = this.#offset;
    const actual = this.readBytes(expected.length, field);
    for (let index = 0; index < expected.length; index += 1) {
      if (actual[index] !== expected[index]) {
        this.#offset = start;
        throw this.error(field, "unexpected bytes", start);
      }
    }
  }

  /** Throws when unread bytes remain. */
  expectEnd(): void {
    if (this.remaining !== 0) {
      throw this.error("end of input", `${String(this.remaining)} trailing byte(s)`);
    }
  }
}
