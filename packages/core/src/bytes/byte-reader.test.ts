import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { ByteReader } from "./byte-reader.js";
import { fromHex } from "./hex.js";

function decodeError(action: () => unknown): NereusError {
  try {
    action();
  } catch (error) {
    if (NereusError.hasCode(error, ErrorCode.DECODE_ERROR)) return error;
    throw error;
  }
  throw new Error("expected DECODE_ERROR");
}

describe("ByteReader", () => {
  test("reads big-endian fields and tracks the offset", () => {
    const reader = new ByteReader(fromHex("ab1234deadbeeffffffffe001fffffffffffffffffffffffffffff0100"));
    expect(reader.readU8("a")).toBe(0xab);
    expect(reader.readU16("b")).toBe(0x1234);
    expect(reader.readU32("c")).toBe(0xdeadbeef);
    expect(reader.readI32("d")).toBe(-2);
    expect(reader.readU64("e")).toBe(Number.MAX_SAFE_INTEGER);
    expect(reader.offset).toBe(19);
    expect(reader.readI64("f")).toBe(-1);
    expect(reader.readBoolean("g")).toBe(true);
    expect(reader.readBoolean("h")).toBe(false);
    expect(reader.remaining).toBe(0);
    reader.expectEnd();
  });

  test("truncation names the context, field and byte offset and leaves the offset unchanged", () => {
    const reader = new ByteReader(fromHex("010203"), "Test payload");
    reader.readU8("first");
    const error = decodeError(() => reader.readU32("count"));
    expect(error.message).toBe("Test payload: count at byte offset 1: truncated u32: needs 4 byte(s), 2 remain");
    expect(error.details).toMatchObject({ field: "count", offset: 1, context: "Test payload" });
    expect(error.retryable).toBe(false);
    expect(reader.offset).toBe(1);
    expect(reader.readU16("rest")).toBe(0x0203);
  });

  test("64-bit values outside the safe-integer range fail closed", () => {
    expect(decodeError(() => new ByteReader(fromHex("0020000000000000")).readU64("size")).message).toContain(
      "size at byte offset 0: u64 value exceeds the safe-integer range",
    );
    decodeError(() => new ByteReader(fromHex("ffffffffffffffff")).readU64("size"));
    decodeError(() => new ByteReader(fromHex("0020000000000000")).readI64("delta"));
    decodeError(() => new ByteReader(fromHex("ffe0000000000000")).readI64("delta"));
    expect(new ByteReader(fromHex("ffe0000000000001")).readI64("delta")).toBe(Number.MIN_SAFE_INTEGER);
  });

  test("boolean bytes other than 0/1 are rejected", () => {
    expect(decodeError(() => new ByteReader(fromHex("02")).readBoolean("present")).message).toContain("must be 0 or 1");
  });

  test("length prefixes larger than the input are rejected before allocating", () => {
    const reader = new ByteReader(fromHex("ffffffff00"));
    expect(decodeError(() => reader.readLengthPrefixedBytes("payload")).message).toContain("payload at byte offset 0");
    expect(reader.offset).toBe(0);
  });

  test("strings are strict UTF-8 and keep a leading BOM", () => {
    expect(new ByteReader(fromHex("00000003efbbbf")).readString("s")).toBe("\uFEFF");
    for (const bad of ["00000001ff", "00000002c0af", "00000003eda080", "00000001c3"]) {
      const error = decodeError(() => new ByteReader(fromHex(bad)).readString("name"));
      expect(error.message).toContain("name at byte offset 0: string is not well-formed UTF-8");
    }
  });

  test("byte fields are views into the input", () => {
    const input = fromHex("000000020102");
    const view = new ByteReader(input).readLengthPrefixedBytes("b");
    input[4] = 9;
    expect([...view]).toEqual([9, 2]);
  });

  test("expectBytes checks magic numbers; expectEnd rejects trailing bytes", () => {
    const reader = new ByteReader(fromHex("4e524d3100"));
    decodeError(() => reader.expectBytes(fromHex("4e524d32"), "magic"));
    expect(reader.offset).toBe(0);
    reader.expectBytes(fromHex("4e524d31"), "magic");
    expect(decodeError(() => reader.expectEnd()).message).toContain("1 trailing byte(s)");
  });

  test("reads over a subarray honour its byteOffset", () => {
    const backing = fromHex("ff0000002aff");
    expect(new ByteReader(backing.subarray(1, 5)).readU32("x")).toBe(42);
  });

  test("property: arbitrary input never escapes as anything but DECODE_ERROR", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const reader = new ByteReader(bytes);
        try {
          while (reader.remaining > 0) {
            reader.readString("s");
            reader.readU64("n");
            reader.readBoolean("b");
          }
        } catch (error) {
          expect(NereusError.hasCode(error, ErrorCode.DECODE_ERROR)).toBe(true);
        }
      }),
    );
  });
});
