import { describe, expect, test } from "vitest";
import { toHex } from "./hex.js";
import { sha256, sha256Hex } from "./sha256.js";

describe("sha256", () => {
  test("matches FIPS 180-2 vectors", () => {
    const abc = new TextEncoder().encode("abc");
    expect(sha256Hex(abc)).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(toHex(sha256(abc))).toBe(sha256Hex(abc));
    expect(sha256Hex(new Uint8Array(0))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  test("returns a plain 32-byte Uint8Array", () => {
    const digest = sha256(new Uint8Array([1]));
    expect(digest.length).toBe(32);
    expect(Object.getPrototypeOf(digest)).toBe(Uint8Array.prototype);
  });
});
