// BookKeeperWriterState record codec (NRM1 recordType "BookKeeperWriterState", schema 1). Payload, big-endian:
//   streamId             string
//   stateEpoch           u64
//   lifecycle            u8 wire id (IDLE 1, ALLOCATING 2, ACTIVE 3, SEALING 4)
//   ownerWriterId        string
//   ownerWriterEpoch     u64
//   nextSegmentSequence  u64
//   hasLedger            u8 (0/1); when 1:
//     ledgerId           u64
//     segmentSequence    u64
//     createdAtMillis    u64
//   allocationId         string (empty unless ALLOCATING)
//   updatedAtMillis      u64
import { defineRecordCodec, matchStreamKey, type RecordChecks, type RecordCodec } from "@nereus/core/internal";
import { parseWriterStateKey } from "./bookkeeper-wal-keys.js";
import { BookKeeperWalWireIds, type BookKeeperWriterState } from "./bookkeeper-wal-records.js";
import { isLedgerId, readLedgerId, writeLedgerId } from "./ledger-id-field.js";

const RECORD_TYPE = "BookKeeperWriterState";
const SCHEMA_VERSION = 1;

function validate(state: BookKeeperWriterState, checks: RecordChecks): void {
  checks.text("streamId", state.streamId);
  checks.natural("stateEpoch", state.stateEpoch);
  checks.require(
    BookKeeperWalWireIds.writerStateLifecycle.idOf(state.lifecycle) !== undefined,
    `unknown lifecycle ${String(state.lifecycle)}`,
  );
  checks.text("owner.writerId", state.owner.writerId);
  checks.natural("owner.writerEpoch", state.owner.writerEpoch);
  checks.natural("nextSegmentSequence", state.nextSegmentSequence);
  checks.text("allocationId", state.allocationId, true);
  checks.natural("updatedAtMillis", state.updatedAtMillis);
  const holdsLedger = state.lifecycle === "ACTIVE" || state.lifecycle === "SEALING";
  checks.require(
    holdsLedger === (state.ledger !== undefined),
    `a ${state.lifecycle} writer state ${holdsLedger ? "must" : "must not"} name a ledger`,
  );
  checks.require(
    (state.lifecycle === "ALLOCATING") === state.allocationId.length > 0,
    "allocationId is set exactly while ALLOCATING",
  );
  if (state.ledger !== undefined) {
    checks.require(isLedgerId(state.ledger.ledgerId), `ledgerId ${String(state.ledger.ledgerId)} is outside 0..2^63-1`);
    checks.natural("ledger.segmentSequence", state.ledger.segmentSequence);
    checks.natural("ledger.createdAtMillis", state.ledger.createdAtMillis);
    checks.require(
      state.ledger.segmentSequence < state.nextSegmentSequence,
      "the current ledger's segment sequence must be below nextSegmentSequence",
    );
  }
}

/** Codec of the BookKeeperWriterState record. `decode` requires the key's stream to be the record's. */
export const writerStateCodec: RecordCodec<BookKeeperWriterState> = defineRecordCodec({
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,
  validate,
  matchKey: matchStreamKey,
  parseKey: parseWriterStateKey,

  write(writer, state) {
    writer
      .writeString(state.streamId)
      .writeU64(state.stateEpoch)
      .writeU8(BookKeeperWalWireIds.writerStateLifecycle.idOf(state.lifecycle) ?? 0)
      .writeString(state.owner.writerId)
      .writeU64(state.owner.writerEpoch)
      .writeU64(state.nextSegmentSequence)
      .writeBoolean(state.ledger !== undefined);
    if (state.ledger !== undefined) {
      writeLedgerId(writer, state.ledger.ledgerId)
        .writeU64(state.ledger.segmentSequence)
        .writeU64(state.ledger.createdAtMillis);
    }
    writer.writeString(state.allocationId).writeU64(state.updatedAtMillis);
  },

  read(reader, checks): BookKeeperWriterState {
    return {
      streamId: reader.readString("streamId"),
      stateEpoch: reader.readU64("stateEpoch"),
      lifecycle: checks.wireValue("lifecycle", BookKeeperWalWireIds.writerStateLifecycle, reader.readU8("lifecycle")),
      owner: { writerId: reader.readString("ownerWriterId"), writerEpoch: reader.readU64("ownerWriterEpoch") },
      nextSegmentSequence: reader.readU64("nextSegmentSequence"),
      ledger: reader.readBoolean("hasLedger")
        ? {
            ledgerId: readLedgerId(reader, "ledgerId"),
            segmentSequence: reader.readU64("segmentSequence"),
            createdAtMillis: reader.readU64("createdAtMillis"),
          }
        : undefined,
      allocationId: reader.readString("allocationId"),
      updatedAtMillis: reader.readU64("updatedAtMillis"),
    };
  },
});
