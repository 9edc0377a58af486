// KafkaLogStart record codec (NRM1 recordType "KafkaLogStart", schema 1): how many bytes the stored batches of one
// partition stream below its log start add up to, so retention.bytes knows the partition's size from the head's
// cumulative size (size = cumulativeSize - bytesBefore) without reading the partition. Acceleration only: a record
// whose log start is not the head's trim offset is ignored (the size is then counted by reading). Payload layout,
// big-endian:
//   streamId        string
//   logStartOffset  u64   the trim offset this record describes
//   bytesBefore     u64   bytes of the stored batches before the batch that holds logStartOffset
import { ByteReader, ByteWriter } from "@nereus/core";
import { RecordChecks, type RecordCodec, decodeRecordEnvelope, encodeRecordEnvelope } from "@nereus/core/internal";
import type { KafkaKeyspace } from "../topics/kafka-keys.js";

const RECORD_TYPE = "KafkaLogStart";
const SCHEMA_VERSION = 1;

/** The bytes below a partition's log start. */
export interface LogStartRecord {
  readonly streamId: string;
  readonly logStartOffset: number;
  /** Bytes of the stored batches before the batch that holds `logStartOffset`. */
  readonly bytesBefore: number;
}

function validate(record: LogStartRecord, checks: RecordChecks): void {
  checks.text("streamId", record.streamId);
  checks.natural("logStartOffset", record.logStartOffset);
  checks.natural("bytesBefore", record.bytesBefore);
}

/** The codec of log-start records, bound to a keyspace (the key names the stream). */
export function logStartCodec(keyspace: KafkaKeyspace): RecordCodec<LogStartRecord> {
  return {
    recordType: RECORD_TYPE,
    schemaVersion: SCHEMA_VERSION,

    encode(record: LogStartRecord): Uint8Array {
      validate(record, new RecordChecks(RECORD_TYPE));
      const payload = new ByteWriter(32 + record.streamId.length * 3)
        .writeString(record.streamId)
        .writeU64(record.logStartOffset)
        .writeU64(record.bytesBefore)
        .finish();
      return encodeRecordEnvelope(
        { recordType: RECORD_TYPE, schemaVersion: SCHEMA_VERSION, minReaderSchemaVersion: SCHEMA_VERSION },
        payload,
      );
    },

    decode(bytes: Uint8Array, key: string): LogStartRecord {
      const checks = new RecordChecks(RECORD_TYPE, key);
      try {
        const keyStream = keyspace.parseLogStartKey(key);
        const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
        const reader = new ByteReader(payload, "KafkaLogStart payload");
        const record: LogStartRecord = {
          streamId: reader.readString("streamId"),
          logStartOffset: reader.readU64("logStartOffset"),
          bytesBefore: reader.readU64("bytesBefore"),
        };
        reader.expectEnd();
        validate(record, checks);
        checks.require(
          record.streamId === keyStream,
          `streamId ${record.streamId} does not match the key's stream ${keyStream}`,
        );
        return record;
      } catch (error) {
        return checks.wrap(error);
      }
    },
  };
}
