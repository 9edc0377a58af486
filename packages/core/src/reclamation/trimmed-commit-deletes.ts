// The metadata a trimmed commit leaves behind, as the deletes of one transaction: its commit intent, its replay
// marker and its generation-0 index entry. Below the trim offset nothing reads them: reads fail OFFSET_TRIMMED
// first, and a commit-chain walk that reaches a missing intent below the trim offset stops there (the head's trim
// offset is the recovery checkpoint of everything below it).
import type { CommitIntent } from "../domain/commit-records.js";
import type { StreamKeyspace } from "../records/stream-keyspace.js";
import type { WriteOp } from "../spi/metadata-store.js";

/** Deletes of `intent`'s intent, marker and generation-0 index entry (absent keys are no-ops). */
export function trimmedCommitDeletes(keyspace: StreamKeyspace, intent: CommitIntent): WriteOp[] {
  return [
    { type: "delete", key: keyspace.intentKey(intent.streamId, intent.commitId) },
    { type: "delete", key: keyspace.markerKey(intent.streamId, intent.commitId) },
    { type: "delete", key: keyspace.indexKey(intent.streamId, intent.offsetEnd, 0) },
  ];
}
