import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { bytesEqual, compareBytes } from "./compare-bytes.js";
import { toHex } from "./hex.js";

describe("compareBytes", () => {
  test("unsigned lexicographic order, prefix first", () => {
    expect(compareBytes(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBeLessThan(0);
    expect(compareBytes(new Uint8Array([0x7f]), new Uint8Array([0x80]))).toBeLessThan(0);
    expect(compareBytes(new Uint8Array([1]), new Uint8Array([1, 0]))).toBeLessThan(0);
    expect(compareBytes(new Uint8Array([2]), new Uint8Array([1, 0]))).toBeGreaterThan(0);
    expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1]))).toBe(false);
  });

  test("property: agrees with hex string order and is antisymmetric", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 8 }), fc.uint8Array({ maxLength: 8 }), (a, b) => {
        const hexA = toHex(a);
        const hexB = toHex(b);
        expect(Math.sign(compareBytes(a, b))).toBe(hexA < hexB ? -1 : hexA > hexB ? 1 : 0);
        expect(Math.sign(compareBytes(b, a)) + Math.sign(compareBytes(a, b))).toBe(0);
        expect(bytesEqual(a, b)).toBe(hexA === hexB);
      }),
    );
  });
});
