import { AppendFailedError, ErrorCode, NereusError } from "@nereus/core";
import { describe, expect, test } from "vitest";
import { ServerError } from "../protocol/index.js";
import { ledgerClosed, ledgerMismatch, ledgerTerminated, topicNotFound, writeFenced } from "./ledger-errors.js";
import { mapStorageError } from "./map-storage-error.js";

describe("mapStorageError", () => {
  test("facade refusals map by their reason", () => {
    expect(mapStorageError(writeFenced("t", "why"))).toMatchObject({
      serverError: ServerError.PersistenceError,
      retryable: true,
    });
    expect(mapStorageError(ledgerTerminated("t")).serverError).toBe(ServerError.TopicTerminatedError);
    expect(mapStorageError(ledgerClosed("t")).serverError).toBe(ServerError.ServiceNotReady);
    expect(mapStorageError(topicNotFound("t")).serverError).toBe(ServerError.TopicNotFound);
    expect(mapStorageError(ledgerMismatch("t", { ledgerId: 1n, entryId: 0n }, 2n)).serverError).toBe(
      ServerError.NotAllowedError,
    );
  });

  test("an uncertain append is a retryable persistence error; core and cursor codes map by code", () => {
    const uncertain = new AppendFailedError(ErrorCode.TIMEOUT, "lost", "MAY_HAVE_COMMITTED", "run/1");
    expect(mapStorageError(uncertain)).toMatchObject({ serverError: ServerError.PersistenceError, retryable: true });
    const cases: Array<[ErrorCode, number]> = [
      [ErrorCode.BACKPRESSURE_REJECTED, ServerError.TooManyRequests],
      [ErrorCode.METADATA_UNAVAILABLE, ServerError.MetadataError],
      [ErrorCode.STREAM_NOT_ACTIVE, ServerError.TopicTerminatedError],
      [ErrorCode.CURSOR_NOT_FOUND, ServerError.SubscriptionNotFound],
      [ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH, ServerError.PersistenceError],
      [ErrorCode.OBJECT_READ_FAILED, ServerError.PersistenceError],
    ];
    for (const [code, serverError] of cases)
      expect(mapStorageError(new NereusError(code, "x")).serverError, code).toBe(serverError);
    expect(mapStorageError(new Error("boom"))).toMatchObject({
      serverError: ServerError.UnknownError,
      message: "boom",
    });
  });
});
