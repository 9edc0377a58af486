// GenerationIndexEntry record codec (NRM1 recordType "GenerationIndexEntry", schema 1). Payload layout, big-endian:
//   streamId           string
//   offsetStart        u64
//   offsetEnd          u64 (> offsetStart)
//   generation         u64 (>= 1)
//   level              u32 (>= 1)
//   state              u8 wire id (PREPARED 1, COMMITTED 2, QUARANTINED 3, ABORTED 4)
//   publicationId      string (non-empty)
//   commitVersion      u64 (>= 1)
//   cumulativeSize     u64 (>= logicalBytes)
//   logicalBytes       u64
//   readTarget         u32 length + ReadTarget bytes (read-target-codec.ts)
//   payloadFormat      u8 wire id
//   entryRecordCounts  u32 count + u32 each (sum = offsetEnd - offsetStart)
import type { GenerationIndexEntry } from "../domain/generation-records.js";
import { ByteReader } from "../bytes/byte-reader.js";
import { ByteWriter } from "../bytes/byte-writer.js";
import { parseGenerationIndexKey } from "../keys/generation-keys.js";
import type { RecordCodec } from "./record-codec.js";
import { RecordChecks } from "./record-checks.js";
import { decodeRecordEnvelope, encodeRecordEnvelope } from "./record-envelope.js";
import { RecordFields } from "./record-fields.js";
import { RecordWireIds } from "./record-wire-ids.js";

const RECORD_TYPE = "GenerationIndexEntry";
const SCHEMA_VERSION = 1;

function validateEntry(entry: GenerationIndexEntry, checks: RecordChecks): void {
  checks.text("streamId", entry.streamId);
  checks.natural("offsetStart", entry.offsetStart);
  checks.natural("offsetEnd", entry.offsetEnd, 1);
  checks.require(entry.offsetStart < entry.offsetEnd, `empty range [${String(entry.offsetStart)}, ${String(entry.offsetEnd)})`);
  checks.natural("generation", entry.generation, 1);
  checks.u32("level", entry.level, 1);
  checks.require(RecordWireIds.generationState.idOf(entry.state) !== undefined, `unknown state ${String(entry.state)}`);
  checks.text("publicationId", entry.publicationId);
  checks.natural("commitVersion", entry.commitVersion, 1);
  checks.natural("cumulativeSize", entry.cumulativeSize);
  checks.natural("logicalBytes", entry.logicalBytes);
  checks.require(entry.logicalBytes <= entry.cumulativeSize, "logicalBytes exceed cumulativeSize");
  checks.require(RecordWireIds.payloadFormat.idOf(entry.payloadFormat) !== undefined, `unknown payloadFormat ${String(entry.payloadFormat)}`);
  checks.entryRecordCounts(entry.entryRecordCounts, entry.payloadFormat, entry.offsetEnd - entry.offsetStart);
}

/**
 * Codec of the GenerationIndexEntry record (generations >= 1 of the COMMITTED view). Enforced: a non-empty range
 * exactly covered by entryRecordCounts, generation and level >= 1, a known state, a publication id, a valid nested
 * ReadTarget, safe integers. `decode` requires the key's stream id, offsetEnd and generation to match.
 */
export const generationIndexCodec: RecordCodec<GenerationIndexEntry> = {
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,

  encode(entry: GenerationIndexEntry): Uint8Array {
    validateEntry(entry, new RecordChecks(RECORD_TYPE));
    const writer = new ByteWriter(256)
      .writeString(entry.streamId)
      .writeU64(entry.offsetStart)
      .writeU64(entry.offsetEnd)
      .writeU64(entry.generation)
      .writeU32(entry.level)
      .writeU8(RecordWireIds.generationState.idOf(entry.state) ?? 0)
      .writeString(entry.publicationId)
      .writeU64(entry.commitVersion)
      .writeU64(entry.cumulativeSize)
      .writeU64(entry.logicalBytes);
    RecordFields.writeReadTarget(writer, entry.readTarget);
    writer.writeU8(RecordWireIds.payloadFormat.idOf(entry.payloadFormat) ?? 0);
    RecordFields.writeEntryRecordCounts(writer, entry.entryRecordCounts);
    return encodeRecordEnvelope(
      { recordType: RECORD_TYPE, schemaVersion: SCHEMA_VERSION, minReaderSchemaVersion: SCHEMA_VERSION },
      writer.finish(),
    );
  },

  decode(bytes: Uint8Array, key: string): GenerationIndexEntry {
    const checks = new RecordChecks(RECORD_TYPE, key);
    try {
      const location = parseGenerationIndexKey(key);
      const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
      const reader = new ByteReader(payload, "GenerationIndexEntry payload");
      const streamId = reader.readString("streamId");
      const offsetStart = reader.readU64("offsetStart");
      const offsetEnd = reader.readU64("offsetEnd");
      const generation = reader.readU64("generation");
      const level = reader.readU32("level");
      const stateId = reader.readU8("state");
      const state = RecordWireIds.generationState.valueOf(stateId);
      if (state === undefined) throw checks.fail(`unknown state wire id ${String(stateId)}`);
      const publicationId = reader.readString("publicationId");
      const commitVersion = reader.readU64("commitVersion");
      const cumulativeSize = reader.readU64("cumulativeSize");
      const logicalBytes = reader.readU64("logicalBytes");
      const readTarget = RecordFields.readReadTarget(reader);
      const formatId = reader.readU8("payloadFormat");
      const payloadFormat = RecordWireIds.payloadFormat.valueOf(formatId);
      if (payloadFormat === undefined) throw checks.fail(`unknown payloadFormat wire id ${String(formatId)}`);
      const entryRecordCounts = RecordFields.readEntryRecordCounts(reader);
      reader.expectEnd();
      const entry: GenerationIndexEntry = {
        streamId,
        offsetStart,
        offsetEnd,
        generation,
        level,
        state,
        publicationId,
        commitVersion,
        cumulativeSize,
        logicalBytes,
        readTarget,
        payloadFormat,
        entryRecordCounts,
      };
      validateEntry(entry, checks);
      checks.require(entry.streamId === location.streamId, `streamId ${entry.streamId} does not match the key's stream ${location.streamId}`);
      checks.require(
        entry.offsetEnd === location.offsetEnd && entry.generation === location.generation,
        `(offsetEnd ${String(entry.offsetEnd)}, generation ${String(entry.generation)}) does not match the key's ` +
          `(${String(location.offsetEnd)}, ${String(location.generation)})`,
      );
      return entry;
    } catch (error) {
      return checks.wrap(error);
    }
  },
};
