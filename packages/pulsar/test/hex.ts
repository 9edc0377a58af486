// Test helpers for golden bytes: `hex` turns an annotated hex listing (whitespace and "# comment" to the end of a
// line are ignored) into bytes; `expectDecodeError` and `expectInvalidArgument` assert the two failures the codec
// raises and return them for further checks.
import { ErrorCode, NereusError, fromHex, toHex } from "@nereus/core";
import { expect } from "vitest";

/** Bytes from annotated hex: `hex("0a02 7473  # "ts"")`. */
export function hex(listing: string): Uint8Array {
  return fromHex(
    listing
      .replace(/#[^\n]*/g, "")
      .replace(/\s+/g, "")
      .toLowerCase(),
  );
}

/** Lowercase hex of `bytes`, for readable failure messages. */
export function hexOf(bytes: Uint8Array): string {
  return toHex(bytes);
}

function expectCode(code: ErrorCode, run: () => unknown): NereusError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(NereusError.hasCode(caught, code), `expected ${code}, got ${String(caught)}`).toBe(true);
  return caught as NereusError;
}

/** Asserts that `run` throws a NereusError with code DECODE_ERROR and returns it. */
export function expectDecodeError(run: () => unknown): NereusError {
  return expectCode(ErrorCode.DECODE_ERROR, run);
}

/** Asserts that `run` throws a NereusError with code INVALID_ARGUMENT and returns it. */
export function expectInvalidArgument(run: () => unknown): NereusError {
  return expectCode(ErrorCode.INVALID_ARGUMENT, run);
}
