// Pipeline step 9: the AppendResult a caller receives, derived only from the committed intent (never from local
// guesses), cut to the caller's own sub-range when its append was part of a group commit.
import type { AppendResult } from "../domain/append-types.js";
import type { CommitIntent } from "../domain/commit-records.js";
import type { AttemptMember } from "../lane/append-attempt.js";

/**
 * The result of one member of a committed intent. Shared with the other members of a group commit: `commitId`,
 * `commitVersion`, `readTarget`, `payloadFormat` and `committedEndOffset` (the head end right after the commit).
 * Its own: `startOffset`/`endOffset`, `recordCount`, `entryCount`, `logicalBytes` and `cumulativeSize` (the
 * stream's cumulative logical size through this member's last byte). `generation` is always 0 and `readTarget` the
 * original generation-0 target. Without `member`, the result covers the whole commit.
 */
export function buildAppendResult(intent: CommitIntent, member?: AttemptMember): AppendResult {
  const recordOffset = member?.recordOffset ?? 0;
  const recordCount = member?.recordCount ?? intent.recordCount;
  const logicalBytes = member?.logicalBytes ?? intent.logicalBytes;
  const bytesBefore = member?.logicalBytesBefore ?? 0;
  const startOffset = intent.offsetStart + recordOffset;
  return {
    streamId: intent.streamId,
    startOffset,
    endOffset: startOffset + recordCount,
    committedEndOffset: intent.offsetEnd,
    cumulativeSize: intent.cumulativeSize - intent.logicalBytes + bytesBefore + logicalBytes,
    commitVersion: intent.commitVersion,
    commitId: intent.commitId,
    generation: 0,
    readTarget: intent.readTarget,
    payloadFormat: intent.payloadFormat,
    recordCount,
    entryCount: member?.entryCount ?? intent.entryCount,
    logicalBytes,
  };
}
