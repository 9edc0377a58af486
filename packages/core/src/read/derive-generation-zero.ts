// The derived records of one committed intent: its generation-0 offset index entry and its replay marker. Pure;
// the same intent always yields the same records (so writing them again is idempotent).
import type { CommitIntent, OffsetIndexEntry, ReplayMarker } from "../domain/commit-records.js";

export interface GenerationZeroRecords {
  readonly index: OffsetIndexEntry;
  readonly marker: ReplayMarker;
}

/** Generation-0 index entry (the original target, keyed by offsetEnd) and replay marker of `intent`. */
export function deriveGenerationZero(intent: CommitIntent): GenerationZeroRecords {
  return {
    index: {
      streamId: intent.streamId,
      offsetStart: intent.offsetStart,
      offsetEnd: intent.offsetEnd,
      generation: 0,
      commitId: intent.commitId,
      commitVersion: intent.commitVersion,
      cumulativeSize: intent.cumulativeSize,
      readTarget: intent.readTarget,
      payloadFormat: intent.payloadFormat,
      entryRecordCounts: intent.entryRecordCounts,
    },
    marker: {
      streamId: intent.streamId,
      commitId: intent.commitId,
      offsetStart: intent.offsetStart,
      offsetEnd: intent.offsetEnd,
      commitVersion: intent.commitVersion,
    },
  };
}
