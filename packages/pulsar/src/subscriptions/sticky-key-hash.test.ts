import { describe, expect, it } from "vitest";
import { murmur3x86_32, stickyKeySlot } from "./sticky-key-hash.js";

const bytes = (value: string | readonly number[]) =>
  typeof value === "string" ? new TextEncoder().encode(value) : Uint8Array.from(value);

describe("murmur3x86_32", () => {
  it("matches the reference vectors of MurmurHash3_x86_32", () => {
    const vectors: Array<[string | number[], number, number]> = [
      [[], 0, 0],
      [[], 1, 0x514e28b7],
      [[], 0xffffffff, 0x81f16f39],
      [[0xff, 0xff, 0xff, 0xff], 0, 0x76293b50],
      [[0x21, 0x43, 0x65, 0x87], 0, 0xf55b516b],
      [[0x21, 0x43, 0x65], 0, 0x7e4a8634],
      [[0x21, 0x43], 0, 0xa0f7b07a],
      [[0x21], 0, 0x72661cf4],
      [[0, 0, 0, 0], 0, 0x2362f9de],
      [[0], 0, 0x514e28b7],
      ["abc", 0, 0xb3dd93fa],
      ["Hello, world!", 0x9747b28c, 0x24884cba],
      ["The quick brown fox jumps over the lazy dog", 0x9747b28c, 0x2fa826cd],
    ];
    for (const [input, seed, expected] of vectors) expect(murmur3x86_32(bytes(input), seed)).toBe(expected);
  });
});

describe("stickyKeySlot", () => {
  it("is the non-negative hash modulo 65536, and a missing key hashes as NONE_KEY", () => {
    expect(stickyKeySlot(bytes("abc"))).toBe((0xb3dd93fa & 0x7fffffff) % 65_536);
    expect(stickyKeySlot(undefined)).toBe((murmur3x86_32(bytes("NONE_KEY")) & 0x7fffffff) % 65_536);
  });
});
