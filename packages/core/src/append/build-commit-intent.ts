// Pipeline step 6 (plan): the deterministic commit id and the exact commit intent of one persisted attempt
// against one head. Pure. The id covers the logical identity and the physical target but not head-derived fields,
// so a CAS retried after a compatible head change (renew, trim) reuses the same id and intent.
import type { CommitIntent } from "../domain/commit-records.js";
import type { AppendSession, StreamHead } from "../domain/stream-head.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { deriveCommitId } from "../identity/derive-commit-id.js";
import { fencingTokenHash } from "../identity/fencing-token.js";
import { readTargetIdentity } from "../records/read-target-identity.js";
import type { PersistedWrite } from "../spi/wal.js";

export interface CommitIntentInput {
  readonly head: StreamHead;
  readonly session: AppendSession;
  readonly persisted: PersistedWrite;
  /** Record count of each entry, in order (the frozen batch's, checked against the prepared write). */
  readonly entryRecordCounts: readonly number[];
}

/**
 * The intent committing `persisted` right after `head`: `[head.end, head.end + records)`, version + 1, the
 * session's epoch and token hash. Throws `METADATA_LIMIT_EXCEEDED` when an offset, size or version would leave the
 * safe-integer range (overflow fails closed, never wraps).
 */
export function buildCommitIntent(input: CommitIntentInput): CommitIntent {
  const { head, session, persisted } = input;
  const prepared = persisted.prepared;
  const offsetStart = head.committedEndOffset;
  const offsetEnd = offsetStart + prepared.recordCount;
  const cumulativeSize = head.cumulativeSize + prepared.logicalBytes;
  const commitVersion = head.commitVersion + 1;
  if (
    !Number.isSafeInteger(offsetEnd) ||
    !Number.isSafeInteger(cumulativeSize) ||
    !Number.isSafeInteger(commitVersion)
  ) {
    throw new NereusError(
      ErrorCode.METADATA_LIMIT_EXCEEDED,
      `stream ${head.streamId}: offsets or sizes would exceed 2^53-1`,
      {
        retryable: false,
      },
    );
  }
  const tokenHash = fencingTokenHash(session.fencingToken);
  const commitId = deriveCommitId({
    streamId: head.streamId,
    writerId: session.writerId,
    writerEpoch: session.epoch,
    fencingTokenHash: tokenHash,
    expectedStartOffset: offsetStart,
    recordCount: prepared.recordCount,
    entryCount: prepared.entryCount,
    logicalBytes: prepared.logicalBytes,
    payloadFormat: prepared.request.payloadFormat,
    payloadChecksum: prepared.payloadChecksum,
    entryRecordCounts: input.entryRecordCounts,
    readTargetType: persisted.readTarget.type,
    readTargetVersion: persisted.readTarget.version,
    readTargetIdentity: readTargetIdentity(persisted.readTarget),
  });
  return {
    streamId: head.streamId,
    commitId,
    previousCommitId: head.lastCommitId,
    offsetStart,
    offsetEnd,
    cumulativeSize,
    commitVersion,
    writerId: session.writerId,
    writerEpoch: session.epoch,
    fencingTokenHash: tokenHash,
    readTarget: persisted.readTarget,
    payloadFormat: prepared.request.payloadFormat,
    recordCount: prepared.recordCount,
    entryCount: prepared.entryCount,
    logicalBytes: prepared.logicalBytes,
    entryRecordCounts: input.entryRecordCounts,
  };
}
