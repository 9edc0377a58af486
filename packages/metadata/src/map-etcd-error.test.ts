import { ErrorCode, MetadataAmbiguousError, NereusError } from "@nereus/core";
import {
  ClientClosedError,
  EtcdAuthenticationFailedError,
  EtcdError,
  EtcdLeaseInvalidError,
  EtcdPermissionDeniedError,
  GRPCCancelledError,
  GRPCDeadlineExceededError,
  GRPCInternalError,
  GRPCInvalidArgumentError,
  GRPCOutOfRangeError,
  GRPCResourceExhastedError,
  GRPCUnavailableError,
} from "etcd3";
import * as etcd from "etcd3";
import { describe, expect, it } from "vitest";
import { mapEtcdError } from "./map-etcd-error.js";

const write = { operation: "txn", mutating: true } as const;
const read = { operation: "get", mutating: false } as const;

describe("mapEtcdError", () => {
  it.each([
    ["deadline exceeded", new GRPCDeadlineExceededError("4 DEADLINE_EXCEEDED: Deadline exceeded")],
    ["cancelled", new GRPCCancelledError("1 CANCELLED: Cancelled on client")],
    ["connection dropped after send", new GRPCUnavailableError("14 UNAVAILABLE: Connection dropped")],
    ["leader changed", new GRPCUnavailableError("14 UNAVAILABLE: etcdserver: leader changed")],
    ["server request timeout", new GRPCUnavailableError("14 UNAVAILABLE: etcdserver: request timed out")],
    ["internal", new GRPCInternalError("13 INTERNAL: Received RST_STREAM")],
    ["unknown etcd error", new EtcdError("etcdserver: something new")],
    ["plain error", new Error("socket hang up")],
  ])("a mutating txn failing with %s is ambiguous; a read failing so is not", (_name, error) => {
    const mappedWrite = mapEtcdError(error, write, etcd);
    expect(mappedWrite).toBeInstanceOf(MetadataAmbiguousError);
    expect(mappedWrite.cause).toBe(error);
    const mappedRead = mapEtcdError(error, read, etcd);
    expect(mappedRead.code).toBe(ErrorCode.METADATA_UNAVAILABLE);
    expect(MetadataAmbiguousError.isAmbiguous(mappedRead)).toBe(false);
    expect(mappedRead.retryable).toBe(true);
  });

  it.each([
    [
      "no connection",
      new GRPCUnavailableError(
        "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 127.0.0.1:1",
      ),
    ],
    ["rate limited", new GRPCResourceExhastedError("8 RESOURCE_EXHAUSTED: etcdserver: too many requests")],
    ["compacted", new GRPCOutOfRangeError("11 OUT_OF_RANGE: etcdserver: mvcc: required revision has been compacted")],
  ])("a txn that provably never applied (%s) is non-ambiguous METADATA_UNAVAILABLE", (_name, error) => {
    const mapped = mapEtcdError(error, write, etcd);
    expect(mapped.code).toBe(ErrorCode.METADATA_UNAVAILABLE);
    expect(mapped.details["ambiguous"]).toBe(false);
    expect(mapped.retryable).toBe(true);
  });

  it("maps validation, size, lease, auth and closed errors to their codes", () => {
    expect(
      mapEtcdError(
        new GRPCInvalidArgumentError("3 INVALID_ARGUMENT: etcdserver: duplicate key given in txn request"),
        write,
        etcd,
      ).code,
    ).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(
      mapEtcdError(
        new GRPCInvalidArgumentError("3 INVALID_ARGUMENT: etcdserver: too many operations in txn request"),
        write,
        etcd,
      ).code,
    ).toBe(ErrorCode.METADATA_LIMIT_EXCEEDED);
    const lease = mapEtcdError(
      new EtcdLeaseInvalidError("5 NOT_FOUND: etcdserver: requested lease not found"),
      {
        ...write,
        leaseId: "7",
      },
      etcd,
    );
    expect(lease.code).toBe(ErrorCode.METADATA_CONDITION_FAILED);
    expect(lease.details).toMatchObject({ reason: "lease-not-found", leaseId: "7" });
    const denied = mapEtcdError(new EtcdPermissionDeniedError("etcdserver: permission denied"), write, etcd);
    expect(denied.code).toBe(ErrorCode.METADATA_UNAVAILABLE);
    expect(denied.retryable).toBe(false);
    const refused = mapEtcdError(
      new EtcdAuthenticationFailedError("etcdserver: authentication failed, invalid user ID or password"),
      write,
      etcd,
    );
    expect(refused.code).toBe(ErrorCode.METADATA_UNAVAILABLE);
    expect(MetadataAmbiguousError.isAmbiguous(refused)).toBe(false);
    expect(refused.retryable).toBe(false);
    expect(mapEtcdError(new ClientClosedError("KV"), write, etcd).code).toBe(ErrorCode.STORAGE_CLOSED);
    const original = new NereusError(ErrorCode.CANCELLED, "cancelled");
    expect(mapEtcdError(original, write, etcd)).toBe(original);
  });
});
