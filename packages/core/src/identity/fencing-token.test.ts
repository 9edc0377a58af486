import { describe, expect, test } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import type { NereusError } from "../errors/nereus-error.js";
import { fencingTokenHash, newFencingToken } from "./fencing-token.js";

describe("fencing tokens", () => {
  test("new tokens are 128-bit base32 and distinct", () => {
    const tokens = new Set(Array.from({ length: 100 }, () => newFencingToken()));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(token).toMatch(/^[a-z2-7]{26}$/);
  });

  test("hash is the SHA-256 hex of the UTF-8 token (golden)", () => {
    expect(fencingTokenHash("token-1")).toBe("3f08aace122ee2368432c1ca23a049bc640bafbf00fdf33a52429f38ba12dbf9");
    expect(() => fencingTokenHash("")).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_ARGUMENT }) as NereusError,
    );
  });
});
