// Decodes a whole RecordBatch v2 into its header and records (for tests, test clients and ListOffsets by
// timestamp; the broker's produce and fetch paths stay payload-opaque). Compressed batches need a `decompress`
// function from the caller (this codec does no I/O and links no compression library); without one they raise
// UNSUPPORTED_FORMAT. Malformed batches raise DECODE_ERROR. Keys and values are views into the batch (or into
// the decompressed buffer).
import { ByteReader, ErrorCode, NereusError, crc32c } from "@nereus/core";
import { type KafkaRecord, readRecord } from "./kafka-record.js";
import {
  CRC_COVERAGE_START,
  type CompressionCodec,
  LOG_OVERHEAD_BYTES,
  RECORD_BATCH_HEADER_BYTES,
  type RecordBatchHeader,
  readRecordBatchHeader,
} from "./record-batch-header.js";

/** Inflates the records section of a compressed batch. */
export type Decompressor = (compression: CompressionCodec, data: Uint8Array) => Uint8Array;

/** A record with its absolute offset and timestamp. */
export interface DecodedRecord extends KafkaRecord {
  readonly offset: number;
  /** baseTimestamp + timestampDelta, or maxTimestamp for LogAppendTime batches. */
  readonly timestamp: number;
}

/** A decoded batch. */
export interface DecodedRecordBatch {
  readonly header: RecordBatchHeader;
  readonly records: DecodedRecord[];
}

/** Options of {@link decodeRecordBatch}. */
export interface DecodeRecordBatchOptions {
  readonly decompress?: Decompressor;
  /** Check the CRC-32C first (default true). */
  readonly verifyCrc?: boolean;
}

/** Decodes the single batch spanning all of `batch`. */
export function decodeRecordBatch(batch: Uint8Array, options: DecodeRecordBatchOptions = {}): DecodedRecordBatch {
  const header = readRecordBatchHeader(batch);
  const outer = new ByteReader(batch, "Kafka RecordBatch");
  if (header.batchLength + LOG_OVERHEAD_BYTES !== batch.length) {
    throw outer.error(
      "batchLength",
      `batchLength ${String(header.batchLength)} does not match the ${String(batch.length - LOG_OVERHEAD_BYTES)} bytes after it`,
      8,
    );
  }
  if (options.verifyCrc !== false && crc32c(batch.subarray(CRC_COVERAGE_START)) !== header.crc) {
    throw outer.error("crc", "CRC-32C mismatch", 17);
  }
  if (header.recordCount < 0)
    throw outer.error("recordCount", `negative record count ${String(header.recordCount)}`, 57);
  let section = batch.subarray(RECORD_BATCH_HEADER_BYTES);
  if (header.compression !== 0) {
    if (options.decompress === undefined) {
      throw new NereusError(
        ErrorCode.UNSUPPORTED_FORMAT,
        `batch is compressed with codec ${String(header.compression)} and no decompressor was given`,
      );
    }
    section = options.decompress(header.compression, section);
  }
  const reader = new ByteReader(
    section,
    header.compression === 0 ? "Kafka RecordBatch records" : "Kafka RecordBatch inflated records",
  );
  const records: DecodedRecord[] = [];
  for (let index = 0; index < header.recordCount; index += 1) {
    const record = readRecord(reader);
    records.push({
      ...record,
      offset: header.baseOffset + record.offsetDelta,
      timestamp:
        header.timestampType === "log-append-time" ? header.maxTimestamp : header.baseTimestamp + record.timestampDelta,
    });
  }
  reader.expectEnd();
  return { header, records };
}
