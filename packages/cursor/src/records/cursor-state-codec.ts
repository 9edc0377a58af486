// CursorState record codec (NRM1 recordType "CursorState", schema 1): the root of one cursor. Payload, big-endian:
//   streamId                 string
//   cursorName               string (valid cursor name, at most 1 KiB of UTF-8)
//   cursorNameHash           string (32 hex digits, = cursorNameHash(cursorName))
//   ownerSessionId           string (32 hex digits)
//   cursorGeneration         u64 (>= 1)
//   lifecycle                u8 wire id (ACTIVE 1, DELETED 2)
//   mutationSequence         u64 (>= 1)
//   ackStateEpoch            u64 (>= 1)
//   lastProtectionAttemptId  string ("" or 32 hex digits)
//   markDeleteOffset         u64
//   snapshot                 u8 presence (0/1), then if 1:
//     objectKey string, snapshotId string, sizeBytes u64, crc32c u32, sourceMutationSequence u64,
//     baseMarkDeleteOffset u64
//   inlineRanges             ranges   (see cursor-record-fields.ts)
//   inlinePartials           partials
//   positionProperties       int64Map
//   cursorProperties         stringMap
//   createdAtMillis          u64
//   updatedAtMillis          u64
//   deletedAtMillis          u8 presence (0/1), then u64 if 1
import { type RecordChecks, type RecordCodec, defineRecordCodec } from "@nereus/core/internal";
import type { CursorStateRecord, SnapshotReference } from "../domain/cursor-records.js";
import {
  type CursorRootKeyLocation,
  cursorNameHash,
  cursorNameProblem,
  isHex128,
  parseCursorRootKey,
  parseSnapshotObjectKey,
  type SnapshotObjectKeyLocation,
} from "../keys/cursor-keys.js";
import {
  checkInt64Map,
  checkStringMap,
  readInt64Map,
  readPartials,
  readRanges,
  readStringMap,
  writeInt64Map,
  writePartials,
  writeRanges,
  writeStringMap,
} from "./cursor-record-fields.js";
import { CursorWireIds } from "./cursor-wire-ids.js";
import { inlinePartialsProblem, inlineRangesProblem } from "./inline-ack-form.js";

const RECORD_TYPE = "CursorState";
const SCHEMA_VERSION = 1;

function hex128(name: string, value: unknown, checks: RecordChecks): void {
  checks.require(isHex128(value), `${name} must be 32 lowercase hex digits, got ${String(value)}`);
}

function validateIdentity(record: CursorStateRecord, checks: RecordChecks): void {
  checks.text("streamId", record.streamId);
  const nameProblem = cursorNameProblem(record.cursorName);
  if (nameProblem !== undefined) throw checks.fail(nameProblem);
  checks.require(
    record.cursorNameHash === cursorNameHash(record.cursorName),
    `cursorNameHash ${String(record.cursorNameHash)} is not the hash of the cursor name`,
  );
  hex128("ownerSessionId", record.ownerSessionId, checks);
  checks.natural("cursorGeneration", record.cursorGeneration, 1);
  checks.require(
    CursorWireIds.cursorLifecycle.idOf(record.lifecycle) !== undefined,
    `unknown lifecycle ${String(record.lifecycle)}`,
  );
  checks.natural("mutationSequence", record.mutationSequence, 1);
  checks.natural("ackStateEpoch", record.ackStateEpoch, 1);
  if (record.lastProtectionAttemptId !== "") hex128("lastProtectionAttemptId", record.lastProtectionAttemptId, checks);
  checks.natural("createdAtMillis", record.createdAtMillis);
  checks.natural("updatedAtMillis", record.updatedAtMillis);
}

function snapshotLocation(objectKey: string, checks: RecordChecks): SnapshotObjectKeyLocation {
  try {
    return parseSnapshotObjectKey(objectKey);
  } catch (cause) {
    throw checks.fail(`snapshot.objectKey ${JSON.stringify(objectKey)} is not a cursor snapshot key`, cause);
  }
}

function validateSnapshotReference(record: CursorStateRecord, snapshot: SnapshotReference, checks: RecordChecks): void {
  checks.text("snapshot.objectKey", snapshot.objectKey);
  hex128("snapshot.snapshotId", snapshot.snapshotId, checks);
  checks.natural("snapshot.sizeBytes", snapshot.sizeBytes, 1);
  checks.u32("snapshot.crc32c", snapshot.crc32c);
  checks.natural("snapshot.sourceMutationSequence", snapshot.sourceMutationSequence, 1);
  checks.natural("snapshot.baseMarkDeleteOffset", snapshot.baseMarkDeleteOffset);
  checks.require(
    snapshot.sourceMutationSequence <= record.mutationSequence,
    `snapshot.sourceMutationSequence ${String(snapshot.sourceMutationSequence)} is above the root's mutationSequence ${String(record.mutationSequence)}`,
  );
  checks.require(
    snapshot.baseMarkDeleteOffset <= record.markDeleteOffset,
    `snapshot.baseMarkDeleteOffset ${String(snapshot.baseMarkDeleteOffset)} is above markDeleteOffset ${String(record.markDeleteOffset)}`,
  );
  const location = snapshotLocation(snapshot.objectKey, checks);
  checks.require(
    location.streamId === record.streamId &&
      location.cursorNameHash === record.cursorNameHash &&
      location.cursorGeneration === record.cursorGeneration &&
      location.snapshotId === snapshot.snapshotId,
    `snapshot.objectKey ${snapshot.objectKey} is not the key of snapshot ${snapshot.snapshotId} of this cursor generation`,
  );
}

function validateAckState(record: CursorStateRecord, checks: RecordChecks): void {
  checks.natural("markDeleteOffset", record.markDeleteOffset);
  if (record.snapshot !== undefined) validateSnapshotReference(record, record.snapshot, checks);
  const rangesProblem = inlineRangesProblem(record.markDeleteOffset, record.inlineRanges);
  if (rangesProblem !== undefined) throw checks.fail(rangesProblem);
  const partialsProblem = inlinePartialsProblem(record.markDeleteOffset, record.inlineRanges, record.inlinePartials);
  if (partialsProblem !== undefined) throw checks.fail(partialsProblem);
  checkInt64Map(record.positionProperties, "positionProperties", checks);
  checkStringMap(record.cursorProperties, "cursorProperties", checks);
}

function validateLifecycle(record: CursorStateRecord, checks: RecordChecks): void {
  if (record.lifecycle === "ACTIVE") {
    checks.require(record.deletedAtMillis === undefined, "an ACTIVE cursor has no deletedAtMillis");
    return;
  }
  checks.natural("deletedAtMillis", record.deletedAtMillis);
  checks.require(
    record.snapshot === undefined &&
      record.inlineRanges.length === 0 &&
      record.inlinePartials.length === 0 &&
      record.positionProperties.size === 0 &&
      record.cursorProperties.size === 0,
    "a DELETED cursor has no snapshot, no inline ack state and no properties",
  );
}

function validate(record: CursorStateRecord, checks: RecordChecks): void {
  validateIdentity(record, checks);
  validateAckState(record, checks);
  validateLifecycle(record, checks);
}

function matchKey(record: CursorStateRecord, location: CursorRootKeyLocation, checks: RecordChecks): void {
  checks.sameStream(record.streamId, location.streamId);
  checks.require(
    record.cursorNameHash === location.cursorNameHash,
    `cursorNameHash ${record.cursorNameHash} does not match the key's ${location.cursorNameHash}`,
  );
  if (record.snapshot !== undefined) {
    const cluster = snapshotLocation(record.snapshot.objectKey, checks).cluster;
    checks.require(
      cluster === location.cluster,
      `snapshot.objectKey is in cluster ${JSON.stringify(cluster)}, the key in ${JSON.stringify(location.cluster)}`,
    );
  }
}

/**
 * Codec of {@link CursorStateRecord}. Enforces every invariant the type documents, on encode and on decode:
 * identifiers well-formed (32-hex ids, the name hash of the exact name), generation/sequence/epoch >= 1, inline
 * ranges sorted/disjoint/non-adjacent above markDelete, inline partials canonical, sorted, at or above markDelete
 * and outside every inline range, position properties int64, a snapshot reference whose object key names this
 * stream, cursor hash, generation and snapshot id with baseMarkDelete <= markDelete and source sequence <= the
 * root's sequence, and a DELETED record without snapshot, inline state or properties but with deletedAtMillis
 * (which an ACTIVE one lacks). Maps are written sorted by UTF-8 key bytes, so equal records encode to equal bytes.
 * `decode` also requires the key's stream and name hash, and the cluster of the snapshot key, to be the record's.
 */
export const cursorStateCodec: RecordCodec<CursorStateRecord> = defineRecordCodec({
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,
  validate,
  parseKey: parseCursorRootKey,
  matchKey,

  write(writer, record) {
    writer
      .writeString(record.streamId)
      .writeString(record.cursorName)
      .writeString(record.cursorNameHash)
      .writeString(record.ownerSessionId)
      .writeU64(record.cursorGeneration)
      .writeU8(CursorWireIds.cursorLifecycle.idOf(record.lifecycle) ?? 0)
      .writeU64(record.mutationSequence)
      .writeU64(record.ackStateEpoch)
      .writeString(record.lastProtectionAttemptId)
      .writeU64(record.markDeleteOffset)
      .writeBoolean(record.snapshot !== undefined);
    if (record.snapshot !== undefined) {
      writer
        .writeString(record.snapshot.objectKey)
        .writeString(record.snapshot.snapshotId)
        .writeU64(record.snapshot.sizeBytes)
        .writeU32(record.snapshot.crc32c)
        .writeU64(record.snapshot.sourceMutationSequence)
        .writeU64(record.snapshot.baseMarkDeleteOffset);
    }
    writeRanges(writer, record.inlineRanges);
    writePartials(writer, record.inlinePartials);
    writeInt64Map(writer, record.positionProperties);
    writeStringMap(writer, record.cursorProperties);
    writer
      .writeU64(record.createdAtMillis)
      .writeU64(record.updatedAtMillis)
      .writeBoolean(record.deletedAtMillis !== undefined);
    if (record.deletedAtMillis !== undefined) writer.writeU64(record.deletedAtMillis);
  },

  read(reader, checks): CursorStateRecord {
    return {
      streamId: reader.readString("streamId"),
      cursorName: reader.readString("cursorName"),
      cursorNameHash: reader.readString("cursorNameHash"),
      ownerSessionId: reader.readString("ownerSessionId"),
      cursorGeneration: reader.readU64("cursorGeneration"),
      lifecycle: checks.wireValue("lifecycle", CursorWireIds.cursorLifecycle, reader.readU8("lifecycle")),
      mutationSequence: reader.readU64("mutationSequence"),
      ackStateEpoch: reader.readU64("ackStateEpoch"),
      lastProtectionAttemptId: reader.readString("lastProtectionAttemptId"),
      markDeleteOffset: reader.readU64("markDeleteOffset"),
      snapshot: reader.readBoolean("snapshot.present")
        ? {
            objectKey: reader.readString("snapshot.objectKey"),
            snapshotId: reader.readString("snapshot.snapshotId"),
            sizeBytes: reader.readU64("snapshot.sizeBytes"),
            crc32c: reader.readU32("snapshot.crc32c"),
            sourceMutationSequence: reader.readU64("snapshot.sourceMutationSequence"),
            baseMarkDeleteOffset: reader.readU64("snapshot.baseMarkDeleteOffset"),
          }
        : undefined,
      inlineRanges: readRanges(reader, "inlineRanges"),
      inlinePartials: readPartials(reader, "inlinePartials"),
      positionProperties: readInt64Map(reader, "positionProperties"),
      cursorProperties: readStringMap(reader, "cursorProperties"),
      createdAtMillis: reader.readU64("createdAtMillis"),
      updatedAtMillis: reader.readU64("updatedAtMillis"),
      deletedAtMillis: reader.readBoolean("deletedAtMillis.present") ? reader.readU64("deletedAtMillis") : undefined,
    };
  },
});
