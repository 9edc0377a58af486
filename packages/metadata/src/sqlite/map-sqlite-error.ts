// Translates better-sqlite3 errors into Nereus errors, once, at the provider boundary. SQLite transactions are
// atomic: an error raised before COMMIT rolls the transaction back, so only a failing COMMIT of a mutating txn
// (I/O error, disk full while syncing) can leave its outcome unknown. The caller says which side of COMMIT failed.
import { MetadataAmbiguousError, NereusError } from "@nereus/core";
import { MetadataStoreErrors } from "@nereus/core/internal";

export interface SqliteErrorContext {
  readonly operation: string;
  /** True when the error came from the COMMIT of a txn with writes (the only ambiguous case). */
  readonly failedAtCommit: boolean;
}

const LOCK_CONTENTION = /^SQLITE_(BUSY|LOCKED)/;
const PERMANENT = /^SQLITE_(READONLY|CANTOPEN|NOTADB|CORRUPT|PERM|AUTH)/;

/**
 * Maps an error thrown by better-sqlite3. Invariant: the result is `MetadataAmbiguousError` iff
 * `context.failedAtCommit`; lock contention is retryable, a broken or read-only database is not.
 */
export function mapSqliteError(error: unknown, context: SqliteErrorContext): NereusError {
  if (NereusError.is(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof (error as { code?: unknown })?.code === "string" ? (error as { code: string }).code : "";
  const what = `sqlite ${context.operation}`;
  if (error instanceof TypeError && /database connection is not open/i.test(message))
    return MetadataStoreErrors.closed();
  if (context.failedAtCommit) return new MetadataAmbiguousError(`${what} commit outcome unknown: ${message}`, error);
  if (LOCK_CONTENTION.test(code))
    return MetadataStoreErrors.unavailable(`${what} could not lock the database: ${message}`, error);
  if (PERMANENT.test(code)) return MetadataStoreErrors.unavailable(`${what} failed: ${message}`, error, false);
  return MetadataStoreErrors.unavailable(`${what} failed: ${message}`, error);
}
