// CursorOwner record codec (NRM1 recordType "CursorOwner", schema 1): the owner session of one stream's cursors.
// Every cursor write compares this record's exact bytes, so the encoding is canonical. Payload, big-endian:
//   streamId         string
//   ownerSessionId   string (32 lowercase hex digits)
//   claimSequence    u64 (>= 1)
//   claimedAtMillis  u64
import { type RecordChecks, type RecordCodec, defineRecordCodec, matchStreamKey } from "@nereus/core/internal";
import type { CursorOwnerRecord } from "../domain/cursor-records.js";
import { isHex128, parseCursorOwnerKey } from "../keys/cursor-keys.js";

function validate(record: CursorOwnerRecord, checks: RecordChecks): void {
  checks.text("streamId", record.streamId);
  checks.require(isHex128(record.ownerSessionId), "ownerSessionId must be 32 lowercase hex digits");
  checks.natural("claimSequence", record.claimSequence, 1);
  checks.natural("claimedAtMillis", record.claimedAtMillis);
}

/** Codec of {@link CursorOwnerRecord}; `decode` requires the key's stream to be the record's. */
export const cursorOwnerCodec: RecordCodec<CursorOwnerRecord> = defineRecordCodec({
  recordType: "CursorOwner",
  schemaVersion: 1,
  validate,
  parseKey: parseCursorOwnerKey,
  matchKey: matchStreamKey,

  write(writer, record) {
    writer
      .writeString(record.streamId)
      .writeString(record.ownerSessionId)
      .writeU64(record.claimSequence)
      .writeU64(record.claimedAtMillis);
  },

  read(reader): CursorOwnerRecord {
    return {
      streamId: reader.readString("streamId"),
      ownerSessionId: reader.readString("ownerSessionId"),
      claimSequence: reader.readU64("claimSequence"),
      claimedAtMillis: reader.readU64("claimedAtMillis"),
    };
  },
});
