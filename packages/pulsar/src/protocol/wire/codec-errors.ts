// The two failures the Pulsar codec raises: DECODE_ERROR for bytes that do not follow the wire rules (always naming
// what was being read and at which byte), INVALID_ARGUMENT for a value an encoder cannot put on the wire. Encoders
// only ever see values built by this process, so their failures are programming errors, never decode errors.
import { ErrorCode, NereusError } from "@nereus/core";

/** `NereusError(DECODE_ERROR)`: `what` (a message or field path) is malformed at byte `offset` of its buffer. */
export function decodeError(what: string, offset: number, reason: string, cause?: unknown): NereusError {
  return new NereusError(ErrorCode.DECODE_ERROR, `Pulsar ${what} at byte ${String(offset)}: ${reason}`, {
    cause,
    details: { context: `Pulsar ${what}`, offset },
  });
}

/** `NereusError(INVALID_ARGUMENT)`: the value at `path` cannot be encoded as a Pulsar `kind`. */
export function invalidValue(path: string, kind: string, value: unknown, reason = "out of range"): NereusError {
  const shown =
    typeof value === "bigint"
      ? `${value.toString()}n`
      : typeof value === "string"
        ? JSON.stringify(value)
        : value instanceof Uint8Array
          ? `${String(value.length)} bytes`
          : String(value);
  return new NereusError(
    ErrorCode.INVALID_ARGUMENT,
    `Pulsar ${path} (${kind}): value ${shown.slice(0, 80)} is ${reason}`,
    {
      details: { path, kind },
    },
  );
}

/** The message of an unknown thrown value, for wrapping library errors. */
export function describeCause(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
