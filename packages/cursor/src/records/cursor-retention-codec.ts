// CursorRetention record codec (NRM1 recordType "CursorRetention", schema 1): one stream's retention floor and its
// pending protection or trim. Payload, big-endian:
//   streamId                 string
//   ownerSessionId           string (32 hex digits)
//   lifecycle                u8 wire id (ACTIVE 1, PROTECTION_PENDING 2, TRIM_PENDING 3)
//   mutationSequence         u64 (>= 1)
//   protectedFloorOffset     u64
//   lastCompletedTrimOffset  u64
//   pendingProtection        u8 presence (0/1), then if 1:
//     attemptId string, kind u8 wire id (CREATE 1, RECREATE 2, BACKWARD_RESET 3), cursorName string,
//     cursorNameHash string, expectedGeneration u64, targetGeneration u64, targetMarkDeleteOffset u64,
//     targetPartial u8 presence then partial (see cursor-record-fields.ts), initialProperties stringMap,
//     createdAtMillis u64
//   pendingTrim              u8 presence (0/1), then if 1: attemptId string, offset u64, reason string
//   updatedAtMillis          u64
import { type RecordChecks, type RecordCodec, defineRecordCodec, matchStreamKey } from "@nereus/core/internal";
import type { ByteReader } from "@nereus/core";
import type { CursorRetentionRecord, ProtectionIntent, ProtectionKind, TrimIntent } from "../domain/cursor-records.js";
import { cursorNameHash, cursorNameProblem, isHex128, parseCursorRetentionKey } from "../keys/cursor-keys.js";
import { checkStringMap, readPartial, readStringMap, writePartial, writeStringMap } from "./cursor-record-fields.js";
import { CursorWireIds } from "./cursor-wire-ids.js";
import { partialAckProblem } from "./partial-ack-form.js";

/** The generation a protection kind moves a cursor to from `expected`, or undefined when `expected` is invalid. */
function targetGenerationOf(kind: ProtectionKind, expected: number): number | undefined {
  if (kind === "CREATE") return expected === 0 ? 1 : undefined;
  if (expected < 1) return undefined;
  return kind === "RECREATE" ? expected + 1 : expected;
}

function validateProtection(intent: ProtectionIntent, floor: number, checks: RecordChecks): void {
  checks.require(isHex128(intent.attemptId), "pendingProtection.attemptId must be 32 lowercase hex digits");
  checks.require(
    CursorWireIds.protectionKind.idOf(intent.kind) !== undefined,
    `unknown protection kind ${String(intent.kind)}`,
  );
  const nameProblem = cursorNameProblem(intent.cursorName);
  if (nameProblem !== undefined) throw checks.fail(`pendingProtection: ${nameProblem}`);
  checks.require(
    intent.cursorNameHash === cursorNameHash(intent.cursorName),
    "pendingProtection.cursorNameHash is not the hash of its cursor name",
  );
  checks.natural("pendingProtection.expectedGeneration", intent.expectedGeneration);
  checks.natural("pendingProtection.targetGeneration", intent.targetGeneration, 1);
  checks.require(
    targetGenerationOf(intent.kind, intent.expectedGeneration) === intent.targetGeneration,
    `a ${intent.kind} cannot move generation ${String(intent.expectedGeneration)} to ${String(intent.targetGeneration)}`,
  );
  checks.natural("pendingProtection.targetMarkDeleteOffset", intent.targetMarkDeleteOffset);
  checks.require(
    floor <= intent.targetMarkDeleteOffset,
    `protectedFloorOffset ${String(floor)} is above the pending target ${String(intent.targetMarkDeleteOffset)}`,
  );
  if (intent.targetPartial !== undefined) {
    const problem = partialAckProblem(intent.targetPartial);
    if (problem !== undefined) throw checks.fail(`pendingProtection.targetPartial: ${problem}`);
    checks.require(
      intent.targetPartial.offset === intent.targetMarkDeleteOffset,
      "pendingProtection.targetPartial must be at targetMarkDeleteOffset",
    );
  }
  checkStringMap(intent.initialProperties, "pendingProtection.initialProperties", checks);
  checks.require(
    intent.kind !== "BACKWARD_RESET" || intent.initialProperties.size === 0,
    "a BACKWARD_RESET intent has no initial properties",
  );
  checks.natural("pendingProtection.createdAtMillis", intent.createdAtMillis);
}

function validateTrim(intent: TrimIntent, record: CursorRetentionRecord, checks: RecordChecks): void {
  checks.require(isHex128(intent.attemptId), "pendingTrim.attemptId must be 32 lowercase hex digits");
  checks.natural("pendingTrim.offset", intent.offset);
  checks.require(
    record.lastCompletedTrimOffset < intent.offset && intent.offset <= record.protectedFloorOffset,
    `pendingTrim.offset ${String(intent.offset)} is outside (lastCompletedTrimOffset, protectedFloorOffset]`,
  );
  checks.text("pendingTrim.reason", intent.reason, true);
}

function validate(record: CursorRetentionRecord, checks: RecordChecks): void {
  checks.text("streamId", record.streamId);
  checks.require(isHex128(record.ownerSessionId), "ownerSessionId must be 32 lowercase hex digits");
  checks.require(
    CursorWireIds.retentionLifecycle.idOf(record.lifecycle) !== undefined,
    `unknown lifecycle ${String(record.lifecycle)}`,
  );
  checks.natural("mutationSequence", record.mutationSequence, 1);
  checks.natural("protectedFloorOffset", record.protectedFloorOffset);
  checks.natural("lastCompletedTrimOffset", record.lastCompletedTrimOffset);
  checks.require(
    record.lastCompletedTrimOffset <= record.protectedFloorOffset,
    `lastCompletedTrimOffset ${String(record.lastCompletedTrimOffset)} is above protectedFloorOffset ${String(record.protectedFloorOffset)}`,
  );
  checks.require(
    (record.lifecycle === "PROTECTION_PENDING") === (record.pendingProtection !== undefined),
    "pendingProtection is set exactly when PROTECTION_PENDING",
  );
  checks.require(
    (record.lifecycle === "TRIM_PENDING") === (record.pendingTrim !== undefined),
    "pendingTrim is set exactly when TRIM_PENDING",
  );
  if (record.pendingProtection !== undefined) {
    validateProtection(record.pendingProtection, record.protectedFloorOffset, checks);
  }
  if (record.pendingTrim !== undefined) validateTrim(record.pendingTrim, record, checks);
  checks.natural("updatedAtMillis", record.updatedAtMillis);
}

function readProtection(reader: ByteReader, checks: RecordChecks): ProtectionIntent {
  return {
    attemptId: reader.readString("pendingProtection.attemptId"),
    kind: checks.wireValue("protection kind", CursorWireIds.protectionKind, reader.readU8("pendingProtection.kind")),
    cursorName: reader.readString("pendingProtection.cursorName"),
    cursorNameHash: reader.readString("pendingProtection.cursorNameHash"),
    expectedGeneration: reader.readU64("pendingProtection.expectedGeneration"),
    targetGeneration: reader.readU64("pendingProtection.targetGeneration"),
    targetMarkDeleteOffset: reader.readU64("pendingProtection.targetMarkDeleteOffset"),
    targetPartial: reader.readBoolean("pendingProtection.targetPartial.present")
      ? readPartial(reader, "pendingProtection.targetPartial")
      : undefined,
    initialProperties: readStringMap(reader, "pendingProtection.initialProperties"),
    createdAtMillis: reader.readU64("pendingProtection.createdAtMillis"),
  };
}

/**
 * Codec of {@link CursorRetentionRecord}. Enforces on encode and decode: 32-hex owner session and attempt ids,
 * mutationSequence >= 1, lastCompletedTrimOffset <= protectedFloorOffset, pendingProtection set exactly when
 * PROTECTION_PENDING (with floor <= its target, a valid cursor name and its hash, generations CREATE 0 → 1,
 * RECREATE g → g + 1 (g >= 1), BACKWARD_RESET g → g (g >= 1) without initial properties, and a canonical target
 * partial at the target offset), pendingTrim set exactly when TRIM_PENDING with lastCompletedTrimOffset < offset <=
 * protectedFloorOffset. `decode` also requires the key's stream to be the record's.
 */
export const cursorRetentionCodec: RecordCodec<CursorRetentionRecord> = defineRecordCodec({
  recordType: "CursorRetention",
  schemaVersion: 1,
  validate,
  parseKey: parseCursorRetentionKey,
  matchKey: matchStreamKey,

  write(writer, record) {
    writer
      .writeString(record.streamId)
      .writeString(record.ownerSessionId)
      .writeU8(CursorWireIds.retentionLifecycle.idOf(record.lifecycle) ?? 0)
      .writeU64(record.mutationSequence)
      .writeU64(record.protectedFloorOffset)
      .writeU64(record.lastCompletedTrimOffset)
      .writeBoolean(record.pendingProtection !== undefined);
    const protection = record.pendingProtection;
    if (protection !== undefined) {
      writer
        .writeString(protection.attemptId)
        .writeU8(CursorWireIds.protectionKind.idOf(protection.kind) ?? 0)
        .writeString(protection.cursorName)
        .writeString(protection.cursorNameHash)
        .writeU64(protection.expectedGeneration)
        .writeU64(protection.targetGeneration)
        .writeU64(protection.targetMarkDeleteOffset)
        .writeBoolean(protection.targetPartial !== undefined);
      if (protection.targetPartial !== undefined) writePartial(writer, protection.targetPartial);
      writeStringMap(writer, protection.initialProperties);
      writer.writeU64(protection.createdAtMillis);
    }
    writer.writeBoolean(record.pendingTrim !== undefined);
    if (record.pendingTrim !== undefined) {
      writer
        .writeString(record.pendingTrim.attemptId)
        .writeU64(record.pendingTrim.offset)
        .writeString(record.pendingTrim.reason);
    }
    writer.writeU64(record.updatedAtMillis);
  },

  read(reader, checks): CursorRetentionRecord {
    return {
      streamId: reader.readString("streamId"),
      ownerSessionId: reader.readString("ownerSessionId"),
      lifecycle: checks.wireValue("lifecycle", CursorWireIds.retentionLifecycle, reader.readU8("lifecycle")),
      mutationSequence: reader.readU64("mutationSequence"),
      protectedFloorOffset: reader.readU64("protectedFloorOffset"),
      lastCompletedTrimOffset: reader.readU64("lastCompletedTrimOffset"),
      pendingProtection: reader.readBoolean("pendingProtection.present") ? readProtection(reader, checks) : undefined,
      pendingTrim: reader.readBoolean("pendingTrim.present")
        ? {
            attemptId: reader.readString("pendingTrim.attemptId"),
            offset: reader.readU64("pendingTrim.offset"),
            reason: reader.readString("pendingTrim.reason"),
          }
        : undefined,
      updatedAtMillis: reader.readU64("updatedAtMillis"),
    };
  },
});
