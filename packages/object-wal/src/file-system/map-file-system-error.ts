// Translates node:fs failures of the filesystem object store into NereusErrors, once, keeping the original as
// `cause`. Uses the same codes as the S3 store so callers cannot tell the backends apart by their errors.
import { ErrorCode, NereusError } from "@nereus/core";

export type FileSystemOperation = "put" | "get" | "head" | "list" | "delete";

/** errno codes after which the same call may succeed later. */
const RETRYABLE_ERRNO = new Set([
  "EAGAIN",
  "EBUSY",
  "EMFILE",
  "ENFILE",
  "ENOSPC",
  "EDQUOT",
  "EINTR",
  "EIO",
  "ETIMEDOUT",
]);

/** Maps an error thrown by node:fs while serving `operation` on `key` (or already a NereusError) to a NereusError. */
export function mapFileSystemError(error: unknown, operation: FileSystemOperation, key?: string): NereusError {
  if (NereusError.is(error)) return error;
  const errno = (error as { code?: unknown } | undefined)?.code;
  const code = typeof errno === "string" ? errno : "UNKNOWN";
  const what = key === undefined ? operation : `${operation} of ${key}`;
  const details = { operation, key, errno: code };
  if (code === "ENOENT" && operation !== "list" && operation !== "delete") {
    return new NereusError(ErrorCode.OBJECT_NOT_FOUND, `object ${key ?? ""} does not exist`, {
      retryable: false,
      cause: error,
      details,
    });
  }
  const failure =
    operation === "put" || operation === "delete" ? ErrorCode.OBJECT_UPLOAD_FAILED : ErrorCode.OBJECT_READ_FAILED;
  return new NereusError(failure, `filesystem object store: ${what} failed (${code})`, {
    retryable: RETRYABLE_ERRNO.has(code),
    cause: error,
    details,
  });
}
