import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { crc32c } from "./crc32c.js";
import { crc32cCombine } from "./crc32c-combine.js";

const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(a.length + b.length);
  bytes.set(a);
  bytes.set(b, a.length);
  return bytes;
}

describe("crc32cCombine", () => {
  test("joins the check value from its halves", () => {
    expect(crc32cCombine(crc32c(ascii("1234")), crc32c(ascii("56789")), 5)).toBe(0xe3069283);
  });

  test("an empty second part leaves the first CRC; an empty first part gives the second", () => {
    expect(crc32cCombine(0x1234_5678, 0, 0)).toBe(0x1234_5678);
    const b = ascii("nereus");
    expect(crc32cCombine(crc32c(new Uint8Array(0)), crc32c(b), b.length)).toBe(crc32c(b));
  });

  test("large second parts (every bit of the length exercised)", () => {
    const a = ascii("head");
    for (const length of [1, 255, 4096, 65_537, 1_048_575]) {
      const b = new Uint8Array(length).map((_, index) => (index * 31 + 7) & 0xff);
      expect(crc32cCombine(crc32c(a), crc32c(b), b.length)).toBe(crc32c(joined(a, b)));
    }
  });

  test("property: equals the CRC of the concatenation", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), (a, b) => {
        const value = crc32cCombine(crc32c(a), crc32c(b), b.length);
        expect(value).toBe(crc32c(joined(a, b)));
        expect(value >>> 0).toBe(value);
      }),
      { numRuns: 500 },
    );
  });

  test("rejects a length that is not a non-negative safe integer", () => {
    expect(() => crc32cCombine(0, 0, -1)).toThrow(RangeError);
    expect(() => crc32cCombine(0, 0, 1.5)).toThrow(/non-negative safe integer/);
    expect(() => crc32cCombine(0, 0, 2 ** 53)).toThrow(RangeError);
  });
});
