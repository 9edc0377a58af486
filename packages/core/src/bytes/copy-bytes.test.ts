import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { copyBytes } from "./copy-bytes.js";

function filled(length: number, seed: number, shared: boolean): Uint8Array {
  const view = new Uint8Array(shared ? new SharedArrayBuffer(length) : new ArrayBuffer(length));
  for (let i = 0; i < length; i++) view[i] = (i * 31 + seed) & 0xff;
  return view;
}

describe("copyBytes", () => {
  test("property: same bytes as Uint8Array.set, into and out of shared memory, at any alignment", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 15 }),
        fc.integer({ min: 0, max: 64 }),
        fc.boolean(),
        fc.boolean(),
        (length, sourceStart, slack, sharedSource, sharedTarget) => {
          const source = filled(length + sourceStart, 7, sharedSource).subarray(sourceStart);
          const targetOffset = slack % 13;
          const target = filled(length + slack + 16, 99, sharedTarget);
          const expected = Uint8Array.from(target);
          expected.set(source, targetOffset);
          copyBytes(target, source, targetOffset);
          expect(Buffer.from(target).equals(Buffer.from(expected))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("overlapping views of one buffer copy like set", () => {
    const buffer = filled(4096, 3, true);
    const expected = Uint8Array.from(buffer);
    expected.set(expected.subarray(0, 2048), 5);
    copyBytes(buffer, buffer.subarray(0, 2048), 5);
    expect(Buffer.from(buffer).equals(Buffer.from(expected))).toBe(true);
  });

  test("a copy that does not fit throws RangeError and writes nothing", () => {
    const target = new Uint8Array(new SharedArrayBuffer(1024));
    const source = filled(1000, 1, false);
    expect(() => copyBytes(target, source, 100)).toThrow(RangeError);
    expect(() => copyBytes(target, source, -1)).toThrow(RangeError);
    expect(() => copyBytes(target, source, 1.5)).toThrow(RangeError);
    expect(target.every((byte) => byte === 0)).toBe(true);
    expect(() => copyBytes(new Uint8Array(10), filled(20, 1, false), 0)).toThrow(RangeError);
  });
});
