import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import type { NereusError } from "../errors/nereus-error.js";
import { decodeStrictUtf8, encodeStrictUtf8, isWellFormedString } from "./strict-utf8.js";

describe("strict UTF-8", () => {
  test("unpaired surrogates have no encoding", () => {
    expect(isWellFormedString("a\uD83D\uDE00")).toBe(true);
    for (const bad of ["\uD800", "\uDC00", "a\uD800b", "\uDE00\uD83D"]) {
      expect(isWellFormedString(bad)).toBe(false);
      expect(() => encodeStrictUtf8(bad, "name")).toThrow(
        expect.objectContaining({
          code: ErrorCode.INVALID_ARGUMENT,
          message: "name contains an unpaired UTF-16 surrogate",
        }) as NereusError,
      );
    }
  });

  test("malformed bytes are rejected, a BOM is kept", () => {
    expect(() => decodeStrictUtf8(new Uint8Array([0xc0, 0x80]), "key")).toThrow(
      expect.objectContaining({ code: ErrorCode.DECODE_ERROR, message: "key is not well-formed UTF-8" }) as NereusError,
    );
    expect(decodeStrictUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))).toBe("\uFEFFA");
  });

  test("property: well-formed strings round trip", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(decodeStrictUtf8(encodeStrictUtf8(text))).toBe(text);
      }),
    );
  });
});
