// What the adapter's record-codec tests share: a call that must fail with METADATA_INVARIANT_VIOLATION (the error
// strict decoders and validating encoders raise), and the check that every truncation and every single-bit flip of
// golden bytes is rejected.
import { ErrorCode, NereusError } from "@nereus/core";
import { expect } from "vitest";

/** Runs `run`, expects METADATA_INVARIANT_VIOLATION and returns it. */
export function violation(run: () => unknown): NereusError {
  try {
    run();
  } catch (error) {
    expect(NereusError.hasCode(error, ErrorCode.METADATA_INVARIANT_VIOLATION)).toBe(true);
    return error as NereusError;
  }
  throw new Error("expected METADATA_INVARIANT_VIOLATION");
}

/**
 * Every prefix of `golden`, and every copy with its lowest or highest bit of one byte flipped, fails `decode` with
 * METADATA_INVARIANT_VIOLATION.
 */
export function expectCorruptionRejected(golden: Uint8Array, decode: (bytes: Uint8Array) => unknown): void {
  for (let length = 0; length < golden.length; length += 1) violation(() => decode(golden.subarray(0, length)));
  for (let index = 0; index < golden.length; index += 1) {
    for (const bit of [0x01, 0x80]) {
      const flipped = golden.slice();
      flipped[index] = (flipped[index] ?? 0) ^ bit;
      violation(() => decode(flipped));
    }
  }
}
