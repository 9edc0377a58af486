import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { crc32c } from "./crc32c.js";

const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("crc32c", () => {
  test("matches the Castagnoli check value and known vectors", () => {
    expect(crc32c(ascii("123456789"))).toBe(0xe3069283);
    expect(crc32c(new Uint8Array(0))).toBe(0);
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43);
  });

  test("is always an unsigned 32-bit integer", () => {
    expect(crc32c(new Uint8Array([0xff, 0xff, 0xff, 0xff]))).toBe(0xffffffff);
  });

  test("property: chaining equals checksumming the concatenation", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.uint8Array({ maxLength: 100 }), (a, b) => {
        const joined = new Uint8Array(a.length + b.length);
        joined.set(a);
        joined.set(b, a.length);
        const value = crc32c(b, crc32c(a));
        expect(value).toBe(crc32c(joined));
        expect(value >>> 0).toBe(value);
      }),
    );
  });
});
