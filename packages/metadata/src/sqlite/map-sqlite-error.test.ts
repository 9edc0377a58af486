import { ErrorCode, MetadataAmbiguousError, NereusError } from "@nereus/core";
import { describe, expect, it } from "vitest";
import { mapSqliteError } from "./map-sqlite-error.js";

const sqliteError = (code: string, message = code): Error => Object.assign(new Error(message), { code });

describe("mapSqliteError", () => {
  it("makes only a failed COMMIT of a mutating txn ambiguous", () => {
    const atCommit = mapSqliteError(sqliteError("SQLITE_IOERR_FSYNC"), { operation: "txn", failedAtCommit: true });
    expect(atCommit).toBeInstanceOf(MetadataAmbiguousError);
    const beforeCommit = mapSqliteError(sqliteError("SQLITE_IOERR_READ"), { operation: "txn", failedAtCommit: false });
    expect(MetadataAmbiguousError.isAmbiguous(beforeCommit)).toBe(false);
    expect(beforeCommit.code).toBe(ErrorCode.METADATA_UNAVAILABLE);
    expect(beforeCommit.details["ambiguous"]).toBe(false);
    expect(beforeCommit.cause).toBeInstanceOf(Error);
  });

  it("treats lock contention as retryable and a broken or read-only file as permanent", () => {
    const busy = mapSqliteError(sqliteError("SQLITE_BUSY"), { operation: "txn", failedAtCommit: false });
    expect(busy.retryable).toBe(true);
    for (const code of ["SQLITE_READONLY", "SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_CANTOPEN"]) {
      const error = mapSqliteError(sqliteError(code), { operation: "get", failedAtCommit: false });
      expect(error.code).toBe(ErrorCode.METADATA_UNAVAILABLE);
      expect(error.retryable).toBe(false);
    }
  });

  it("maps a closed connection to STORAGE_CLOSED and passes NereusErrors through", () => {
    const closed = mapSqliteError(new TypeError("The database connection is not open"), {
      operation: "get",
      failedAtCommit: false,
    });
    expect(closed.code).toBe(ErrorCode.STORAGE_CLOSED);
    const original = new NereusError(ErrorCode.METADATA_CONDITION_FAILED, "lease not found");
    expect(mapSqliteError(original, { operation: "txn", failedAtCommit: true })).toBe(original);
  });
});
