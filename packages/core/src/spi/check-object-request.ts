// Argument checks shared by the ObjectStore implementations (S3, the filesystem, the in-memory reference store), run
// before any I/O so every store rejects the same requests with the same errors: the byte range of a get, the page
// size of a list, and a range that reaches past the end of an object.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

/** The most keys one `list` call returns, and its default page size (S3's own limit). */
const MAX_LIST_LIMIT = 1000;

/** A byte range of an object, as `ObjectStore.get` takes it. */
interface ByteRange {
  readonly offset: number;
  readonly length: number;
}

/** Throws `NereusError(INVALID_ARGUMENT)` for anything that is not a valid request; returns normally otherwise. */
export const checkObjectRequest = {
  /** Offset and length are non-negative safe integers (whether they fit the object is the store's to check). */
  range(range: ByteRange): void {
    if (
      !Number.isSafeInteger(range.offset) ||
      range.offset < 0 ||
      !Number.isSafeInteger(range.length) ||
      range.length < 0
    ) {
      throw invalid(
        `range offset and length must be non-negative safe integers, got ${String(range.offset)}/${String(range.length)}`,
      );
    }
  },

  /** The page size of a list: `limit`, default 1000, an integer in 1..1000. */
  listLimit(limit: number | undefined): number {
    const resolved = limit ?? MAX_LIST_LIMIT;
    if (!Number.isSafeInteger(resolved) || resolved < 1 || resolved > MAX_LIST_LIMIT) {
      throw invalid(`list limit must be an integer in [1, ${String(MAX_LIST_LIMIT)}], got ${String(limit)}`);
    }
    return resolved;
  },
};

/** The error of a ranged get that reaches past the end of the object `key` of `size` bytes. */
export function objectRangeOutside(key: string, range: ByteRange, size: number): NereusError {
  return new NereusError(
    ErrorCode.INVALID_ARGUMENT,
    `range [${String(range.offset)}, +${String(range.length)}) lies outside object ${key} of ${String(size)} byte(s)`,
    { retryable: false, details: { key, offset: range.offset, length: range.length, size } },
  );
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false });
}
