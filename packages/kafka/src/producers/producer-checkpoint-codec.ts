// ProducerStateCheckpoint record codec (NRM1 recordType "KafkaProducerState", schema 1): the idempotent-producer
// table of one partition stream as of an entry boundary, so a partition load replays only the batches after it.
// Acceleration only: the committed batches stay the truth, and a checkpoint that does not fit the head (above the
// committed end, below the trim offset) is ignored. Payload layout, big-endian:
//   streamId        string
//   endOffset       u64   every committed batch below it is applied
//   producerCount   u32   producers strictly ascending by id
//     producerId    8 bytes, signed 64-bit (>= 0)
//     epoch         u16   (0..32767)
//     batchCount    u8    (1..5), oldest first
//       firstSequence  u32 (0..2^31-1)
//       lastSequence   u32 (0..2^31-1)
//       baseOffset     u64 (< endOffset)
//       recordCount    u32 (>= 1)
//       maxTimestamp   8 bytes, signed 64-bit (a safe integer)
import { ByteReader, ByteWriter } from "@nereus/core";
import { RecordChecks, type RecordCodec, decodeRecordEnvelope, encodeRecordEnvelope } from "@nereus/core/internal";
import type { KafkaKeyspace } from "../topics/kafka-keys.js";
import { type ProducerEntry, RETAINED_BATCHES } from "./producer-state.js";

const RECORD_TYPE = "KafkaProducerState";
const SCHEMA_VERSION = 1;
const INT32_MAX = 0x7fff_ffff;
const INT64_MAX = 2n ** 63n - 1n;

/** A producer table snapshot of one partition stream. */
export interface ProducerCheckpoint {
  readonly streamId: string;
  readonly endOffset: number;
  /** Ascending by producer id. */
  readonly producers: readonly ProducerEntry[];
}

function writeInt64(writer: ByteWriter, value: bigint): void {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, value);
  writer.writeBytes(bytes);
}

function readInt64(reader: ByteReader, field: string): bigint {
  const bytes = reader.readBytes(8, field);
  return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigInt64(0);
}

function validate(checkpoint: ProducerCheckpoint, checks: RecordChecks): void {
  checks.text("streamId", checkpoint.streamId);
  checks.natural("endOffset", checkpoint.endOffset);
  let previous = -1n;
  for (const producer of checkpoint.producers) {
    const id = producer.producerId;
    checks.require(
      typeof id === "bigint" && id >= 0n && id <= INT64_MAX,
      `producer id ${String(id)} is not a non-negative int64`,
    );
    checks.require(id > previous, "producers are not strictly ascending by id");
    previous = id;
    checks.require(
      Number.isInteger(producer.epoch) && producer.epoch >= 0 && producer.epoch <= 0x7fff,
      `epoch ${String(producer.epoch)} of producer ${String(id)}`,
    );
    checks.require(
      producer.batches.length >= 1 && producer.batches.length <= RETAINED_BATCHES,
      `producer ${String(id)} retains ${String(producer.batches.length)} batches`,
    );
    for (const batch of producer.batches) {
      checks.require(
        Number.isInteger(batch.firstSequence) && batch.firstSequence >= 0 && batch.firstSequence <= INT32_MAX,
        "firstSequence out of range",
      );
      checks.require(
        Number.isInteger(batch.lastSequence) && batch.lastSequence >= 0 && batch.lastSequence <= INT32_MAX,
        "lastSequence out of range",
      );
      checks.natural("baseOffset", batch.baseOffset);
      checks.require(
        batch.baseOffset < checkpoint.endOffset,
        `batch at ${String(batch.baseOffset)} is not below endOffset ${String(checkpoint.endOffset)}`,
      );
      checks.u32("recordCount", batch.recordCount, 1);
      checks.require(Number.isSafeInteger(batch.maxTimestamp), "maxTimestamp must be a safe integer");
    }
  }
}

/** The codec of producer-state checkpoints, bound to a keyspace (the key names the stream). */
export function producerCheckpointCodec(keyspace: KafkaKeyspace): RecordCodec<ProducerCheckpoint> {
  return {
    recordType: RECORD_TYPE,
    schemaVersion: SCHEMA_VERSION,

    encode(checkpoint: ProducerCheckpoint): Uint8Array {
      validate(checkpoint, new RecordChecks(RECORD_TYPE));
      const writer = new ByteWriter(64 + checkpoint.producers.length * 48)
        .writeString(checkpoint.streamId)
        .writeU64(checkpoint.endOffset)
        .writeU32(checkpoint.producers.length);
      for (const producer of checkpoint.producers) {
        writeInt64(writer, producer.producerId);
        writer.writeU16(producer.epoch).writeU8(producer.batches.length);
        for (const batch of producer.batches) {
          writer
            .writeU32(batch.firstSequence)
            .writeU32(batch.lastSequence)
            .writeU64(batch.baseOffset)
            .writeU32(batch.recordCount);
          writeInt64(writer, BigInt(batch.maxTimestamp));
        }
      }
      return encodeRecordEnvelope(
        { recordType: RECORD_TYPE, schemaVersion: SCHEMA_VERSION, minReaderSchemaVersion: SCHEMA_VERSION },
        writer.finish(),
      );
    },

    decode(bytes: Uint8Array, key: string): ProducerCheckpoint {
      const checks = new RecordChecks(RECORD_TYPE, key);
      try {
        const keyStream = keyspace.parseProducerStateKey(key);
        const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
        const reader = new ByteReader(payload, "KafkaProducerState payload");
        const streamId = reader.readString("streamId");
        const endOffset = reader.readU64("endOffset");
        const count = reader.readU32("producerCount");
        checks.require(count <= reader.remaining, `producerCount ${String(count)} exceeds the payload`);
        const producers: ProducerEntry[] = [];
        for (let index = 0; index < count; index += 1) {
          const producerId = readInt64(reader, "producerId");
          const epoch = reader.readU16("epoch");
          const batchCount = reader.readU8("batchCount");
          const batches = [];
          for (let batch = 0; batch < batchCount; batch += 1) {
            const firstSequence = reader.readU32("firstSequence");
            const lastSequence = reader.readU32("lastSequence");
            const baseOffset = reader.readU64("baseOffset");
            const recordCount = reader.readU32("recordCount");
            const maxTimestamp = readInt64(reader, "maxTimestamp");
            checks.require(
              maxTimestamp >= BigInt(Number.MIN_SAFE_INTEGER) && maxTimestamp <= BigInt(Number.MAX_SAFE_INTEGER),
              "maxTimestamp must be a safe integer",
            );
            batches.push({ firstSequence, lastSequence, baseOffset, recordCount, maxTimestamp: Number(maxTimestamp) });
          }
          producers.push({ producerId, epoch, batches });
        }
        reader.expectEnd();
        const checkpoint: ProducerCheckpoint = { streamId, endOffset, producers };
        validate(checkpoint, checks);
        checks.require(streamId === keyStream, `streamId ${streamId} does not match the key's stream ${keyStream}`);
        return checkpoint;
      } catch (error) {
        return checks.wrap(error);
      }
    },
  };
}
