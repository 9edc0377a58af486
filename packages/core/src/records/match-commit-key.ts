// The key check shared by the records keyed by a commit (CommitIntent and ReplayMarker): the record's stream and
// commit id must be the ones its key names.
import type { CommitKeyLocation } from "../keys/stream-key-parsers.js";
import type { RecordChecks } from "./record-checks.js";

/** Requires `record`'s stream id and commit id to equal those of the key it was read from. */
export function matchCommitKey(
  record: { readonly streamId: string; readonly commitId: string },
  location: CommitKeyLocation,
  checks: RecordChecks,
): void {
  checks.sameStream(record.streamId, location.streamId);
  checks.require(
    record.commitId === location.commitId,
    `commitId ${record.commitId} does not match the key's commit ${location.commitId}`,
  );
}
