// Test helpers that await a promise expected to reject and return what it rejected with, so a test can assert on
// the error's code and details. All fail the test when the promise fulfils instead.
import { expect } from "vitest";
import type { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

/** What `promise` rejected with; throws "expected the promise to reject" when it fulfils. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}

/** The NereusError `promise` rejected with; rethrows any other rejection and throws when it fulfils. */
export async function nereusRejectionOf(promise: Promise<unknown>): Promise<NereusError> {
  const error = await rejectionOf(promise);
  if (NereusError.is(error)) return error;
  throw error;
}

/** Awaits `promise` and expects a `NereusError` with `code`; returns it. */
export async function expectNereusError(promise: Promise<unknown>, code: ErrorCode): Promise<NereusError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(NereusError.is(caught), `expected NereusError(${code}), got ${String(caught)}`).toBe(true);
  expect((caught as NereusError).code).toBe(code);
  return caught as NereusError;
}
