import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { VarintReader, varintSize, writeVarint } from "./snapshot-codec-varint.js";

function encode(value: number): number[] {
  const bytes = new Uint8Array(varintSize(value));
  expect(writeVarint(bytes, 0, value)).toBe(bytes.length);
  return [...bytes];
}

function decode(bytes: number[]): number {
  return new VarintReader(new Uint8Array(bytes), 0, bytes.length).next();
}

describe("snapshot varints", () => {
  test("unsigned LEB128, shortest form", () => {
    expect(encode(0)).toEqual([0x00]);
    expect(encode(127)).toEqual([0x7f]);
    expect(encode(128)).toEqual([0x80, 0x01]);
    expect(encode(300)).toEqual([0xac, 0x02]);
    expect(encode(2 ** 32)).toEqual([0x80, 0x80, 0x80, 0x80, 0x10]);
    expect(encode(Number.MAX_SAFE_INTEGER)).toEqual([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f]);
    expect(decode([0xac, 0x02])).toBe(300);
    expect(decode([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f])).toBe(Number.MAX_SAFE_INTEGER);
  });

  test("round trip of any safe integer, and a sequence reads back in order", () => {
    fc.assert(
      fc.property(fc.array(fc.maxSafeNat(), { minLength: 1, maxLength: 20 }), (values) => {
        const bytes = values.flatMap(encode);
        const reader = new VarintReader(new Uint8Array(bytes), 0, bytes.length);
        expect(values.map(() => reader.next())).toEqual(values);
        expect(reader.position).toBe(bytes.length);
      }),
    );
  });

  test("truncated, over-long, non-minimal and unsafe varints read as -1 and do not move", () => {
    for (const bytes of [
      [],
      [0x80],
      [0x80, 0x00],
      [0xff, 0x80, 0x00],
      [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x10],
      [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
    ]) {
      const reader = new VarintReader(new Uint8Array(bytes), 0, bytes.length);
      expect(reader.next(), JSON.stringify(bytes)).toBe(-1);
      expect(reader.position).toBe(0);
    }
    // The limit bounds the read even when the bytes go on.
    expect(new VarintReader(new Uint8Array([0x80, 0x01]), 0, 1).next()).toBe(-1);
  });
});
