// Builds a RecordBatch v2 with a correct CRC-32C (for tests, golden fixtures and test clients; the broker never
// re-encodes client batches). Compression needs a `compress` function from the caller. lastOffsetDelta and
// maxTimestamp are derived from the records unless given.
import { ByteWriter, crc32c } from "@nereus/core";
import { writeInt16, writeInt64BigInt, writeInt8 } from "../primitives/fixed-width.js";
import { invalidArgument } from "../primitives/invalid-argument.js";
import { type RecordHeader, writeRecord } from "./kafka-record.js";
import {
  CRC_COVERAGE_START,
  CURRENT_MAGIC,
  type CompressionCodec,
  RecordBatchAttribute,
  RecordBatchOffset,
} from "./record-batch-header.js";

/** One record to encode; deltas default to the record's index and 0. */
export interface RecordInput {
  readonly offsetDelta?: number;
  readonly timestampDelta?: number;
  readonly key?: Uint8Array | null;
  readonly value: Uint8Array | null;
  readonly headers?: readonly RecordHeader[];
}

/** Compresses the records section for codec `compression`. */
export type Compressor = (compression: CompressionCodec, data: Uint8Array) => Uint8Array;

/** What {@link encodeRecordBatch} builds. */
export interface RecordBatchInput {
  readonly baseOffset?: number;
  /** -1 (what producers send) unless given. */
  readonly partitionLeaderEpoch?: number;
  readonly compression?: CompressionCodec;
  readonly compress?: Compressor;
  readonly timestampType?: "create-time" | "log-append-time";
  readonly isTransactional?: boolean;
  readonly isControl?: boolean;
  readonly baseTimestamp: number;
  readonly maxTimestamp?: number;
  readonly lastOffsetDelta?: number;
  readonly producerId?: bigint;
  readonly producerEpoch?: number;
  readonly baseSequence?: number;
  readonly records: readonly RecordInput[];
}

/** Encodes one batch. */
export function encodeRecordBatch(input: RecordBatchInput): Uint8Array {
  const compression = input.compression ?? 0;
  if (!Number.isInteger(compression) || compression < 0 || compression > 7)
    throw invalidArgument("compression", compression);
  const recordWriter = new ByteWriter(256);
  let maxDelta = -1;
  let maxTimestampDelta = 0;
  input.records.forEach((record, index) => {
    const offsetDelta = record.offsetDelta ?? index;
    const timestampDelta = record.timestampDelta ?? 0;
    maxDelta = Math.max(maxDelta, offsetDelta);
    maxTimestampDelta = index === 0 ? timestampDelta : Math.max(maxTimestampDelta, timestampDelta);
    writeRecord(
      recordWriter,
      {
        attributes: 0,
        offsetDelta,
        timestampDelta,
        key: record.key ?? null,
        value: record.value,
        headers: record.headers ?? [],
      },
      new ByteWriter(64),
    );
  });
  let section = recordWriter.finish();
  if (compression !== 0) {
    if (input.compress === undefined)
      throw invalidArgument("compression", compression, "set without a compress function");
    section = input.compress(compression, section);
  }
  const attributes =
    compression |
    (input.timestampType === "log-append-time" ? RecordBatchAttribute.logAppendTime : 0) |
    (input.isTransactional === true ? RecordBatchAttribute.transactional : 0) |
    (input.isControl === true ? RecordBatchAttribute.control : 0);

  const writer = new ByteWriter(section.length + 64);
  writer.writeI64(input.baseOffset ?? 0);
  const length = writer.reserveLength();
  writer.writeI32(input.partitionLeaderEpoch ?? -1);
  writeInt8(writer, CURRENT_MAGIC);
  writer.writeU32(0);
  writeInt16(writer, attributes);
  writer.writeI32(input.lastOffsetDelta ?? Math.max(maxDelta, input.records.length - 1));
  writer.writeI64(input.baseTimestamp);
  writer.writeI64(input.maxTimestamp ?? input.baseTimestamp + maxTimestampDelta);
  writeInt64BigInt(writer, input.producerId ?? -1n);
  writeInt16(writer, input.producerEpoch ?? -1);
  writer.writeI32(input.baseSequence ?? -1);
  writer.writeI32(input.records.length);
  writer.writeBytes(section);
  writer.patchLength(length);
  const batch = writer.finish();
  new DataView(batch.buffer, batch.byteOffset, batch.byteLength).setUint32(
    RecordBatchOffset.crc,
    crc32c(batch.subarray(CRC_COVERAGE_START)),
  );
  return batch;
}
