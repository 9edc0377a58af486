// The one key-component codec shared by metadata keys and object keys (docs/architecture.md §3.2). A value is used raw only when
// it is plainly safe; anything else becomes "b32-" + base32lower_nopad(utf8(value)). Encoded components never
// contain "/", so keys split unambiguously on "/".
import { base32LowerNoPad, decodeBase32LowerNoPad } from "../bytes/base32-lower-no-pad.js";
import { decodeStrictUtf8, encodeStrictUtf8 } from "../bytes/strict-utf8.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

const RAW_SAFE = /^[A-Za-z0-9_.-]+$/;
const ENCODED_PREFIX = "b32-";
const DRIVE_DESIGNATOR = /^[A-Za-z]:/;

function isRawSafe(value: string): boolean {
  return (
    RAW_SAFE.test(value) &&
    value !== "." &&
    value !== ".." &&
    !value.startsWith(ENCODED_PREFIX) &&
    !DRIVE_DESIGNATOR.test(value)
  );
}

/**
 * Encodes one dynamic key component. Raw when it matches `[A-Za-z0-9_.-]+`, is not `.`/`..`, does not start with
 * the reserved `b32-` prefix and is not a drive designator; otherwise `"b32-" + base32lower_nopad(utf8(value))`.
 * Injective and deterministic. Throws INVALID_ARGUMENT for the empty string and for unpaired surrogates.
 */
export function encodeKeyComponent(value: string): string {
  if (value.length === 0) throw new NereusError(ErrorCode.INVALID_ARGUMENT, "key component must not be empty");
  if (isRawSafe(value)) return value;
  return ENCODED_PREFIX + base32LowerNoPad(encodeStrictUtf8(value, "key component"));
}

/**
 * Inverse of `encodeKeyComponent`. Accepts only canonical encodings (a raw-safe value wrapped in `b32-`, bad
 * base32, malformed UTF-8 or an unsafe raw component throw `NereusError(DECODE_ERROR)`), so each value has exactly
 * one key.
 */
export function decodeKeyComponent(component: string): string {
  if (component.startsWith(ENCODED_PREFIX)) {
    let value: string;
    try {
      value = decodeStrictUtf8(decodeBase32LowerNoPad(component.slice(ENCODED_PREFIX.length)), "key component");
    } catch (cause) {
      throw new NereusError(ErrorCode.DECODE_ERROR, `key component ${JSON.stringify(component)} is not valid b32`, {
        cause,
      });
    }
    if (value.length === 0 || isRawSafe(value)) {
      throw new NereusError(ErrorCode.DECODE_ERROR, `key component ${JSON.stringify(component)} is not canonical`);
    }
    return value;
  }
  if (!isRawSafe(component)) {
    throw new NereusError(ErrorCode.DECODE_ERROR, `key component ${JSON.stringify(component)} is not a safe raw value`);
  }
  return component;
}
