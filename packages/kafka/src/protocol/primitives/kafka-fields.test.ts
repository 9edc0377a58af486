// Golden bytes and round trips for the Kafka field primitives: fixed-width signed integers, strings, bytes,
// array lengths, UUIDs and the tagged-field section.
import { ByteReader, ByteWriter, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectDecodeError, expectInvalidArgument, hex } from "../../../test/hex.js";
import { readArrayLength, writeArrayLength } from "./array-length.js";
import { readInt16, readInt64BigInt, readInt8, writeInt16, writeInt64BigInt, writeInt8 } from "./fixed-width.js";
import { readKafkaBytes, writeKafkaBytes } from "./kafka-bytes.js";
import { readKafkaString, writeKafkaString } from "./kafka-string.js";
import { readTaggedFields, writeTaggedFields } from "./tagged-fields.js";
import { ZERO_UUID, readUuid, writeUuid } from "./uuid.js";

const STRING = { compact: false, nullable: false };
const NULLABLE_STRING = { compact: false, nullable: true };
const COMPACT_STRING = { compact: true, nullable: false };
const COMPACT_NULLABLE_STRING = { compact: true, nullable: true };

function bytesOf(write: (writer: ByteWriter) => void): string {
  const writer = new ByteWriter();
  write(writer);
  return toHex(writer.finish());
}

describe("fixed-width signed integers", () => {
  it("encodes two's complement big-endian", () => {
    expect(bytesOf((writer) => writeInt8(writer, -1))).toBe("ff");
    expect(bytesOf((writer) => writeInt16(writer, -2))).toBe("fffe");
    expect(bytesOf((writer) => writeInt16(writer, 0x1234))).toBe("1234");
    expect(bytesOf((writer) => writeInt64BigInt(writer, -1n))).toBe("ffffffffffffffff");
    expect(bytesOf((writer) => writeInt64BigInt(writer, 2n ** 63n - 1n))).toBe("7fffffffffffffff");
    expect(readInt8(new ByteReader(hex("80")), "f")).toBe(-128);
    expect(readInt16(new ByteReader(hex("8000")), "f")).toBe(-32768);
    expect(readInt64BigInt(new ByteReader(hex("8000000000000000")), "f")).toBe(-(2n ** 63n));
  });

  it("refuses out-of-range values", () => {
    expectInvalidArgument(() => writeInt8(new ByteWriter(), 128));
    expectInvalidArgument(() => writeInt16(new ByteWriter(), -32769));
    expectInvalidArgument(() => writeInt64BigInt(new ByteWriter(), 2n ** 63n));
    expectDecodeError(() => readInt16(new ByteReader(hex("80")), "f"));
    expectDecodeError(() => readInt64BigInt(new ByteReader(hex("80000000")), "f"));
  });
});

describe("strings", () => {
  it.each([
    [STRING, "abc", "0003 616263"],
    [NULLABLE_STRING, null, "ffff"],
    [NULLABLE_STRING, "", "0000"],
    [COMPACT_STRING, "abc", "04 616263"],
    [COMPACT_NULLABLE_STRING, null, "00"],
    [COMPACT_STRING, "", "01"],
    [STRING, "é", "0002 c3a9"],
  ])("%o %s ⇄ %s", (layout, value, listing) => {
    expect(bytesOf((writer) => writeKafkaString(writer, value, layout))).toBe(toHex(hex(listing)));
    const reader = new ByteReader(hex(listing));
    expect(readKafkaString(reader, "s", layout)).toBe(value);
    expect(reader.remaining).toBe(0);
  });

  it("rejects null where not nullable, negative lengths, truncation and malformed UTF-8", () => {
    expectDecodeError(() => readKafkaString(new ByteReader(hex("ffff")), "s", STRING));
    expectDecodeError(() => readKafkaString(new ByteReader(hex("00")), "s", COMPACT_STRING));
    expectDecodeError(() => readKafkaString(new ByteReader(hex("fffe")), "s", NULLABLE_STRING));
    expectDecodeError(() => readKafkaString(new ByteReader(hex("0005 6162")), "s", STRING));
    expectDecodeError(() => readKafkaString(new ByteReader(hex("0002 c328")), "s", STRING));
    expectInvalidArgument(() => writeKafkaString(new ByteWriter(), null, STRING));
    expectInvalidArgument(() => writeKafkaString(new ByteWriter(), "x".repeat(0x8000), STRING));
  });

  it("round-trips in every layout", () => {
    fc.assert(
      fc.property(fc.option(fc.string({ unit: "grapheme", maxLength: 40 })), fc.boolean(), (value, compact) => {
        const layout = { compact, nullable: true };
        const writer = new ByteWriter();
        writeKafkaString(writer, value, layout);
        const reader = new ByteReader(writer.finish());
        expect(readKafkaString(reader, "s", layout)).toBe(value);
        expect(reader.remaining).toBe(0);
      }),
    );
  });
});

describe("bytes", () => {
  it.each([
    [NULLABLE_STRING, new Uint8Array([1, 2]), "00000002 0102"],
    [NULLABLE_STRING, null, "ffffffff"],
    [COMPACT_NULLABLE_STRING, new Uint8Array([1, 2]), "03 0102"],
    [COMPACT_NULLABLE_STRING, null, "00"],
  ])("%o %o ⇄ %s", (layout, value, listing) => {
    expect(bytesOf((writer) => writeKafkaBytes(writer, value, layout))).toBe(toHex(hex(listing)));
    expect(readKafkaBytes(new ByteReader(hex(listing)), "b", layout)).toEqual(value);
  });

  it("returns a view into the input and rejects bad lengths", () => {
    const input = hex("00000002 0102 ff");
    const view = readKafkaBytes(new ByteReader(input), "b", STRING);
    expect(view?.buffer).toBe(input.buffer);
    expectDecodeError(() => readKafkaBytes(new ByteReader(hex("ffffffff")), "b", STRING));
    expectDecodeError(() => readKafkaBytes(new ByteReader(hex("fffffffe")), "b", NULLABLE_STRING));
    expectDecodeError(() => readKafkaBytes(new ByteReader(hex("7fffffff 00")), "b", STRING));
  });
});

describe("array lengths", () => {
  it("encodes int32 and compact forms, with null markers", () => {
    expect(bytesOf((writer) => writeArrayLength(writer, 2, STRING))).toBe("00000002");
    expect(bytesOf((writer) => writeArrayLength(writer, null, NULLABLE_STRING))).toBe("ffffffff");
    expect(bytesOf((writer) => writeArrayLength(writer, 2, COMPACT_STRING))).toBe("03");
    expect(bytesOf((writer) => writeArrayLength(writer, null, COMPACT_NULLABLE_STRING))).toBe("00");
    expect(readArrayLength(new ByteReader(hex("00000001 00")), "a", STRING)).toBe(1);
    expect(readArrayLength(new ByteReader(hex("00")), "a", COMPACT_NULLABLE_STRING)).toBeNull();
  });

  it("rejects counts larger than the bytes left, so hostile counts cannot allocate or spin", () => {
    expectDecodeError(() => readArrayLength(new ByteReader(hex("7fffffff 0000")), "a", STRING));
    expectDecodeError(() => readArrayLength(new ByteReader(hex("ffffffff")), "a", STRING));
    expectDecodeError(() => readArrayLength(new ByteReader(hex("80000000")), "a", NULLABLE_STRING));
  });
});

describe("uuid", () => {
  it("reads and writes 16 raw bytes as a hyphenated lowercase string", () => {
    const id = "0123456789ab-cdef-0123-456789abcdef".replace(/^(.{8})(.{4})-/, "$1-$2-");
    expect(id).toBe("01234567-89ab-cdef-0123-456789abcdef");
    expect(bytesOf((writer) => writeUuid(writer, id.toUpperCase()))).toBe("0123456789abcdef0123456789abcdef");
    expect(readUuid(new ByteReader(hex("0123456789abcdef0123456789abcdef")), "u")).toBe(id);
    expect(readUuid(new ByteReader(new Uint8Array(16)), "u")).toBe(ZERO_UUID);
    expectInvalidArgument(() => writeUuid(new ByteWriter(), "not-a-uuid"));
    expectDecodeError(() => readUuid(new ByteReader(new Uint8Array(15)), "u"));
  });
});

describe("tagged fields", () => {
  it("writes in ascending tag order and reads raw views back", () => {
    const listing = "02 00 01 aa 03 02 bbcc";
    expect(
      bytesOf((writer) =>
        writeTaggedFields(writer, [
          { tag: 3, data: hex("bbcc") },
          { tag: 0, data: hex("aa") },
        ]),
      ),
    ).toBe(toHex(hex(listing)));
    expect(readTaggedFields(new ByteReader(hex(listing)), "t")).toEqual([
      { tag: 0, data: hex("aa") },
      { tag: 3, data: hex("bbcc") },
    ]);
    expect(bytesOf((writer) => writeTaggedFields(writer, []))).toBe("00");
  });

  it("rejects repeated tags, oversized sizes and hostile counts", () => {
    expectDecodeError(() => readTaggedFields(new ByteReader(hex("02 01 00 01 00")), "t"));
    expectDecodeError(() => readTaggedFields(new ByteReader(hex("01 00 05 aa")), "t"));
    expectDecodeError(() => readTaggedFields(new ByteReader(hex("ffffffff0f")), "t"));
    expectInvalidArgument(() =>
      writeTaggedFields(new ByteWriter(), [
        { tag: 1, data: hex("") },
        { tag: 1, data: hex("") },
      ]),
    );
  });
});
