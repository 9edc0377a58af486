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

describe("crc32c over any view", () => {
  /** Bit-at-a-time CRC32C (reflected polynomial 0x82F63B78): slow, obviously right. */
  function referenceCrc32c(bytes: Uint8Array, initial: number): number {
    let crc = ~initial >>> 0;
    for (const byte of bytes) {
      crc ^= byte;
      for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
    }
    return ~crc >>> 0;
  }

  test("property: equals a bit-at-a-time reference for every length, offset and starting value, shared memory too", () => {
    const length = fc.oneof(
      fc.integer({ min: 0, max: 64 }),
      fc.integer({ min: 700, max: 900 }),
      fc.integer({ min: 8_000, max: 9_000 }),
    );
    fc.assert(
      fc.property(
        length,
        fc.integer({ min: 0, max: 15 }),
        fc.integer({ min: 0, max: 0xffff_ffff }),
        fc.boolean(),
        fc.integer(),
        (size, offset, initial, shared, seed) => {
          const buffer = shared ? new SharedArrayBuffer(size + offset) : new ArrayBuffer(size + offset);
          const bytes = new Uint8Array(buffer, offset, size);
          for (let index = 0; index < size; index += 1) bytes[index] = (index * 131 + seed) & 0xff;
          expect(crc32c(bytes, initial)).toBe(referenceCrc32c(bytes, initial));
        },
      ),
      { numRuns: 200 },
    );
  });

  test("a large input checksums like its parts chained", () => {
    const bytes = Uint8Array.from({ length: 1 << 20 }, (_, index) => (index * 7919) >>> 3);
    const whole = crc32c(bytes);
    expect(crc32c(bytes.subarray(300_001), crc32c(bytes.subarray(0, 300_001)))).toBe(whole);
  });
});
