// StreamMaterialization record codec (NRM1 recordType "StreamMaterialization", schema 1). Payload layout,
// big-endian:
//   streamId                    string
//   generationZeroIndexedEnd    u64
//   materializedEnd             u64
//   materializedCumulativeSize  u64
//   mergedEnd                   u64
//   nextGeneration              u64 (>= 1)
//   task                        u8 presence (0/1), then:
//     taskId                    string
//     state                     u8 wire id (CLAIMED 1, PREPARED 2, PUBLISHED 3, ABANDONED 4)
//     level                     u32 (>= 1)
//     offsetStart               u64
//     offsetEnd                 u64 (> offsetStart)
//     sourceKind                u8 wire id (GENERATION_ZERO 1, GENERATION 2)
//     sourceCount               u32 (>= 1)
//     sourceDigest              string (64 hex digits)
//     attempt                   u32 (>= 1)
//     claim                     u8 presence, then workerId string, token string, expiresAtMillis u64
//     generation                u64 (0 until PREPARED)
//     output                    u8 presence, then u32 length + ReadTarget bytes (core's canonical target codec)
// Invariants: a CLAIMED or PREPARED task has a claim; PREPARED and PUBLISHED tasks have a generation
// (< nextGeneration) and an output; the task range is non-empty.
import type { ByteReader, ByteWriter } from "@nereus/core";
import {
  defineRecordCodec,
  matchStreamKey,
  readTargetCodec,
  type RecordChecks,
  type RecordCodec,
} from "@nereus/core/internal";
import { parseStreamMaterializationKey } from "./materialization-keys.js";
import {
  MaterializationWireIds,
  type MaterializationTask,
  type StreamMaterialization,
} from "./materialization-records.js";

const RECORD_TYPE = "StreamMaterialization";
const SCHEMA_VERSION = 1;

function validate(record: StreamMaterialization, checks: RecordChecks): void {
  checks.text("streamId", record.streamId);
  checks.natural("generationZeroIndexedEnd", record.generationZeroIndexedEnd);
  checks.natural("materializedEnd", record.materializedEnd);
  checks.natural("materializedCumulativeSize", record.materializedCumulativeSize);
  checks.natural("mergedEnd", record.mergedEnd);
  checks.natural("nextGeneration", record.nextGeneration, 1);
  const task = record.task;
  if (task === undefined) return;
  checks.text("taskId", task.taskId);
  checks.require(
    MaterializationWireIds.taskState.idOf(task.state) !== undefined,
    `unknown task state ${String(task.state)}`,
  );
  checks.u32("level", task.level, 1);
  checks.natural("offsetStart", task.offsetStart);
  checks.natural("offsetEnd", task.offsetEnd, 1);
  checks.require(
    task.offsetStart < task.offsetEnd,
    `empty task range [${String(task.offsetStart)}, ${String(task.offsetEnd)})`,
  );
  checks.require(
    MaterializationWireIds.sourceKind.idOf(task.sourceKind) !== undefined,
    `unknown source kind ${String(task.sourceKind)}`,
  );
  checks.u32("sourceCount", task.sourceCount, 1);
  checks.sha256Hex("sourceDigest", task.sourceDigest);
  checks.u32("attempt", task.attempt, 1);
  if (task.claim !== undefined) {
    checks.text("claim.workerId", task.claim.workerId);
    checks.text("claim.token", task.claim.token);
    checks.natural("claim.expiresAtMillis", task.claim.expiresAtMillis);
  }
  checks.natural("generation", task.generation);
  const active = task.state === "CLAIMED" || task.state === "PREPARED";
  checks.require(active === (task.claim !== undefined), `a ${task.state} task ${active ? "needs" : "has no"} claim`);
  const allocated = task.state === "PREPARED" || task.state === "PUBLISHED";
  if (allocated) {
    checks.require(
      task.generation >= 1 && task.generation < record.nextGeneration,
      `generation ${String(task.generation)} was not allocated`,
    );
    checks.require(task.output !== undefined, `a ${task.state} task needs its output`);
  }
}

function writeTask(writer: ByteWriter, task: MaterializationTask): void {
  writer
    .writeString(task.taskId)
    .writeU8(MaterializationWireIds.taskState.idOf(task.state) ?? 0)
    .writeU32(task.level)
    .writeU64(task.offsetStart)
    .writeU64(task.offsetEnd)
    .writeU8(MaterializationWireIds.sourceKind.idOf(task.sourceKind) ?? 0)
    .writeU32(task.sourceCount)
    .writeString(task.sourceDigest)
    .writeU32(task.attempt);
  if (task.claim === undefined) writer.writeU8(0);
  else
    writer
      .writeU8(1)
      .writeString(task.claim.workerId)
      .writeString(task.claim.token)
      .writeU64(task.claim.expiresAtMillis);
  writer.writeU64(task.generation);
  if (task.output === undefined) writer.writeU8(0);
  else writer.writeU8(1).writeLengthPrefixedBytes(readTargetCodec.encode(task.output));
}

function presence(reader: ByteReader, field: string): boolean {
  const at = reader.offset;
  const flag = reader.readU8(field);
  if (flag > 1) throw reader.error(field, `presence flag must be 0 or 1, got ${String(flag)}`, at);
  return flag === 1;
}

function readTask(reader: ByteReader, checks: RecordChecks): MaterializationTask {
  const taskId = reader.readString("taskId");
  const state = checks.wireValue("task state", MaterializationWireIds.taskState, reader.readU8("state"));
  const level = reader.readU32("level");
  const offsetStart = reader.readU64("offsetStart");
  const offsetEnd = reader.readU64("offsetEnd");
  const sourceKind = checks.wireValue("source kind", MaterializationWireIds.sourceKind, reader.readU8("sourceKind"));
  const sourceCount = reader.readU32("sourceCount");
  const sourceDigest = reader.readString("sourceDigest");
  const attempt = reader.readU32("attempt");
  const claim = presence(reader, "claim")
    ? {
        workerId: reader.readString("claim.workerId"),
        token: reader.readString("claim.token"),
        expiresAtMillis: reader.readU64("claim.expiresAtMillis"),
      }
    : undefined;
  const generation = reader.readU64("generation");
  const output = presence(reader, "output")
    ? readTargetCodec.decode(reader.readLengthPrefixedBytes("output"))
    : undefined;
  return {
    taskId,
    state,
    level,
    offsetStart,
    offsetEnd,
    sourceKind,
    sourceCount,
    sourceDigest,
    attempt,
    claim,
    generation,
    output,
  };
}

/** Codec of the StreamMaterialization record. `decode` requires the key's stream id to match. */
export const streamMaterializationCodec: RecordCodec<StreamMaterialization> = defineRecordCodec({
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,
  validate,
  matchKey: matchStreamKey,
  parseKey: parseStreamMaterializationKey,

  write(writer, record) {
    writer
      .writeString(record.streamId)
      .writeU64(record.generationZeroIndexedEnd)
      .writeU64(record.materializedEnd)
      .writeU64(record.materializedCumulativeSize)
      .writeU64(record.mergedEnd)
      .writeU64(record.nextGeneration);
    if (record.task === undefined) writer.writeU8(0);
    else writeTask(writer.writeU8(1), record.task);
  },

  read(reader, checks): StreamMaterialization {
    return {
      streamId: reader.readString("streamId"),
      generationZeroIndexedEnd: reader.readU64("generationZeroIndexedEnd"),
      materializedEnd: reader.readU64("materializedEnd"),
      materializedCumulativeSize: reader.readU64("materializedCumulativeSize"),
      mergedEnd: reader.readU64("mergedEnd"),
      nextGeneration: reader.readU64("nextGeneration"),
      task: presence(reader, "task") ? readTask(reader, checks) : undefined,
    };
  },
});
