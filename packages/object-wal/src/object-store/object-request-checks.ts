// Argument checks both object stores (S3 and the filesystem) run before any I/O, so they reject the same requests
// with the same errors: a byte range of a get, the page size of a list, and a range past the end of an object.
import { ErrorCode, NereusError } from "@nereus/core";

/** The most keys one `list` call returns, and its default page size (S3's own limit). */
const MAX_LIST_LIMIT = 1000;

/** A byte range of an object, as `ObjectStore.get` takes it. */
interface ByteRange {
  readonly offset: number;
  readonly length: number;
}

/** Throws `NereusError(INVALID_ARGUMENT)` unless offset and length are non-negative safe integers. */
export function checkRange(range: ByteRange): void {
  if (
    !Number.isSafeInteger(range.offset) ||
    range.offset < 0 ||
    !Number.isSafeInteger(range.length) ||
    range.length < 0
  ) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `range offset and length must be non-negative safe integers, got ${String(range.offset)}/${String(range.length)}`,
      { retryable: false },
    );
  }
}

/** The page size of a list (`limit`, default 1000); throws `NereusError(INVALID_ARGUMENT)` outside 1..1000. */
export function listLimit(limit: number | undefined): number {
  const resolved = limit ?? MAX_LIST_LIMIT;
  if (!Number.isSafeInteger(resolved) || resolved < 1 || resolved > MAX_LIST_LIMIT) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `list limit must be an integer in [1, ${String(MAX_LIST_LIMIT)}], got ${String(limit)}`,
      { retryable: false },
    );
  }
  return resolved;
}

/** The error of a ranged get that reaches past the end of the object `key` of `size` bytes. */
export function rangeOutside(key: string, range: ByteRange, size: number): NereusError {
  return new NereusError(
    ErrorCode.INVALID_ARGUMENT,
    `range [${String(range.offset)}, +${String(range.length)}) lies outside object ${key} of ${String(size)} byte(s)`,
    { retryable: false, details: { key, offset: range.offset, length: range.length, size } },
  );
}
