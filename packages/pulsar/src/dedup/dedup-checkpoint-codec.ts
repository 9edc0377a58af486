// PulsarDedupCheckpoint record codec (NRM1 recordType "PulsarDedupCheckpoint", schema 1): the producer sequence
// table of one topic stream as of an entry boundary, stored at P/pulsar/dedup/{streamId}, so recovery replays only
// the entries after it. Acceleration only: the committed entries stay the truth. Payload, big-endian:
//   streamId          string
//   endOffset         u64      every committed entry below it is applied
//   producerCount     u32      producers strictly ascending by the UTF-8 bytes of their names
//     producerName    string   (non-empty)
//     lastSequenceId  i64      highest sequence id persisted by that producer
import { encodeStrictUtf8 } from "@nereus/core";
import {
  type RecordChecks,
  type RecordCodec,
  compareBytes,
  defineRecordCodec,
  matchStreamKey,
} from "@nereus/core/internal";
import { isInt64, readInt64, writeInt64 } from "../records/int64-field.js";
import type { PulsarKeyspace } from "../topics/pulsar-keys.js";

/** One producer's entry in a checkpoint. */
export interface ProducerSequence {
  readonly producerName: string;
  readonly lastSequenceId: bigint;
}

/** The producer sequence table of one stream, valid for the entries below `endOffset`. */
export interface DedupCheckpoint {
  readonly streamId: string;
  readonly endOffset: number;
  /** Ascending by the UTF-8 bytes of the producer names. */
  readonly producers: readonly ProducerSequence[];
}

function validate(checkpoint: DedupCheckpoint, checks: RecordChecks): void {
  checks.text("streamId", checkpoint.streamId);
  checks.natural("endOffset", checkpoint.endOffset);
  checks.require(Array.isArray(checkpoint.producers), "producers must be an array");
  let previous: Uint8Array | undefined;
  for (const producer of checkpoint.producers) {
    checks.text("producerName", producer.producerName);
    const name = encodeStrictUtf8(producer.producerName);
    checks.require(
      previous === undefined || compareBytes(previous, name) < 0,
      "producers are not strictly ascending by name",
    );
    previous = name;
    checks.require(
      isInt64(producer.lastSequenceId),
      `lastSequenceId ${String(producer.lastSequenceId)} of producer ${JSON.stringify(producer.producerName)} is not an int64`,
    );
  }
}

/** The codec of dedup checkpoints, bound to a keyspace (`decode` requires the key's stream to be the record's). */
export function dedupCheckpointCodec(keyspace: PulsarKeyspace): RecordCodec<DedupCheckpoint> {
  return defineRecordCodec({
    recordType: "PulsarDedupCheckpoint",
    schemaVersion: 1,
    validate,
    parseKey: (key) => ({ streamId: keyspace.parseDedupKey(key) }),
    matchKey: matchStreamKey,

    write(writer, checkpoint) {
      writer.writeString(checkpoint.streamId).writeU64(checkpoint.endOffset).writeU32(checkpoint.producers.length);
      for (const producer of checkpoint.producers) {
        writer.writeString(producer.producerName);
        writeInt64(writer, producer.lastSequenceId);
      }
    },

    read(reader, checks): DedupCheckpoint {
      const streamId = reader.readString("streamId");
      const endOffset = reader.readU64("endOffset");
      const count = reader.readU32("producerCount");
      // Each producer takes at least 12 bytes: refuse a count the payload cannot hold before allocating for it.
      checks.require(count <= reader.remaining / 12, `producerCount ${String(count)} exceeds the payload`);
      const producers: ProducerSequence[] = [];
      for (let index = 0; index < count; index += 1) {
        producers.push({
          producerName: reader.readString("producerName"),
          lastSequenceId: readInt64(reader, "lastSequenceId"),
        });
      }
      return { streamId, endOffset, producers };
    },
  });
}
