import { ErrorCode, NereusError } from "@nereus/core";
import { describe, expect, it } from "vitest";
import { assertListPrefix, assertObjectKey } from "./assert-object-key.js";

function codeOf(run: () => void): string | undefined {
  try {
    run();
  } catch (error) {
    if (NereusError.is(error)) return error.code;
    throw error;
  }
  return undefined;
}

describe("assertObjectKey", () => {
  it("accepts ordinary keys", () => {
    for (const key of [
      "a",
      "a/b/c.nrs",
      "wal/2026/11/30/x-y_z/wo-1.nrs",
      "...",
      "a..b",
      ".hidden/x",
      "\u00e9/\u{1f600}",
      "x".repeat(1024),
    ]) {
      expect(codeOf(() => assertObjectKey(key))).toBeUndefined();
    }
  });

  it("rejects empty, absolute, traversing, control-character, ill-formed and overlong keys", () => {
    for (const key of [
      "",
      "/a",
      "a/",
      "a//b",
      ".",
      "..",
      "../a",
      "a/../b",
      "a/./b",
      "a\u0000",
      "a\nb",
      "a\u007f",
      "\ud800",
      "x".repeat(1025),
      "\u00e9".repeat(513),
    ]) {
      expect(codeOf(() => assertObjectKey(key))).toBe(ErrorCode.INVALID_ARGUMENT);
    }
  });
});

describe("assertListPrefix", () => {
  it("accepts any well-formed prefix, including the empty one and partial segments", () => {
    for (const prefix of ["", "a", "a/", "a/b-", "."]) expect(codeOf(() => assertListPrefix(prefix))).toBeUndefined();
    for (const prefix of ["\udc00", "a\tb", "y".repeat(1025)])
      expect(codeOf(() => assertListPrefix(prefix))).toBe(ErrorCode.INVALID_ARGUMENT);
  });
});
