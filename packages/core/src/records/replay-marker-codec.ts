// ReplayMarker record codec (NRM1 recordType "ReplayMarker", schema 1). Payload layout, big-endian:
//   streamId       string
//   commitId       string
//   offsetStart    u64
//   offsetEnd      u64 (> offsetStart)
//   commitVersion  u64 (>= 1)
import type { ReplayMarker } from "../domain/commit-records.js";
import { parseReplayMarkerKey, type CommitKeyLocation } from "../keys/stream-key-parsers.js";
import { defineRecordCodec } from "./define-record-codec.js";
import { matchCommitKey } from "./match-commit-key.js";
import type { RecordCodec } from "./record-codec.js";
import type { RecordChecks } from "./record-checks.js";

function validateMarker(marker: ReplayMarker, checks: RecordChecks): void {
  checks.text("streamId", marker.streamId);
  checks.text("commitId", marker.commitId);
  checks.natural("offsetStart", marker.offsetStart);
  checks.natural("offsetEnd", marker.offsetEnd, 1);
  if (!(marker.offsetStart < marker.offsetEnd))
    throw checks.fail(`empty range [${String(marker.offsetStart)}, ${String(marker.offsetEnd)})`);
  checks.natural("commitVersion", marker.commitVersion, 1);
}

/**
 * Codec of the ReplayMarker record ("did attempt X commit?"). Enforced: a non-empty range, commitVersion >= 1,
 * safe integers. `decode` requires the key's stream id and commit id to match.
 */
export const replayMarkerCodec: RecordCodec<ReplayMarker> = defineRecordCodec<ReplayMarker, CommitKeyLocation>({
  recordType: "ReplayMarker",
  schemaVersion: 1,
  validate: validateMarker,
  parseKey: parseReplayMarkerKey,

  matchKey: matchCommitKey,

  write(writer, marker) {
    writer
      .writeString(marker.streamId)
      .writeString(marker.commitId)
      .writeU64(marker.offsetStart)
      .writeU64(marker.offsetEnd)
      .writeU64(marker.commitVersion);
  },

  read(reader): ReplayMarker {
    return {
      streamId: reader.readString("streamId"),
      commitId: reader.readString("commitId"),
      offsetStart: reader.readU64("offsetStart"),
      offsetEnd: reader.readU64("offsetEnd"),
      commitVersion: reader.readU64("commitVersion"),
    };
  },
});
