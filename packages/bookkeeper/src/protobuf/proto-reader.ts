// Minimal proto2 decoder: walks the fields of one message, decodes varint/fixed/length-delimited values and
// skips fields the caller does not know (including groups). Byte values are views into the input (copy before
// retaining). Every malformed input throws NereusError(DECODE_ERROR) naming the message and the byte offset.
import { ErrorCode, NereusError, decodeStrictUtf8 } from "@nereus/core";
import { WireType } from "./wire-type.js";

const TWO_POW_63 = 1n << 63n;
const TWO_POW_64 = 1n << 64n;
const MAX_GROUP_DEPTH = 32;

/** One field tag: its number and wire type. */
export interface ProtoTag {
  readonly field: number;
  readonly wireType: WireType;
}

/**
 * Reads the fields of one protobuf message in wire order.
 *
 * Invariants: `next()` returns the next tag or `undefined` exactly at the end of the message; after a tag the
 * caller reads its value with the method matching the schema or calls `skip()`; a value whose wire type does not
 * match the method throws DECODE_ERROR instead of misreading.
 */
export class ProtoReader {
  readonly #bytes: Uint8Array;
  readonly #context: string;
  #offset = 0;
  #tag: ProtoTag | undefined;

  /** `context` names the message in error messages (e.g. "Response.readResponse"). */
  constructor(bytes: Uint8Array, context: string) {
    this.#bytes = bytes;
    this.#context = context;
  }

  /** Offset of the next unread byte. */
  get offset(): number {
    return this.#offset;
  }

  /** A DECODE_ERROR for this message at `offset` (defaults to the current position). */
  error(reason: string, offset = this.#offset): NereusError {
    return new NereusError(ErrorCode.DECODE_ERROR, `${this.#context}: byte offset ${String(offset)}: ${reason}`, {
      details: { context: this.#context, offset },
    });
  }

  /** The next field tag, or `undefined` at the end of the message. */
  next(): ProtoTag | undefined {
    if (this.#offset >= this.#bytes.length) {
      this.#tag = undefined;
      return undefined;
    }
    const start = this.#offset;
    const key = this.#varint();
    const field = Number(key >> 3n);
    const wireType = Number(key & 7n);
    if (field < 1 || field > 0x1fff_ffff) throw this.error(`invalid field number ${String(field)}`, start);
    if (wireType > 5) throw this.error(`invalid wire type ${String(wireType)} for field ${String(field)}`, start);
    this.#tag = { field, wireType: wireType as WireType };
    return this.#tag;
  }

  #expect(wireType: WireType, kind: string): ProtoTag {
    const tag = this.#tag;
    if (tag === undefined) throw this.error(`${kind} read without a field tag`);
    if (tag.wireType !== wireType) {
      throw this.error(`field ${String(tag.field)} has wire type ${String(tag.wireType)}, expected ${kind}`);
    }
    return tag;
  }

  #varint(): bigint {
    let result = 0n;
    let shift = 0n;
    const start = this.#offset;
    for (let index = 0; index < 10; index += 1) {
      const byte = this.#bytes[this.#offset];
      if (byte === undefined) throw this.error("truncated varint", start);
      this.#offset += 1;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) {
        if (index === 9 && byte > 1) throw this.error("varint exceeds 64 bits", start);
        return result;
      }
      shift += 7n;
    }
    throw this.error("varint longer than 10 bytes", start);
  }

  /** Unsigned 64-bit varint value (`uint64`, `uint32`). */
  uint64(): bigint {
    this.#expect(WireType.VARINT, "varint");
    return this.#varint();
  }

  /** Signed 64-bit varint value (`int64`, `int32`, enums): two's complement. */
  int64(): bigint {
    this.#expect(WireType.VARINT, "varint");
    const raw = this.#varint();
    return raw >= TWO_POW_63 ? raw - TWO_POW_64 : raw;
  }

  /** `int32` or enum value; values outside 32 bits throw. */
  int32(): number {
    const start = this.#offset;
    const value = this.int64();
    if (value < -0x8000_0000n || value > 0x7fff_ffffn) throw this.error("int32 value out of range", start);
    return Number(value);
  }

  /** `int64` value that must be a safe integer (entry ids, lengths); anything else throws. */
  safeInt64(): number {
    const start = this.#offset;
    const value = this.int64();
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw this.error("int64 value exceeds the safe-integer range", start);
    }
    return Number(value);
  }

  bool(): boolean {
    this.#expect(WireType.VARINT, "varint");
    return this.#varint() !== 0n;
  }

  /** `fixed64` value as an unsigned bigint. */
  fixed64(): bigint {
    this.#expect(WireType.FIXED64, "fixed64");
    const view = this.#take(8);
    return new DataView(view.buffer, view.byteOffset, 8).getBigUint64(0, true);
  }

  /** `fixed32` value as an unsigned number. */
  fixed32(): number {
    this.#expect(WireType.FIXED32, "fixed32");
    const view = this.#take(4);
    return new DataView(view.buffer, view.byteOffset, 4).getUint32(0, true);
  }

  #take(length: number): Uint8Array {
    if (this.#bytes.length - this.#offset < length) {
      throw this.error(
        `truncated value: needs ${String(length)} byte(s), ${String(this.#bytes.length - this.#offset)} remain`,
      );
    }
    const at = this.#offset;
    this.#offset += length;
    return this.#bytes.subarray(at, at + length);
  }

  #lengthDelimited(): Uint8Array {
    const start = this.#offset;
    const length = this.#varint();
    if (length > BigInt(this.#bytes.length - this.#offset)) {
      throw this.error(
        `length ${String(length)} exceeds the ${String(this.#bytes.length - this.#offset)} remaining byte(s)`,
        start,
      );
    }
    return this.#take(Number(length));
  }

  /** `bytes` value as a view into the input. */
  bytes(): Uint8Array {
    this.#expect(WireType.LENGTH_DELIMITED, "length-delimited");
    return this.#lengthDelimited();
  }

  /** `string` value; malformed UTF-8 throws. */
  string(): string {
    const tag = this.#expect(WireType.LENGTH_DELIMITED, "length-delimited");
    return decodeStrictUtf8(this.#lengthDelimited(), `${this.#context} field ${String(tag.field)}`);
  }

  /** Embedded message value: a reader over its bytes. */
  message(context: string): ProtoReader {
    return new ProtoReader(this.bytes(), `${this.#context}.${context}`);
  }

  /** Skips the value of the current field, whatever its wire type (groups included). */
  skip(): void {
    const tag = this.#tag;
    if (tag === undefined) throw this.error("skip without a field tag");
    this.#skipValue(tag, 0);
  }

  #skipValue(tag: ProtoTag, depth: number): void {
    switch (tag.wireType) {
      case WireType.VARINT:
        this.#varint();
        return;
      case WireType.FIXED64:
        this.#take(8);
        return;
      case WireType.LENGTH_DELIMITED:
        this.#lengthDelimited();
        return;
      case WireType.FIXED32:
        this.#take(4);
        return;
      case WireType.START_GROUP: {
        if (depth >= MAX_GROUP_DEPTH) throw this.error("groups nested too deeply");
        for (;;) {
          const inner = this.next();
          if (inner === undefined) throw this.error(`unterminated group ${String(tag.field)}`);
          if (inner.wireType === WireType.END_GROUP) {
            if (inner.field !== tag.field)
              throw this.error(`group ${String(tag.field)} closed by ${String(inner.field)}`);
            return;
          }
          this.#skipValue(inner, depth + 1);
        }
      }
      case WireType.END_GROUP:
        throw this.error(`unexpected end of group ${String(tag.field)}`);
    }
  }
}
