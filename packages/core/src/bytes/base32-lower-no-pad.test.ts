import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import type { NereusError } from "../errors/nereus-error.js";
import { base32LowerNoPad, decodeBase32LowerNoPad } from "./base32-lower-no-pad.js";

const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("base32LowerNoPad", () => {
  test("matches the RFC 4648 vectors in lowercase without padding", () => {
    const vectors: ReadonlyArray<readonly [string, string]> = [
      ["", ""],
      ["f", "my"],
      ["fo", "mzxq"],
      ["foo", "mzxw6"],
      ["foob", "mzxw6yq"],
      ["fooba", "mzxw6ytb"],
      ["foobar", "mzxw6ytboi"],
    ];
    for (const [plain, encoded] of vectors) {
      expect(base32LowerNoPad(ascii(plain))).toBe(encoded);
      expect(decodeBase32LowerNoPad(encoded)).toEqual(ascii(plain));
    }
  });

  test("the decoder accepts only the canonical form", () => {
    for (const bad of ["MY", "my======", "m", "mzx", "mzxw6y", "mz", "my!", "m1"]) {
      expect(() => decodeBase32LowerNoPad(bad), bad).toThrow(
        expect.objectContaining({ code: ErrorCode.DECODE_ERROR }) as NereusError,
      );
    }
  });

  test("property: round trip, alphabet and length", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const text = base32LowerNoPad(bytes);
        expect(text).toMatch(/^[a-z2-7]*$/);
        expect(text.length).toBe(Math.ceil((bytes.length * 8) / 5));
        expect(decodeBase32LowerNoPad(text)).toEqual(bytes);
      }),
    );
  });
});
