// Test helpers for golden bytes: `hex` turns an annotated hex listing (whitespace and "# comment" to the end of a
// line are ignored) into bytes, and `expectDecodeError` asserts the one failure type decoders may raise.
import { ErrorCode, NereusError, fromHex } from "@nereus/core";
import { expect } from "vitest";

/** Bytes from annotated hex: `hex("0003 616263  # "abc"")`. */
export function hex(listing: string): Uint8Array {
  return fromHex(
    listing
      .replace(/#[^\n]*/g, "")
      .replace(/\s+/g, "")
      .toLowerCase(),
  );
}

/** Asserts that `run` throws a NereusError with code DECODE_ERROR and returns it. */
export function expectDecodeError(run: () => unknown): NereusError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(NereusError.hasCode(caught, ErrorCode.DECODE_ERROR), `expected DECODE_ERROR, got ${String(caught)}`).toBe(
    true,
  );
  return caught as NereusError;
}

/** Asserts that `run` throws a NereusError with code INVALID_ARGUMENT. */
export function expectInvalidArgument(run: () => unknown): NereusError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(
    NereusError.hasCode(caught, ErrorCode.INVALID_ARGUMENT),
    `expected INVALID_ARGUMENT, got ${String(caught)}`,
  ).toBe(true);
  return caught as NereusError;
}
