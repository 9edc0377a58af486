// Decides whether a failed metadata write provably did not apply. Conservative: only the SPI's explicit
// "did not apply" signal (`details.ambiguous === false`) and request validation errors count; anything else —
// response loss, cancellation in flight, an unknown error — may have applied and must be resolved by reload.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

/** True only when `error` proves the write was not applied. */
export function definitelyNotApplied(error: unknown): boolean {
  if (!NereusError.is(error)) return false;
  if (error.details["ambiguous"] === true) return false;
  if (error.details["ambiguous"] === false) return true;
  return error.code === ErrorCode.INVALID_ARGUMENT || error.code === ErrorCode.METADATA_LIMIT_EXCEEDED;
}
