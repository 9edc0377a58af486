// Test helper: the NereusError a synchronous call throws, checked against the expected code. Test-only.
import { type ErrorCode, NereusError } from "@nereus/core";
import { expect } from "vitest";

/** Runs `action`, requires a NereusError with `code`, and returns it. */
export function thrownError(action: () => unknown, code: ErrorCode): NereusError {
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  expect(NereusError.is(caught), `expected NereusError(${code}), got ${String(caught)}`).toBe(true);
  expect((caught as NereusError).code).toBe(code);
  return caught as NereusError;
}
