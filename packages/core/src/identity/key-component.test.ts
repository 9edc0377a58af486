import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import type { NereusError } from "../errors/nereus-error.js";
import { decodeKeyComponent, encodeKeyComponent } from "./key-component.js";

const decodeError = expect.objectContaining({ code: ErrorCode.DECODE_ERROR }) as NereusError;

describe("key component codec", () => {
  test("safe values stay raw", () => {
    for (const raw of ["orders", "s-abc", "A_b.c-9", "...", "b32", "b32x", "-"]) {
      expect(encodeKeyComponent(raw)).toBe(raw);
      expect(decodeKeyComponent(raw)).toBe(raw);
    }
  });

  test("unsafe values are b32-encoded (golden)", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["a/b", "b32-mexwe"],
      ["C:", "b32-im5a"],
      [".", "b32-fy"],
      ["..", "b32-fyxa"],
      ["b32-x", "b32-miztelly"],
      ["ünï", "b32-yo6g5q5p"],
      [" ", "b32-ea"],
    ];
    for (const [value, encoded] of cases) {
      expect(encodeKeyComponent(value)).toBe(encoded);
      expect(decodeKeyComponent(encoded)).toBe(value);
    }
  });

  test("empty values and unpaired surrogates have no component", () => {
    expect(() => encodeKeyComponent("")).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_ARGUMENT }) as NereusError,
    );
    expect(() => encodeKeyComponent("\uDC00")).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_ARGUMENT }) as NereusError,
    );
  });

  test("the decoder rejects non-canonical and unsafe components", () => {
    for (const bad of [
      "b32-mfrgg" /* "abc": should be raw */,
      "b32-",
      "b32-MEXWE",
      "b32-7",
      "a/b",
      ".",
      "..",
      "",
      "C:x",
      "b32-74",
    ]) {
      expect(() => decodeKeyComponent(bad), bad).toThrow(decodeError);
    }
  });

  test("property: round trip, no '/' in output, injective", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }),
        fc.string({ minLength: 1, maxLength: 30 }),
        (a, b) => {
          const encodedA = encodeKeyComponent(a);
          expect(encodedA).not.toContain("/");
          expect(encodedA).toMatch(/^[A-Za-z0-9_.-]+$/);
          expect(decodeKeyComponent(encodedA)).toBe(a);
          if (a !== b) expect(encodedA).not.toBe(encodeKeyComponent(b));
        },
      ),
    );
  });
});
