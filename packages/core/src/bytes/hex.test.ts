import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import type { NereusError } from "../errors/nereus-error.js";
import { fromHex, toHex } from "./hex.js";

describe("hex", () => {
  test("encodes lowercase and rejects non-canonical text", () => {
    expect(toHex(new Uint8Array([0, 15, 255]))).toBe("000fff");
    for (const bad of ["0", "0G", "AB", " 00"]) {
      expect(() => fromHex(bad)).toThrow(expect.objectContaining({ code: ErrorCode.DECODE_ERROR }) as NereusError);
    }
  });

  test("property: round trip", () => {
    fc.assert(
      fc.property(fc.uint8Array(), (bytes) => {
        expect(fromHex(toHex(bytes))).toEqual(bytes);
      }),
    );
  });
});
