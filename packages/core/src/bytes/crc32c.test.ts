import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { CRC32C_IMPLEMENTATION, crc32c, portableCrc32cOf } from "./crc32c.js";

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

describe("crc32c implementations", () => {
  test("the hardware implementation is in use on x86-64 Linux: the install script built the addon", () => {
    // CI runs there with a C++ compiler: a missing addon is a broken build, not a reason to fall back quietly.
    if (process.platform !== "linux" || process.arch !== "x64") return;
    expect(CRC32C_IMPLEMENTATION).toBe("sse4.2");
  });

  test("property: the one in use equals the portable one, for every length, alignment and starting value", () => {
    // Lengths cross the three-way block sizes (3 x 256 B and 3 x 8 KiB) and their remainders.
    const length = fc.oneof(fc.integer({ min: 0, max: 64 }), fc.integer({ min: 700, max: 900 }), fc.integer({ min: 24_500, max: 50_000 }));
    fc.assert(
      fc.property(length, fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 0xffff_ffff }), fc.boolean(), fc.integer(), (size, offset, initial, shared, seed) => {
        const buffer = shared ? new SharedArrayBuffer(size + offset) : new ArrayBuffer(size + offset);
        const bytes = new Uint8Array(buffer, offset, size);
        for (let index = 0; index < size; index += 1) bytes[index] = (index * 131 + seed) & 0xff;
        expect(crc32c(bytes, initial)).toBe(portableCrc32cOf(bytes, initial));
      }),
      { numRuns: 300 },
    );
  });

  test("a large input checksums like its parts chained", () => {
    const bytes = Uint8Array.from({ length: 1 << 20 }, (_, index) => (index * 7919) >>> 3);
    const whole = crc32c(bytes);
    expect(whole).toBe(portableCrc32cOf(bytes));
    expect(crc32c(bytes.subarray(300_001), crc32c(bytes.subarray(0, 300_001)))).toBe(whole);
  });
});
