// ReplayMarker record codec (NRM1 recordType "ReplayMarker", schema 1). Payload layout, big-endian:
//   streamId       string
//   commitId       string
//   offsetStart    u64
//   offsetEnd      u64 (> offsetStart)
//   commitVersion  u64 (>= 1)
import type { ReplayMarker } from "../domain/commit-records.js";
import { ByteReader } from "../bytes/byte-reader.js";
import { parseReplayMarkerKey } from "../keys/stream-key-parsers.js";
import type { RecordCodec } from "./record-codec.js";
import { RecordChecks } from "./record-checks.js";
import { decodeRecordEnvelope, encodeRecord, type RecordEnvelopeHeader } from "./record-envelope.js";

const RECORD_TYPE = "ReplayMarker";
const SCHEMA_VERSION = 1;
const HEADER: RecordEnvelopeHeader = { recordType: RECORD_TYPE, schemaVersion: SCHEMA_VERSION, minReaderSchemaVersion: SCHEMA_VERSION };

function validateMarker(marker: ReplayMarker, checks: RecordChecks): void {
  checks.text("streamId", marker.streamId);
  checks.text("commitId", marker.commitId);
  checks.natural("offsetStart", marker.offsetStart);
  checks.natural("offsetEnd", marker.offsetEnd, 1);
  if (!(marker.offsetStart < marker.offsetEnd)) throw checks.fail(`empty range [${String(marker.offsetStart)}, ${String(marker.offsetEnd)})`);
  checks.natural("commitVersion", marker.commitVersion, 1);
}

/**
 * Codec of the ReplayMarker record ("did attempt X commit?"). Enforced: a non-empty range, commitVersion >= 1,
 * safe integers. `decode` requires the key's stream id and commit id to match.
 */
export const replayMarkerCodec: RecordCodec<ReplayMarker> = {
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,

  encode(marker: ReplayMarker): Uint8Array {
    validateMarker(marker, new RecordChecks(RECORD_TYPE));
    return encodeRecord(HEADER, (writer) => {
      writer
        .writeString(marker.streamId)
        .writeString(marker.commitId)
        .writeU64(marker.offsetStart)
        .writeU64(marker.offsetEnd)
        .writeU64(marker.commitVersion);
    });
  },

  decode(bytes: Uint8Array, key: string): ReplayMarker {
    const checks = new RecordChecks(RECORD_TYPE, key);
    try {
      const location = parseReplayMarkerKey(key);
      const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
      const reader = new ByteReader(payload, "ReplayMarker payload");
      const marker: ReplayMarker = {
        streamId: reader.readString("streamId"),
        commitId: reader.readString("commitId"),
        offsetStart: reader.readU64("offsetStart"),
        offsetEnd: reader.readU64("offsetEnd"),
        commitVersion: reader.readU64("commitVersion"),
      };
      reader.expectEnd();
      validateMarker(marker, checks);
      checks.require(marker.streamId === location.streamId, `streamId ${marker.streamId} does not match the key's stream ${location.streamId}`);
      checks.require(marker.commitId === location.commitId, `commitId ${marker.commitId} does not match the key's commit ${location.commitId}`);
      return marker;
    } catch (error) {
      return checks.wrap(error);
    }
  },
};
