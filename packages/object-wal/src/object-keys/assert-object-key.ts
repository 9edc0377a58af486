// Key rules shared by the S3 and filesystem stores, checked before any I/O. They keep keys portable between
// backends (a key valid on one store is valid on the other) and make path traversal impossible on the filesystem.
// Deliberately stricter than S3: no empty, "." or ".." segments, no leading or trailing "/", no control characters.
import { ErrorCode, NereusError } from "@nereus/core";
import { isWellFormedString } from "@nereus/core/internal";

/** S3's limit on the UTF-8 length of a key; object-wal applies it to every store. */
export const MAX_OBJECT_KEY_BYTES = 1024;

/**
 * Throws `NereusError(INVALID_ARGUMENT)` unless `key` is a non-empty, well-formed string of at most 1024 UTF-8
 * bytes made of "/"-separated segments that are neither empty nor "." nor "..", without control characters.
 */
export function assertObjectKey(key: string): void {
  if (typeof key !== "string" || key.length === 0) throw invalidKey(key, "must be a non-empty string");
  assertKeyText(key, "object key");
  for (const segment of key.split("/")) {
    if (segment.length === 0) throw invalidKey(key, "must not start or end with '/' nor contain '//'");
    if (segment === "." || segment === "..") throw invalidKey(key, "must not contain '.' or '..' segments");
  }
}

/** Throws `NereusError(INVALID_ARGUMENT)` unless `prefix` is a well-formed string a key could start with ("" lists all). */
export function assertListPrefix(prefix: string): void {
  if (typeof prefix !== "string") throw invalidKey(prefix, "list prefix must be a string");
  assertKeyText(prefix, "list prefix");
}

function assertKeyText(value: string, what: string): void {
  if (!isWellFormedString(value)) throw invalidKey(value, `${what} contains an unpaired UTF-16 surrogate`);
  if (hasControlCharacter(value)) throw invalidKey(value, `${what} contains a control character`);
  if (Buffer.byteLength(value, "utf8") > MAX_OBJECT_KEY_BYTES) {
    throw invalidKey(value, `${what} is longer than ${String(MAX_OBJECT_KEY_BYTES)} UTF-8 bytes`);
  }
}

/**
 * True when `value` contains a C0 control character or DEL (U+0000..U+001F, U+007F): S3 answers them
 * inconsistently in XML listings, and they have no place in a key.
 */
export function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code <= 0x1f || code === 0x7f) return true;
  }
  return false;
}

function invalidKey(key: unknown, reason: string): NereusError {
  const shown = typeof key === "string" ? JSON.stringify(key.slice(0, 200)) : String(key);
  return new NereusError(ErrorCode.INVALID_ARGUMENT, `invalid object key ${shown}: ${reason}`, { retryable: false });
}
