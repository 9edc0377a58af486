// ProducerIdBlock record codec (NRM1 recordType "KafkaProducerIdBlock", schema 1): the next producer id not yet
// handed to any broker. Brokers reserve blocks of ids by advancing it with a CAS, so ids are unique across
// brokers and restarts (ids of a block a broker did not use before it stopped are skipped, as in Kafka).
// Payload: nextProducerId u64.
import { ByteReader, ByteWriter } from "@nereus/core";
import { RecordChecks, type RecordCodec, decodeRecordEnvelope, encodeRecordEnvelope } from "@nereus/core/internal";

const RECORD_TYPE = "KafkaProducerIdBlock";
const SCHEMA_VERSION = 1;

/** The producer-id counter. */
export interface ProducerIdBlock {
  readonly nextProducerId: number;
}

/** The codec of the producer-id counter (`expectedKey` is the only key it is stored at). */
export function producerIdBlockCodec(expectedKey: string): RecordCodec<ProducerIdBlock> {
  return {
    recordType: RECORD_TYPE,
    schemaVersion: SCHEMA_VERSION,

    encode(block: ProducerIdBlock): Uint8Array {
      new RecordChecks(RECORD_TYPE).natural("nextProducerId", block.nextProducerId);
      const payload = new ByteWriter(8).writeU64(block.nextProducerId).finish();
      return encodeRecordEnvelope(
        { recordType: RECORD_TYPE, schemaVersion: SCHEMA_VERSION, minReaderSchemaVersion: SCHEMA_VERSION },
        payload,
      );
    },

    decode(bytes: Uint8Array, key: string): ProducerIdBlock {
      const checks = new RecordChecks(RECORD_TYPE, key);
      try {
        checks.require(key === expectedKey, `not the producer-id key ${expectedKey}`);
        const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
        const reader = new ByteReader(payload, "KafkaProducerIdBlock payload");
        const nextProducerId = reader.readU64("nextProducerId");
        reader.expectEnd();
        return { nextProducerId };
      } catch (error) {
        return checks.wrap(error);
      }
    },
  };
}
