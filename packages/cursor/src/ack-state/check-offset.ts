// Argument checks shared by the ack-state mutations; they throw before anything is computed.
import { ErrorCode, NereusError } from "@nereus/core";

/** Throws INVALID_ARGUMENT unless `value` is a safe non-negative integer. */
export function checkOffset(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `${what} ${value} is not a safe non-negative integer`);
  }
}
