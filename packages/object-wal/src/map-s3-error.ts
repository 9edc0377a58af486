// Translates @aws-sdk/client-s3 failures into NereusErrors, once, keeping the original as `cause`. Also classifies a
// failed conditional PUT (created elsewhere, conflict, or ambiguous) for the upload path. Knows nothing about WAL
// objects; never retries.
import { type ErrorCode, ErrorCode as Codes, NereusError } from "@nereus/core";

/** The store operation that failed; decides the generic failure code (uploads vs reads). */
export type S3Operation = "put" | "get" | "head" | "list" | "delete" | "probe";

export interface S3ErrorContext {
  readonly operation: S3Operation;
  readonly bucket: string;
  /** Full S3 key (with the store's key prefix), when the call concerned one key. */
  readonly key?: string;
  /** The caller's signal: when it is aborted, the failure is `CANCELLED` whatever the SDK threw. */
  readonly signal?: AbortSignal | undefined;
  /** True when the store's own per-request timeout fired. */
  readonly timedOut?: boolean;
}

interface SdkErrorShape {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly Code?: unknown;
  readonly $metadata?: { readonly httpStatusCode?: unknown };
}

const CHECKSUM_ERROR_NAMES = new Set(["BadDigest", "InvalidDigest", "XAmzContentChecksumMismatch", "InvalidChecksum"]);
/** How @aws-sdk reports a response body that does not match the checksum header (no error name or code). */
const SDK_CHECKSUM_MISMATCH = /^Checksum mismatch: /;
const NOT_FOUND_NAMES = new Set(["NoSuchKey", "NotFound"]);

/** HTTP status of an S3 service error, or undefined for network errors, timeouts and aborts. */
export function s3ErrorStatus(error: unknown): number | undefined {
  const status = (error as SdkErrorShape | undefined)?.$metadata?.httpStatusCode;
  return typeof status === "number" ? status : undefined;
}

function errorName(error: unknown): string {
  const shape = error as SdkErrorShape | undefined;
  for (const candidate of [shape?.Code, shape?.name, shape?.code]) {
    if (typeof candidate === "string" && candidate !== "Error") return candidate;
  }
  return "Error";
}

/**
 * How a failed create-only PUT must be handled:
 * - `exists`: 412, the key already holds an object (ours only if an earlier transmission of this call applied);
 * - `conflict`: 409 ConditionalRequestConflict, a concurrent conditional write is in progress; re-check and retry;
 * - `ambiguous`: the request may have been applied (network error, timeout, 5xx but 501): read back before deciding;
 * - `failed`: the server refused it definitively (4xx, 501); nothing was written.
 */
export type PutFailureKind = "exists" | "conflict" | "ambiguous" | "failed";

/** Classifies a failed conditional PUT (see `PutFailureKind`). A caller abort is `failed` (mapped to CANCELLED). */
export function classifyPutFailure(error: unknown, signal: AbortSignal | undefined): PutFailureKind {
  if (signal?.aborted === true) return "failed";
  const status = s3ErrorStatus(error);
  if (status === 412) return "exists";
  if (status === 409) return "conflict";
  // 501 NotImplemented: the server refused the conditional request as such; nothing was written.
  if (status === 501) return "failed";
  if (status === undefined || status >= 500) return "ambiguous";
  return "failed";
}

/** Maps any error thrown by the SDK (or already a NereusError) to the NereusError the store raises. */
export function mapS3Error(error: unknown, context: S3ErrorContext): NereusError {
  if (NereusError.is(error)) return error;
  const name = errorName(error);
  const status = s3ErrorStatus(error);
  const where = context.key === undefined ? `bucket ${context.bucket}` : `${context.key} in bucket ${context.bucket}`;
  const details = {
    operation: context.operation,
    bucket: context.bucket,
    key: context.key,
    s3Error: name,
    httpStatus: status,
  };
  const make = (code: ErrorCode, message: string, retryable: boolean): NereusError =>
    new NereusError(code, message, { retryable, cause: error, details });

  if (context.signal?.aborted === true) {
    return make(Codes.CANCELLED, `S3 ${context.operation} of ${where} was cancelled`, false);
  }
  if (context.timedOut === true) {
    return make(Codes.TIMEOUT, `S3 ${context.operation} of ${where} timed out`, true);
  }
  const failure =
    context.operation === "put" || context.operation === "delete" || context.operation === "probe"
      ? Codes.OBJECT_UPLOAD_FAILED
      : Codes.OBJECT_READ_FAILED;
  if (name === "NoSuchBucket") {
    return make(failure, `S3 ${context.operation} failed: bucket ${context.bucket} does not exist`, false);
  }
  if (NOT_FOUND_NAMES.has(name) || (status === 404 && context.operation !== "list")) {
    return make(Codes.OBJECT_NOT_FOUND, `object ${where} does not exist`, false);
  }
  if (status === 412) return make(Codes.OBJECT_ALREADY_EXISTS, `object ${where} already exists`, false);
  if (CHECKSUM_ERROR_NAMES.has(name)) {
    return make(Codes.OBJECT_CHECKSUM_MISMATCH, `S3 rejected the checksum of ${where} (${name})`, false);
  }
  if (status === undefined && error instanceof Error && SDK_CHECKSUM_MISMATCH.test(error.message)) {
    // The SDK validated a response body against the x-amz-checksum-* header the server sent with it.
    return make(
      Codes.OBJECT_CHECKSUM_MISMATCH,
      `${where} does not match its stored checksum (${error.message})`,
      false,
    );
  }
  if (status === 416 || name === "InvalidRange") {
    return make(Codes.INVALID_ARGUMENT, `the requested range lies outside object ${where}`, false);
  }
  if (status === undefined) {
    return make(failure, `S3 ${context.operation} of ${where} failed before a response arrived (${name})`, true);
  }
  const retryable =
    status >= 500 || status === 409 || status === 429 || name === "SlowDown" || name === "RequestTimeout";
  return make(failure, `S3 ${context.operation} of ${where} failed with HTTP ${String(status)} ${name}`, retryable);
}
