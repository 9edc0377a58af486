import { AppendFailedError, ErrorCode, MetadataAmbiguousError, NereusError } from "@nereus/core";
import { describe, expect, test } from "vitest";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import { mapStorageError } from "./map-storage-error.js";

const failure = (
  code: ErrorCode,
  outcome: "KNOWN_NOT_COMMITTED" | "MAY_HAVE_COMMITTED" | "KNOWN_COMMITTED" = "KNOWN_NOT_COMMITTED",
) => new AppendFailedError(code, "x", outcome, outcome === "KNOWN_NOT_COMMITTED" ? undefined : "run/1");

describe("mapStorageError (docs/architecture.md §9)", () => {
  test("uncertain appends fence the partition until recovery, whatever their code", () => {
    for (const outcome of ["MAY_HAVE_COMMITTED", "KNOWN_COMMITTED"] as const) {
      for (const code of [ErrorCode.TIMEOUT, ErrorCode.METADATA_UNAVAILABLE, ErrorCode.PRIMARY_WAL_WRITE_FAILED]) {
        expect(mapStorageError(failure(code, outcome))).toMatchObject({
          errorCode: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER,
          action: "recover",
          attemptId: "run/1",
        });
      }
    }
  });

  test("each storage failure maps to one Kafka error and one partition action", () => {
    const table: Array<[NereusError, number, string]> = [
      [failure(ErrorCode.OFFSET_CONFLICT), KafkaErrorCode.NOT_LEADER_OR_FOLLOWER, "reload"],
      [failure(ErrorCode.FENCED_APPEND), KafkaErrorCode.NOT_LEADER_OR_FOLLOWER, "reload"],
      [failure(ErrorCode.APPEND_SESSION_EXPIRED), KafkaErrorCode.NOT_LEADER_OR_FOLLOWER, "reload"],
      [failure(ErrorCode.BACKPRESSURE_REJECTED), KafkaErrorCode.REQUEST_TIMED_OUT, "none"],
      [failure(ErrorCode.TIMEOUT), KafkaErrorCode.REQUEST_TIMED_OUT, "none"],
      [failure(ErrorCode.STORAGE_CLOSED), KafkaErrorCode.NOT_LEADER_OR_FOLLOWER, "none"],
      [failure(ErrorCode.STREAM_NOT_ACTIVE), KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "reload"],
      [new NereusError(ErrorCode.STREAM_NOT_FOUND, "x"), KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "reload"],
      [new NereusError(ErrorCode.OFFSET_TRIMMED, "x"), KafkaErrorCode.OFFSET_OUT_OF_RANGE, "reload"],
      [new NereusError(ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH, "x"), KafkaErrorCode.KAFKA_STORAGE_ERROR, "offline"],
      [new NereusError(ErrorCode.METADATA_INVARIANT_VIOLATION, "x"), KafkaErrorCode.KAFKA_STORAGE_ERROR, "offline"],
      [failure(ErrorCode.METADATA_UNAVAILABLE), KafkaErrorCode.KAFKA_STORAGE_ERROR, "none"],
      [new MetadataAmbiguousError("lost"), KafkaErrorCode.KAFKA_STORAGE_ERROR, "none"],
      [failure(ErrorCode.INVALID_ARGUMENT), KafkaErrorCode.INVALID_REQUEST, "none"],
      [new NereusError(ErrorCode.UNKNOWN_APPEND_ATTEMPT, "x"), KafkaErrorCode.UNKNOWN_SERVER_ERROR, "reload"],
    ];
    for (const [error, errorCode, action] of table)
      expect(mapStorageError(error), error.code).toMatchObject({ errorCode, action });
    expect(mapStorageError(failure(ErrorCode.BACKPRESSURE_REJECTED)).throttleTimeMs).toBeGreaterThan(0);
    expect(mapStorageError(new TypeError("bug"))).toMatchObject({
      errorCode: KafkaErrorCode.UNKNOWN_SERVER_ERROR,
      action: "reload",
      message: "bug",
    });
  });
});
