import { ByteReader, ByteWriter, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectDecodeError, expectInvalidArgument, hex } from "../../../test/hex.js";
import {
  readSafeVarlong,
  readUnsignedVarint,
  readVarint,
  readVarlong,
  sizeOfUnsignedVarint,
  writeUnsignedVarint,
  writeVarint,
  writeVarlong,
} from "./varint.js";

function encode(write: (writer: ByteWriter) => void): string {
  const writer = new ByteWriter();
  write(writer);
  return toHex(writer.finish());
}

describe("unsigned varint", () => {
  it.each([
    [0, "00"],
    [1, "01"],
    [127, "7f"],
    [128, "8001"],
    [300, "ac02"],
    [16_384, "808001"],
    [0xffff_ffff, "ffffffff0f"],
  ])("%d ⇄ %s", (value, expected) => {
    expect(encode((writer) => writeUnsignedVarint(writer, value))).toBe(expected);
    expect(readUnsignedVarint(new ByteReader(hex(expected)), "v")).toBe(value);
    expect(sizeOfUnsignedVarint(value)).toBe(expected.length / 2);
  });

  it("rejects over-wide, overlong and truncated encodings with DECODE_ERROR", () => {
    expectDecodeError(() => readUnsignedVarint(new ByteReader(hex("ffffffff10")), "v"));
    expectDecodeError(() => readUnsignedVarint(new ByteReader(hex("8080808080")), "v"));
    expectDecodeError(() => readUnsignedVarint(new ByteReader(hex("8080")), "v"));
    expect(expectDecodeError(() => readUnsignedVarint(new ByteReader(hex("ffffffff7f")), "len")).message).toMatch(
      /len/,
    );
  });

  it("refuses negative or fractional values", () => {
    expectInvalidArgument(() => writeUnsignedVarint(new ByteWriter(), -1));
    expectInvalidArgument(() => writeUnsignedVarint(new ByteWriter(), 1.5));
    expectInvalidArgument(() => writeUnsignedVarint(new ByteWriter(), 2 ** 32));
  });

  it("round-trips every 32-bit value", () => {
    fc.assert(
      fc.property(fc.nat({ max: 0xffff_ffff }), (value) => {
        const writer = new ByteWriter();
        writeUnsignedVarint(writer, value);
        const reader = new ByteReader(writer.finish());
        expect(readUnsignedVarint(reader, "v")).toBe(value);
        expect(reader.remaining).toBe(0);
      }),
    );
  });
});

describe("zigzag varint and varlong", () => {
  it.each([
    [0, "00"],
    [-1, "01"],
    [1, "02"],
    [-2, "03"],
    [63, "7e"],
    [-64, "7f"],
    [64, "8001"],
    [2_147_483_647, "feffffff0f"],
    [-2_147_483_648, "ffffffff0f"],
  ])("varint %d ⇄ %s", (value, expected) => {
    expect(encode((writer) => writeVarint(writer, value))).toBe(expected);
    expect(readVarint(new ByteReader(hex(expected)), "v")).toBe(value);
  });

  it.each([
    [0n, "00"],
    [-1n, "01"],
    [1n, "02"],
    [2n ** 63n - 1n, "feffffffffffffffff01"],
    [-(2n ** 63n), "ffffffffffffffffff01"],
  ])("varlong %s ⇄ %s", (value, expected) => {
    expect(encode((writer) => writeVarlong(writer, value))).toBe(expected);
    expect(readVarlong(new ByteReader(hex(expected)), "v")).toBe(value);
  });

  it("rejects varlongs wider than 64 bits and unsafe values where numbers are required", () => {
    expectDecodeError(() => readVarlong(new ByteReader(hex("ffffffffffffffffff02")), "v"));
    expectDecodeError(() => readVarlong(new ByteReader(hex("ffffffffffffffffffff01")), "v"));
    expectDecodeError(() => readSafeVarlong(new ByteReader(hex("feffffffffffffffff01")), "v"));
    expect(readSafeVarlong(new ByteReader(hex("03")), "v")).toBe(-2);
  });

  it("round-trips int32 varints and int64 varlongs", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -0x8000_0000, max: 0x7fff_ffff }),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        (small, big) => {
          const writer = new ByteWriter();
          writeVarint(writer, small);
          writeVarlong(writer, big);
          const reader = new ByteReader(writer.finish());
          expect(readVarint(reader, "a")).toBe(small);
          expect(readVarlong(reader, "b")).toBe(big);
          expect(reader.remaining).toBe(0);
        },
      ),
    );
  });
});
