// The INVALID_ARGUMENT error an encoder raises for a value its wire type cannot carry (never a decode error:
// encoders only ever see values built by this process).
import { ErrorCode, NereusError } from "@nereus/core";

/** `NereusError(INVALID_ARGUMENT)` saying that `value` does not fit the Kafka wire type `kind`. */
export function invalidArgument(kind: string, value: unknown, reason = "out of range"): NereusError {
  const shown =
    typeof value === "bigint"
      ? `${value.toString()}n`
      : typeof value === "string"
        ? JSON.stringify(value)
        : String(value);
  return new NereusError(ErrorCode.INVALID_ARGUMENT, `Kafka ${kind}: value ${shown.slice(0, 80)} is ${reason}`, {
    details: { kind },
  });
}
