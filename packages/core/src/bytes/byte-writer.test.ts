import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { ByteReader } from "./byte-reader.js";
import { ByteWriter } from "./byte-writer.js";
import { toHex } from "./hex.js";

function invalidArgument(action: () => unknown): void {
  try {
    action();
  } catch (error) {
    expect(NereusError.hasCode(error, ErrorCode.INVALID_ARGUMENT)).toBe(true);
    return;
  }
  throw new Error("expected INVALID_ARGUMENT");
}

describe("ByteWriter", () => {
  test("writes big-endian fields with the documented widths", () => {
    const bytes = new ByteWriter(1)
      .writeU8(0xab)
      .writeU16(0x1234)
      .writeU32(0xdeadbeef)
      .writeI32(-2)
      .writeU64(2 ** 53 - 1)
      .writeI64(-1)
      .writeBoolean(true)
      .writeBoolean(false)
      .writeBytes(new Uint8Array([9, 8]))
      .writeLengthPrefixedBytes(new Uint8Array([7]))
      .writeString("é")
      .finish();
    expect(toHex(bytes)).toBe(
      "ab" +
        "1234" +
        "deadbeef" +
        "fffffffe" +
        "001fffffffffffff" +
        "ffffffffffffffff" +
        "01" +
        "00" +
        "0908" +
        "0000000107" +
        "00000002c3a9",
    );
  });

  test("u64 splits high and low words exactly", () => {
    expect(toHex(new ByteWriter().writeU64(0x1_0000_0001).finish())).toBe("0000000100000001");
    expect(toHex(new ByteWriter().writeI64(Number.MIN_SAFE_INTEGER).finish())).toBe("ffe0000000000001");
  });

  test("rejects values that would wrap or round", () => {
    const writer = new ByteWriter();
    invalidArgument(() => writer.writeU8(256));
    invalidArgument(() => writer.writeU8(-1));
    invalidArgument(() => writer.writeU16(0x10000));
    invalidArgument(() => writer.writeU32(2 ** 32));
    invalidArgument(() => writer.writeU32(1.5));
    invalidArgument(() => writer.writeI32(2 ** 31));
    invalidArgument(() => writer.writeU64(2 ** 53));
    invalidArgument(() => writer.writeU64(-1));
    invalidArgument(() => writer.writeU64(Number.NaN));
    invalidArgument(() => writer.writeI64(-(2 ** 53)));
    invalidArgument(() => writer.writeString("\uD800x"));
    expect(writer.length).toBe(0);
  });

  test("reserveLength/patchLength fill in the number of bytes written after the slot", () => {
    const writer = new ByteWriter();
    const outer = writer.reserveLength();
    writer.writeU8(1);
    const inner = writer.reserveLength();
    writer.writeU16(2);
    writer.patchLength(inner);
    writer.patchLength(outer);
    expect(toHex(writer.finish())).toBe("00000007" + "01" + "00000002" + "0002");
  });

  test("a slot can be patched once and must be patched before finish", () => {
    const writer = new ByteWriter();
    const slot = writer.reserveLength();
    invalidArgument(() => writer.finish());
    writer.patchLength(slot);
    invalidArgument(() => writer.patchLength(slot));
    invalidArgument(() => writer.patchLength(3));
    expect(writer.finish()).toEqual(new Uint8Array(4));
  });

  test("finish returns a copy that later writes do not change", () => {
    const writer = new ByteWriter().writeU8(1);
    const first = writer.finish();
    writer.writeU8(2);
    expect([...first]).toEqual([1]);
    expect([...writer.finish()]).toEqual([1, 2]);
  });

  test("property: every field sequence round-trips through ByteReader", () => {
    const field = fc.oneof(
      fc.record({ kind: fc.constant("u8" as const), value: fc.integer({ min: 0, max: 0xff }) }),
      fc.record({ kind: fc.constant("u16" as const), value: fc.integer({ min: 0, max: 0xffff }) }),
      fc.record({ kind: fc.constant("u32" as const), value: fc.integer({ min: 0, max: 0xffff_ffff }) }),
      fc.record({ kind: fc.constant("i32" as const), value: fc.integer({ min: -0x8000_0000, max: 0x7fff_ffff }) }),
      fc.record({ kind: fc.constant("u64" as const), value: fc.maxSafeNat() }),
      fc.record({ kind: fc.constant("i64" as const), value: fc.maxSafeInteger() }),
      fc.record({ kind: fc.constant("bool" as const), value: fc.boolean() }),
      fc.record({ kind: fc.constant("bytes" as const), value: fc.uint8Array({ maxLength: 40 }) }),
      fc.record({ kind: fc.constant("string" as const), value: fc.string({ unit: "grapheme", maxLength: 20 }) }),
    );
    fc.assert(
      fc.property(fc.array(field, { maxLength: 30 }), (fields) => {
        const writer = new ByteWriter(1);
        for (const item of fields) {
          switch (item.kind) {
            case "u8":
              writer.writeU8(item.value);
              break;
            case "u16":
              writer.writeU16(item.value);
              break;
            case "u32":
              writer.writeU32(item.value);
              break;
            case "i32":
              writer.writeI32(item.value);
              break;
            case "u64":
              writer.writeU64(item.value);
              break;
            case "i64":
              writer.writeI64(item.value);
              break;
            case "bool":
              writer.writeBoolean(item.value);
              break;
            case "bytes":
              writer.writeLengthPrefixedBytes(item.value);
              break;
            case "string":
              writer.writeString(item.value);
              break;
          }
        }
        const reader = new ByteReader(writer.finish());
        const decoded = fields.map((item) => {
          switch (item.kind) {
            case "u8":
              return { kind: item.kind, value: reader.readU8("f") };
            case "u16":
              return { kind: item.kind, value: reader.readU16("f") };
            case "u32":
              return { kind: item.kind, value: reader.readU32("f") };
            case "i32":
              return { kind: item.kind, value: reader.readI32("f") };
            case "u64":
              return { kind: item.kind, value: reader.readU64("f") };
            case "i64":
              return { kind: item.kind, value: reader.readI64("f") };
            case "bool":
              return { kind: item.kind, value: reader.readBoolean("f") };
            case "bytes":
              return { kind: item.kind, value: new Uint8Array(reader.readLengthPrefixedBytes("f")) };
            case "string":
              return { kind: item.kind, value: reader.readString("f") };
          }
        });
        reader.expectEnd();
        expect(decoded).toEqual(fields.map((item) => (Object.is(item.value, -0) ? { ...item, value: 0 } : item)));
      }),
    );
  });
});
