// The fixed 61-byte header of a Kafka RecordBatch (magic 2) and its field offsets:
//
//   off len field
//   0   8  baseOffset            not covered by the CRC: the broker assigns it
//   8   4  batchLength           bytes after this field
//   12  4  partitionLeaderEpoch  not covered by the CRC: the broker sets it
//   16  1  magic = 2
//   17  4  crc                   CRC-32C (Castagnoli) over bytes [21, end)
//   21  2  attributes            bits 0-2 compression, 3 timestamp type, 4 transactional, 5 control, 6 delete horizon
//   23  4  lastOffsetDelta
//   27  8  baseTimestamp
//   35  8  maxTimestamp
//   43  8  producerId            -1 = none
//   51  2  producerEpoch
//   53  4  baseSequence          -1 = none
//   57  4  recordCount
//   61  .. records (one compressed blob when compression != 0)
//
// Reading the header validates nothing but its presence and the magic; see validate-record-batch.ts.
import { ByteReader } from "@nereus/core";
import { readInt16, readInt64BigInt, readInt8 } from "../primitives/fixed-width.js";

/** Byte offsets of the header fields inside a batch. */
export const RecordBatchOffset = {
  baseOffset: 0,
  batchLength: 8,
  partitionLeaderEpoch: 12,
  magic: 16,
  crc: 17,
  attributes: 21,
  lastOffsetDelta: 23,
  baseTimestamp: 27,
  maxTimestamp: 35,
  producerId: 43,
  producerEpoch: 51,
  baseSequence: 53,
  recordCount: 57,
} as const;

/** Size of the fixed header; records start here. */
export const RECORD_BATCH_HEADER_BYTES = 61;
/** baseOffset + batchLength: the part of a batch not counted by batchLength. */
export const LOG_OVERHEAD_BYTES = 12;
/** First byte covered by the CRC (the attributes). */
export const CRC_COVERAGE_START = RecordBatchOffset.attributes;
/** The only record format this codec accepts. */
export const CURRENT_MAGIC = 2;

/** Compression codecs of attributes bits 0-2. */
export const CompressionCodec = { none: 0, gzip: 1, snappy: 2, lz4: 3, zstd: 4 } as const;
/** A value of {@link CompressionCodec} (5-7 are invalid on the wire but representable). */
export type CompressionCodec = number;

/** Attribute bits. */
export const RecordBatchAttribute = {
  compressionMask: 0x07,
  logAppendTime: 0x08,
  transactional: 0x10,
  control: 0x20,
  deleteHorizon: 0x40,
} as const;

/** A parsed batch header. 64-bit offsets and timestamps are safe integers; the producer id is a bigint. */
export interface RecordBatchHeader {
  readonly baseOffset: number;
  readonly batchLength: number;
  readonly partitionLeaderEpoch: number;
  readonly magic: number;
  /** Unsigned CRC-32C as stored. */
  readonly crc: number;
  readonly attributes: number;
  readonly compression: CompressionCodec;
  readonly timestampType: "create-time" | "log-append-time";
  readonly isTransactional: boolean;
  readonly isControl: boolean;
  readonly hasDeleteHorizon: boolean;
  readonly lastOffsetDelta: number;
  readonly baseTimestamp: number;
  readonly maxTimestamp: number;
  readonly producerId: bigint;
  readonly producerEpoch: number;
  readonly baseSequence: number;
  readonly recordCount: number;
}

/**
 * Parses the header of the batch starting at byte 0 of `batch`. Throws DECODE_ERROR when fewer than 61 bytes are
 * present, the magic is not 2, or a 64-bit offset/timestamp lies outside the safe-integer range.
 */
export function readRecordBatchHeader(batch: Uint8Array): RecordBatchHeader {
  const reader = new ByteReader(batch, "Kafka RecordBatch");
  if (batch.length > RecordBatchOffset.magic) {
    const magic = batch[RecordBatchOffset.magic] ?? 0;
    if (magic !== CURRENT_MAGIC) {
      throw reader.error(
        "magic",
        `record format magic ${String(magic)} is not supported (only magic 2 record batches)`,
        RecordBatchOffset.magic,
      );
    }
  }
  if (batch.length < RECORD_BATCH_HEADER_BYTES) {
    throw reader.error(
      "header",
      `truncated: ${String(batch.length)} of ${String(RECORD_BATCH_HEADER_BYTES)} header bytes`,
      batch.length,
    );
  }
  const baseOffset = reader.readI64("baseOffset");
  const batchLength = reader.readI32("batchLength");
  const partitionLeaderEpoch = reader.readI32("partitionLeaderEpoch");
  const magic = readInt8(reader, "magic");
  const crc = reader.readU32("crc");
  const attributes = readInt16(reader, "attributes");
  return {
    baseOffset,
    batchLength,
    partitionLeaderEpoch,
    magic,
    crc,
    attributes,
    compression: attributes & RecordBatchAttribute.compressionMask,
    timestampType: (attributes & RecordBatchAttribute.logAppendTime) !== 0 ? "log-append-time" : "create-time",
    isTransactional: (attributes & RecordBatchAttribute.transactional) !== 0,
    isControl: (attributes & RecordBatchAttribute.control) !== 0,
    hasDeleteHorizon: (attributes & RecordBatchAttribute.deleteHorizon) !== 0,
    lastOffsetDelta: reader.readI32("lastOffsetDelta"),
    baseTimestamp: reader.readI64("baseTimestamp"),
    maxTimestamp: reader.readI64("maxTimestamp"),
    producerId: readInt64BigInt(reader, "producerId"),
    producerEpoch: readInt16(reader, "producerEpoch"),
    baseSequence: reader.readI32("baseSequence"),
    recordCount: reader.readI32("recordCount"),
  };
}
