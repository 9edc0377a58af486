// Test helpers that await a promise expected to reject and return what it rejected with, so a test can assert on
// the error's code and details. Both fail the test when the promise fulfils instead.
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
