// Test support for record codecs: every truncation, every single-bit flip and a trailing byte of a valid encoding
// must be rejected with METADATA_INVARIANT_VIOLATION (never decode to a different value).
import { ErrorCode, NereusError } from "@nereus/core";
import { expect } from "vitest";

/** Runs `decode` on every corruption of `bytes` and expects each one to fail as an invariant violation. */
export function expectCorruptionRejected(bytes: Uint8Array, decode: (bytes: Uint8Array) => unknown): void {
  const variants: Uint8Array[] = [];
  for (let length = 0; length < bytes.length; length++) variants.push(bytes.slice(0, length));
  for (let index = 0; index < bytes.length; index++) {
    for (let bit = 0; bit < 8; bit++) {
      const flipped = bytes.slice();
      flipped[index] = (flipped[index] ?? 0) ^ (1 << bit);
      variants.push(flipped);
    }
  }
  const longer = new Uint8Array(bytes.length + 1);
  longer.set(bytes);
  variants.push(longer);
  for (const variant of variants) {
    let caught: unknown;
    try {
      decode(variant);
    } catch (error) {
      caught = error;
    }
    expect(NereusError.hasCode(caught, ErrorCode.METADATA_INVARIANT_VIOLATION), `corrupted record decoded: ${String(caught)}`).toBe(true);
  }
}

/** Runs `action`, expects METADATA_INVARIANT_VIOLATION, returns the error. */
export function invariantViolation(action: () => unknown): NereusError {
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  expect(NereusError.hasCode(caught, ErrorCode.METADATA_INVARIANT_VIOLATION), `expected an invariant violation, got ${String(caught)}`).toBe(true);
  return caught as NereusError;
}
