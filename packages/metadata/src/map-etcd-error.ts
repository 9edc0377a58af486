// Translates etcd3/gRPC errors into Nereus errors, once, at the provider boundary. The one question that matters for
// a write is whether it may have applied: only errors that prove the request never reached etcd's apply loop (no
// connection, rejected by validation, auth or quota) are non-ambiguous; a lost response (deadline, cancellation,
// connection dropped after send, leader change, server timeout, anything unknown) makes a mutating txn ambiguous.
// Reads never are: they change nothing. The original error is kept as `cause`. The client runs without retries
// (see etcd-metadata-store.ts), so a "compare failed" is always the answer to our one and only attempt.
import { MetadataAmbiguousError, NereusError } from "@nereus/core";
import { MetadataStoreErrors } from "@nereus/core/internal";
import type { Etcd3 } from "./load-etcd3.js";

/** The etcd3 error classes the mapping tells apart (from the module the store loaded). */
export type EtcdErrorClasses = Pick<
  Etcd3,
  | "ClientClosedError"
  | "EtcdAuthenticationFailedError"
  | "EtcdLeaseInvalidError"
  | "EtcdPermissionDeniedError"
  | "GRPCFailedPreconditionError"
  | "GRPCInvalidArgumentError"
  | "GRPCOutOfRangeError"
  | "GRPCResourceExhastedError"
  | "GRPCUnauthenticatedError"
  | "GRPCUnavailableError"
>;

export interface EtcdErrorContext {
  /** SPI operation name for messages ("get", "txn", "grantLease", ...). */
  readonly operation: string;
  /** True for a txn with at least one write: only such a call can be ambiguous. */
  readonly mutating: boolean;
  /** Lease id involved, for lease-not-found errors. */
  readonly leaseId?: string;
}

/** gRPC UNAVAILABLE messages grpc-js produces when no connection existed, i.e. the request was never sent. */
const NOT_SENT =
  /No connection established|ECONNREFUSED|Name resolution failed|no address available|EHOSTUNREACH|ENETUNREACH/i;
const TOO_LARGE = /too many operations|request is too large|message larger than max|exceeds the maximum/i;

/**
 * Maps an error thrown by an etcd call; `etcd` is the etcd3 module the store loaded. Invariant: the result is `MetadataAmbiguousError` iff `context.mutating` and
 * the error does not prove the request was not applied.
 */
export function mapEtcdError(error: unknown, context: EtcdErrorContext, etcd: EtcdErrorClasses): NereusError {
  if (NereusError.is(error)) return error;
  const {
    ClientClosedError,
    EtcdAuthenticationFailedError,
    EtcdLeaseInvalidError,
    EtcdPermissionDeniedError,
    GRPCFailedPreconditionError,
    GRPCInvalidArgumentError,
    GRPCOutOfRangeError,
    GRPCResourceExhastedError,
    GRPCUnauthenticatedError,
    GRPCUnavailableError,
  } = etcd;
  const what = `etcd ${context.operation}`;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ClientClosedError) return MetadataStoreErrors.closed();
  if (error instanceof EtcdLeaseInvalidError) return MetadataStoreErrors.leaseNotFound(context.leaseId ?? "?", error);
  if (error instanceof GRPCInvalidArgumentError) {
    return TOO_LARGE.test(message)
      ? MetadataStoreErrors.limitExceeded(`${what} rejected: ${message}`, error)
      : MetadataStoreErrors.invalid(`${what} rejected: ${message}`, error);
  }
  if (error instanceof EtcdAuthenticationFailedError) {
    // The token exchange happens before the call is sent: nothing was applied.
    return MetadataStoreErrors.unavailable(`${what} not authenticated: ${message}`, error, false);
  }
  if (error instanceof EtcdPermissionDeniedError || error instanceof GRPCUnauthenticatedError) {
    return MetadataStoreErrors.unavailable(`${what} not authorized: ${message}`, error, false);
  }
  if (
    error instanceof GRPCResourceExhastedError ||
    error instanceof GRPCFailedPreconditionError ||
    error instanceof GRPCOutOfRangeError ||
    (error instanceof GRPCUnavailableError && NOT_SENT.test(message))
  ) {
    // Rejected before apply: rate limit or space quota, precondition, compacted revision, or never connected.
    return MetadataStoreErrors.unavailable(`${what} failed: ${message}`, error);
  }
  if (context.mutating) return new MetadataAmbiguousError(`${what} outcome unknown: ${message}`, error);
  return MetadataStoreErrors.unavailable(`${what} failed: ${message}`, error);
}
