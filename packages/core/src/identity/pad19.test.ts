import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import type { NereusError } from "../errors/nereus-error.js";
import { pad19, parsePad19 } from "./pad19.js";

describe("pad19", () => {
  test("formats 19 digits", () => {
    expect(pad19(0)).toBe("0000000000000000000");
    expect(pad19(105)).toBe("0000000000000000105");
    expect(pad19(Number.MAX_SAFE_INTEGER)).toBe("0009007199254740991");
  });

  test("rejects negative, fractional and unsafe numbers", () => {
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 53, Number.POSITIVE_INFINITY]) {
      expect(() => pad19(bad)).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_ARGUMENT }) as NereusError);
    }
  });

  test("parsePad19 accepts exactly 19 digits within the safe range", () => {
    expect(parsePad19("0000000000000000105")).toBe(105);
    for (const bad of [
      "105",
      "00000000000000000105",
      "000000000000000010a",
      "-000000000000000001",
      "0009007199254740992",
    ]) {
      expect(() => parsePad19(bad), bad).toThrow(
        expect.objectContaining({ code: ErrorCode.DECODE_ERROR }) as NereusError,
      );
    }
  });

  test("property: round trip and order preservation", () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.maxSafeNat(), (a, b) => {
        expect(parsePad19(pad19(a))).toBe(a);
        expect(pad19(a) < pad19(b)).toBe(a < b);
      }),
    );
  });
});
