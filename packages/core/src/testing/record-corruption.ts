// Test support for record codecs of every package: every truncation, every single-bit flip and a trailing byte of
// a valid encoding must be rejected with a non-retryable METADATA_INVARIANT_VIOLATION (never decode to a value).
import { expect } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

/** Runs `action`, requires a METADATA_INVARIANT_VIOLATION and returns it. */
export function invariantViolation(action: () => unknown): NereusError {
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  if (!NereusError.hasCode(caught, ErrorCode.METADATA_INVARIANT_VIOLATION)) {
    throw new Error(`expected METADATA_INVARIANT_VIOLATION, got ${caught === undefined ? "no error" : String(caught)}`);
  }
  expect(caught.retryable).toBe(false);
  return caught;
}

/** Every strict prefix, every single-bit flip and one trailing byte of `bytes` must be rejected by `decode`. */
export function expectCorruptionRejected(bytes: Uint8Array, decode: (bytes: Uint8Array) => unknown): void {
  for (let length = 0; length < bytes.length; length += 1) invariantViolation(() => decode(bytes.slice(0, length)));
  for (let index = 0; index < bytes.length; index += 1) {
    for (let bit = 0; bit < 8; bit += 1) {
      const flipped = bytes.slice();
      flipped[index] = (flipped[index] ?? 0) ^ (1 << bit);
      invariantViolation(() => decode(flipped));
    }
  }
  const extended = new Uint8Array(bytes.length + 1);
  extended.set(bytes);
  expect(invariantViolation(() => decode(extended)).message).toContain("1 trailing byte(s) after the payload");
}
