// Fixed-width decimal key components: 19 digits (the width of int64) so that lexicographic key order equals
// numeric order. Values are JS numbers limited to the safe-integer range.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

const PAD19_PATTERN = /^[0-9]{19}$/;

/** `n` as 19 zero-padded decimal digits. Throws INVALID_ARGUMENT unless `n` is a non-negative safe integer. */
export function pad19(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `pad19 needs a non-negative safe integer, got ${String(n)}`);
  }
  return String(n).padStart(19, "0");
}

/** Inverse of `pad19`: exactly 19 ASCII digits whose value is a safe integer, else `NereusError(DECODE_ERROR)`. */
export function parsePad19(text: string): number {
  if (!PAD19_PATTERN.test(text)) {
    throw new NereusError(ErrorCode.DECODE_ERROR, `${JSON.stringify(text)} is not a 19-digit decimal`);
  }
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new NereusError(ErrorCode.DECODE_ERROR, `${text} exceeds the safe-integer range`);
  }
  return value;
}
