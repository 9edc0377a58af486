// Strict UTF-8 for durable formats: encoding refuses lone surrogates (TextEncoder would silently turn them into
// U+FFFD, so two different strings could share one encoding) and decoding refuses malformed bytes. A leading BOM
// is data, never stripped. Returned arrays are fresh and owned by the caller.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** `String.prototype.isWellFormed` (V8 11.x, Node 20): the same test as `LONE_SURROGATE`, without a regex. */
const nativeIsWellFormed = (String.prototype as { readonly isWellFormed?: (this: string) => boolean }).isWellFormed;
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** True when `value` has no unpaired UTF-16 surrogate, i.e. it has exactly one UTF-8 encoding. */
export function isWellFormedString(value: string): boolean {
  if (nativeIsWellFormed !== undefined && typeof value === "string") return nativeIsWellFormed.call(value);
  return !LONE_SURROGATE.test(value);
}

/**
 * Encodes `value` as UTF-8. Throws `NereusError(INVALID_ARGUMENT)` naming `field` when the string contains an
 * unpaired surrogate (it has no faithful UTF-8 form).
 */
export function encodeStrictUtf8(value: string, field = "string"): Uint8Array {
  if (!isWellFormedString(value)) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `${field} contains an unpaired UTF-16 surrogate`, {
      details: { field },
    });
  }
  return encoder.encode(value);
}

/**
 * Decodes UTF-8 strictly: malformed sequences, overlongs and encoded surrogates throw
 * `NereusError(DECODE_ERROR)` naming `field`. A leading byte-order mark is kept as U+FEFF.
 */
export function decodeStrictUtf8(bytes: Uint8Array, field = "string"): string {
  try {
    return decoder.decode(bytes);
  } catch (cause) {
    throw new NereusError(ErrorCode.DECODE_ERROR, `${field} is not well-formed UTF-8`, { cause, details: { field } });
  }
}
