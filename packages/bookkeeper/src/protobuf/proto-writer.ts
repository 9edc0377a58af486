// Minimal proto2 encoder: varints (int32/int64/uint64/enum/bool), fixed64, length-delimited bytes, strings and
// nested messages. Large byte fields are kept by reference (no copy) until `finish()`/`chunks()`, so an entry
// payload is copied at most once on its way to the socket. The caller must not mutate a referenced byte array
// before the writer is finished. Knows nothing about any schema; fields are written in the order called.
import { ErrorCode, NereusError, encodeStrictUtf8 } from "@nereus/core";
import { WireType } from "./wire-type.js";

/** Byte fields at least this long are referenced instead of copied. */
const REFERENCE_THRESHOLD = 256;
const TWO_POW_64 = 1n << 64n;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = TWO_POW_64 - 1n;

function invalid(message: string, details: Record<string, unknown>): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { details });
}

/**
 * Appends protobuf fields to a message.
 *
 * Invariants: every write appends exactly one complete field or throws without appending; `length` is always the
 * encoded size of the fields written so far, so a writer can be nested into another with its length prefix.
 */
export class ProtoWriter {
  readonly #chunks: Uint8Array[] = [];
  #scratch = new Uint8Array(64);
  #scratchStart = 0;
  #scratchEnd = 0;
  #length = 0;

  /** Encoded size in bytes of everything written so far. */
  get length(): number {
    return this.#length;
  }

  #reserve(size: number): void {
    if (this.#scratchEnd + size <= this.#scratch.length) return;
    this.#flushScratch();
    this.#scratch = new Uint8Array(Math.max(64, size, this.#scratch.length * 2));
    this.#scratchStart = 0;
    this.#scratchEnd = 0;
  }

  #flushScratch(): void {
    if (this.#scratchEnd > this.#scratchStart) {
      this.#chunks.push(this.#scratch.subarray(this.#scratchStart, this.#scratchEnd));
      this.#scratchStart = this.#scratchEnd;
    }
  }

  #putByte(value: number): void {
    this.#scratch[this.#scratchEnd] = value;
    this.#scratchEnd += 1;
    this.#length += 1;
  }

  /** Raw varint of a non-negative number below 2^53 or a bigint in [0, 2^64). */
  #putVarint(value: number | bigint): void {
    this.#reserve(10);
    if (typeof value === "number") {
      let remaining = value;
      while (remaining >= 0x80) {
        this.#putByte((remaining % 0x80) | 0x80);
        remaining = Math.floor(remaining / 0x80);
      }
      this.#putByte(remaining);
      return;
    }
    let remaining = value;
    while (remaining >= 0x80n) {
      this.#putByte(Number(remaining & 0x7fn) | 0x80);
      remaining >>= 7n;
    }
    this.#putByte(Number(remaining));
  }

  #putTag(field: number, wireType: WireType): void {
    if (!Number.isInteger(field) || field < 1 || field > 0x1fff_ffff) {
      throw invalid(`protobuf field number ${String(field)} is out of range`, { field });
    }
    this.#putVarint(field * 8 + wireType);
  }

  #putBytes(bytes: Uint8Array): void {
    if (bytes.length >= REFERENCE_THRESHOLD) {
      this.#flushScratch();
      this.#chunks.push(bytes);
      this.#length += bytes.length;
      return;
    }
    this.#reserve(bytes.length);
    this.#scratch.set(bytes, this.#scratchEnd);
    this.#scratchEnd += bytes.length;
    this.#length += bytes.length;
  }

  /** `uint32`/`uint64` field from a non-negative safe integer or a bigint below 2^64. */
  uint64(field: number, value: number | bigint): this {
    if (typeof value === "number" ? !Number.isSafeInteger(value) || value < 0 : value < 0n || value > UINT64_MAX) {
      throw invalid(`uint64 field ${String(field)} value ${String(value)} is out of range`, { field });
    }
    this.#putTag(field, WireType.VARINT);
    this.#putVarint(value);
    return this;
  }

  /** `int32`/`int64`/enum field; negative values take ten bytes (two's complement, sign-extended to 64 bits). */
  int64(field: number, value: number | bigint): this {
    const big = typeof value === "bigint" ? value : BigInt(value);
    if (typeof value === "number" && !Number.isSafeInteger(value)) {
      throw invalid(`int64 field ${String(field)} value ${String(value)} is not a safe integer`, { field });
    }
    if (big < INT64_MIN || big > INT64_MAX) {
      throw invalid(`int64 field ${String(field)} value ${String(value)} is out of range`, { field });
    }
    this.#putTag(field, WireType.VARINT);
    this.#putVarint(big < 0n ? big + TWO_POW_64 : typeof value === "number" ? value : big);
    return this;
  }

  /** `int32` or enum field (same encoding as int64; range-checked to 32 bits). */
  int32(field: number, value: number): this {
    if (!Number.isInteger(value) || value < -0x8000_0000 || value > 0x7fff_ffff) {
      throw invalid(`int32 field ${String(field)} value ${String(value)} is out of range`, { field });
    }
    return this.int64(field, value);
  }

  bool(field: number, value: boolean): this {
    this.#putTag(field, WireType.VARINT);
    this.#reserve(1);
    this.#putByte(value ? 1 : 0);
    return this;
  }

  /** `fixed64`/`sfixed64` field (eight little-endian bytes). */
  fixed64(field: number, value: bigint): this {
    if (value < INT64_MIN || value > UINT64_MAX) {
      throw invalid(`fixed64 field ${String(field)} value ${String(value)} is out of range`, { field });
    }
    this.#putTag(field, WireType.FIXED64);
    this.#reserve(8);
    new DataView(this.#scratch.buffer, this.#scratch.byteOffset).setBigUint64(
      this.#scratchEnd,
      BigInt.asUintN(64, value),
      true,
    );
    this.#scratchEnd += 8;
    this.#length += 8;
    return this;
  }

  /** `bytes` field; arrays of 256 bytes or more are referenced, not copied. */
  bytes(field: number, value: Uint8Array): this {
    this.#putTag(field, WireType.LENGTH_DELIMITED);
    this.#putVarint(value.length);
    this.#putBytes(value);
    return this;
  }

  /** One `bytes` field whose value is the concatenation of `parts` (encoded without concatenating them). */
  bytesFromParts(field: number, parts: readonly Uint8Array[]): this {
    let total = 0;
    for (const part of parts) total += part.length;
    this.#putTag(field, WireType.LENGTH_DELIMITED);
    this.#putVarint(total);
    for (const part of parts) this.#putBytes(part);
    return this;
  }

  /** `string` field as strict UTF-8 (lone surrogates throw INVALID_ARGUMENT). */
  string(field: number, value: string): this {
    return this.bytes(field, encodeStrictUtf8(value, `protobuf field ${String(field)}`));
  }

  /** Embedded message field: the nested writer's fields, length-prefixed. The nested writer must not be reused. */
  message(field: number, nested: ProtoWriter): this {
    this.#putTag(field, WireType.LENGTH_DELIMITED);
    this.#putVarint(nested.length);
    this.#flushScratch();
    for (const chunk of nested.chunks()) this.#chunks.push(chunk);
    this.#length += nested.length;
    return this;
  }

  /** The encoded message as a list of byte arrays (views; large byte fields are the caller's own arrays). */
  chunks(): Uint8Array[] {
    this.#flushScratch();
    return this.#chunks.slice();
  }

  /** The encoded message as one fresh byte array. */
  finish(): Uint8Array {
    const out = new Uint8Array(this.#length);
    let at = 0;
    for (const chunk of this.chunks()) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }
}
