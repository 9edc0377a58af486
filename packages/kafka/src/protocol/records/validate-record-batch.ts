// Validates one RecordBatch the way a Kafka broker does before appending it, without inflating it: magic 2,
// batchLength consistent with the bytes, size limit, CRC-32C over attributes..end, header consistency
// (lastOffsetDelta + 1 == recordCount > 0, and for uncompressed batches enough bytes for that many records),
// and with `producer: true` the checks on client-sent batches (base offset 0, no control batches, a sequence
// whenever there is a producer id). A rejection is a value naming the reason; the adapter maps reasons to Kafka
// errors (unsupported-magic → UNSUPPORTED_FOR_MESSAGE_FORMAT, crc-mismatch → CORRUPT_MESSAGE, too-large →
// MESSAGE_TOO_LARGE, others → CORRUPT_MESSAGE / INVALID_RECORD). With `walkRecords` it then walks every record
// (validate-records.ts), inflating compressed batches through the caller's `decompress`. Reads only; never copies
// or mutates.
import { NereusError, crc32c } from "@nereus/core";
import type { Decompressor } from "./decode-record-batch.js";
import {
  CRC_COVERAGE_START,
  CURRENT_MAGIC,
  LOG_OVERHEAD_BYTES,
  RECORD_BATCH_HEADER_BYTES,
  type RecordBatchHeader,
  RecordBatchOffset,
  readRecordBatchHeader,
} from "./record-batch-header.js";
import { type RecordsRejection, validateRecords } from "./validate-records.js";

/** Why a batch was rejected. */
export type RecordBatchRejection =
  | "truncated"
  | "length-mismatch"
  | "unsupported-magic"
  | "invalid-magic"
  | "too-large"
  | "crc-mismatch"
  | "invalid-header"
  | "record-count-mismatch"
  | "invalid-base-offset"
  | "control-batch"
  | "invalid-producer-state"
  | RecordsRejection;

/** Limits and policy for {@link validateRecordBatch}. */
export interface RecordBatchValidationOptions {
  /** Largest accepted batch in bytes, whole batch included (Kafka's max.message.bytes); unlimited when omitted. */
  readonly maxBatchBytes?: number;
  /** Apply the checks for batches sent by a producer (Produce requests). */
  readonly producer?: boolean;
  /** Also walk every record (see validate-records.ts), as a broker must before it assigns offsets. */
  readonly walkRecords?: boolean;
  /** Inflates compressed batches for `walkRecords`; without it a compressed batch fails as `decompression-failed`. */
  readonly decompress?: Decompressor;
}

/** Outcome of {@link validateRecordBatch}. */
export type RecordBatchValidation =
  | { readonly ok: true; readonly header: RecordBatchHeader }
  | {
      readonly ok: false;
      readonly reason: RecordBatchRejection;
      readonly message: string;
      /** Index of the offending record inside the batch, when one record is to blame. */
      readonly recordIndex?: number;
    };

/** Smallest possible encoded record (length, attributes, timestamp and offset deltas, key, value, header count). */
const MIN_RECORD_BYTES = 7;

function reject(reason: RecordBatchRejection, message: string): RecordBatchValidation {
  return { ok: false, reason, message };
}

/** Validates the single batch that spans all of `batch`. */
export function validateRecordBatch(
  batch: Uint8Array,
  options: RecordBatchValidationOptions = {},
): RecordBatchValidation {
  if (batch.length <= RecordBatchOffset.magic)
    return reject("truncated", `${String(batch.length)} bytes cannot hold a batch header`);
  const magic = batch[RecordBatchOffset.magic] ?? 0;
  if (magic === 0 || magic === 1)
    return reject(
      "unsupported-magic",
      `message format v${String(magic)} is not supported; use record batches (magic 2)`,
    );
  if (magic !== CURRENT_MAGIC) return reject("invalid-magic", `unknown record format magic ${String(magic)}`);
  if (batch.length < RECORD_BATCH_HEADER_BYTES)
    return reject("truncated", `${String(batch.length)} of ${String(RECORD_BATCH_HEADER_BYTES)} header bytes`);
  const view = new DataView(batch.buffer, batch.byteOffset, batch.byteLength);
  const batchLength = view.getInt32(RecordBatchOffset.batchLength);
  if (batchLength + LOG_OVERHEAD_BYTES !== batch.length) {
    return reject(
      "length-mismatch",
      `batchLength ${String(batchLength)} does not match the ${String(batch.length - LOG_OVERHEAD_BYTES)} bytes after it`,
    );
  }
  if (options.maxBatchBytes !== undefined && batch.length > options.maxBatchBytes) {
    return reject(
      "too-large",
      `batch of ${String(batch.length)} bytes exceeds the limit of ${String(options.maxBatchBytes)}`,
    );
  }
  const storedCrc = view.getUint32(RecordBatchOffset.crc);
  const actualCrc = crc32c(batch.subarray(CRC_COVERAGE_START));
  if (storedCrc !== actualCrc) {
    return reject(
      "crc-mismatch",
      `CRC-32C ${storedCrc.toString(16)} does not match the computed ${actualCrc.toString(16)}`,
    );
  }
  let header: RecordBatchHeader;
  try {
    header = readRecordBatchHeader(batch);
  } catch (error) {
    if (NereusError.is(error)) return reject("invalid-header", error.message);
    throw error;
  }
  if (header.recordCount <= 0 || header.lastOffsetDelta + 1 !== header.recordCount) {
    return reject(
      "record-count-mismatch",
      `recordCount ${String(header.recordCount)} does not equal lastOffsetDelta + 1 = ${String(header.lastOffsetDelta + 1)}`,
    );
  }
  if (header.compression === 0 && header.recordCount * MIN_RECORD_BYTES > batch.length - RECORD_BATCH_HEADER_BYTES) {
    return reject(
      "record-count-mismatch",
      `${String(header.recordCount)} records cannot fit in ${String(batch.length - RECORD_BATCH_HEADER_BYTES)} bytes`,
    );
  }
  if (options.producer === true) {
    if (header.baseOffset !== 0)
      return reject(
        "invalid-base-offset",
        `a produced batch must have base offset 0, not ${String(header.baseOffset)}`,
      );
    if (header.isControl) return reject("control-batch", "clients may not write control batches");
    if (header.producerId >= 0n && header.baseSequence < 0) {
      return reject("invalid-producer-state", `producer id ${header.producerId.toString()} without a base sequence`);
    }
  }
  if (options.walkRecords === true) {
    const records = validateRecords(
      batch,
      header,
      options.decompress === undefined ? {} : { decompress: options.decompress },
    );
    if (!records.ok) return records;
  }
  return { ok: true, header };
}
