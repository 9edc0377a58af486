// OffsetIndexEntry record codec (NRM1 recordType "OffsetIndexEntry", schema 1). Payload layout, big-endian:
//   streamId           string
//   offsetStart        u64
//   offsetEnd          u64 (> offsetStart)
//   generation         u64 (0 = the original append target)
//   commitId           string (non-empty for generation 0)
//   commitVersion      u64 (>= 1)
//   cumulativeSize     u64
//   readTarget         u32 length + ReadTarget bytes (read-target-codec.ts)
//   payloadFormat      u8 wire id
//   entryRecordCounts  u32 count + u32 each (sum = offsetEnd - offsetStart)
import type { OffsetIndexEntry } from "../domain/commit-records.js";
import { ByteReader } from "../bytes/byte-reader.js";
import { parseOffsetIndexKey } from "../keys/stream-key-parsers.js";
import type { RecordCodec } from "./record-codec.js";
import { RecordChecks } from "./record-checks.js";
import { decodeRecordEnvelope, encodeRecord, type RecordEnvelopeHeader } from "./record-envelope.js";
import { RecordFields } from "./record-fields.js";
import { RecordWireIds } from "./record-wire-ids.js";

const RECORD_TYPE = "OffsetIndexEntry";
const SCHEMA_VERSION = 1;
const HEADER: RecordEnvelopeHeader = { recordType: RECORD_TYPE, schemaVersion: SCHEMA_VERSION, minReaderSchemaVersion: SCHEMA_VERSION };

function validateEntry(entry: OffsetIndexEntry, checks: RecordChecks): void {
  checks.text("streamId", entry.streamId);
  checks.natural("offsetStart", entry.offsetStart);
  checks.natural("offsetEnd", entry.offsetEnd, 1);
  if (!(entry.offsetStart < entry.offsetEnd)) throw checks.fail(`empty range [${String(entry.offsetStart)}, ${String(entry.offsetEnd)})`);
  checks.natural("generation", entry.generation);
  checks.text("commitId", entry.commitId, entry.generation > 0);
  checks.natural("commitVersion", entry.commitVersion, 1);
  checks.natural("cumulativeSize", entry.cumulativeSize);
  if (RecordWireIds.payloadFormat.idOf(entry.payloadFormat) === undefined) throw checks.fail(`unknown payloadFormat ${String(entry.payloadFormat)}`);
  checks.entryRecordCounts(entry.entryRecordCounts, entry.payloadFormat, entry.offsetEnd - entry.offsetStart);
}

/**
 * Codec of the OffsetIndexEntry record (generation 0 and higher generations of the COMMITTED view). Enforced: a
 * non-empty range exactly covered by entryRecordCounts (1 each for opaque formats), commitId set for generation
 * 0, commitVersion >= 1, a valid nested ReadTarget, safe integers. `decode` requires the key's stream id,
 * offsetEnd and generation to match.
 */
export const offsetIndexCodec: RecordCodec<OffsetIndexEntry> = {
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,

  encode(entry: OffsetIndexEntry): Uint8Array {
    validateEntry(entry, new RecordChecks(RECORD_TYPE));
    return encodeRecord(HEADER, (writer) => {
      writer
        .writeString(entry.streamId)
        .writeU64(entry.offsetStart)
        .writeU64(entry.offsetEnd)
        .writeU64(entry.generation)
        .writeString(entry.commitId)
        .writeU64(entry.commitVersion)
        .writeU64(entry.cumulativeSize);
      RecordFields.writeReadTarget(writer, entry.readTarget);
      writer.writeU8(RecordWireIds.payloadFormat.idOf(entry.payloadFormat) ?? 0);
      RecordFields.writeEntryRecordCounts(writer, entry.entryRecordCounts);
    });
  },

  decode(bytes: Uint8Array, key: string): OffsetIndexEntry {
    const checks = new RecordChecks(RECORD_TYPE, key);
    try {
      const location = parseOffsetIndexKey(key);
      const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
      const reader = new ByteReader(payload, "OffsetIndexEntry payload");
      const streamId = reader.readString("streamId");
      const offsetStart = reader.readU64("offsetStart");
      const offsetEnd = reader.readU64("offsetEnd");
      const generation = reader.readU64("generation");
      const commitId = reader.readString("commitId");
      const commitVersion = reader.readU64("commitVersion");
      const cumulativeSize = reader.readU64("cumulativeSize");
      const readTarget = RecordFields.readReadTarget(reader);
      const formatId = reader.readU8("payloadFormat");
      const payloadFormat = RecordWireIds.payloadFormat.valueOf(formatId);
      if (payloadFormat === undefined) throw checks.fail(`unknown payloadFormat wire id ${String(formatId)}`);
      const entryRecordCounts = RecordFields.readEntryRecordCounts(reader);
      reader.expectEnd();
      const entry: OffsetIndexEntry = {
        streamId,
        offsetStart,
        offsetEnd,
        generation,
        commitId,
        commitVersion,
        cumulativeSize,
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
