// Splits a `records` blob (Produce partition data, Fetch partition records) into its batches by their length
// fields, without validating them. A trailing batch cut short (normal at the end of a Fetch response) is
// reported as `trailingBytes`, not returned. A length field that cannot be right is a DECODE_ERROR. Returned
// batches are views into `records`.
import { ByteReader } from "@nereus/core";
import { LOG_OVERHEAD_BYTES, RecordBatchOffset } from "./record-batch-header.js";

/** Smallest batchLength of any Kafka message format (a magic 0 message). */
const MIN_BATCH_LENGTH = 14;

/** The batches of a records blob. */
export interface SplitRecordBatches {
  /** Whole batches, in order, as views. */
  readonly batches: Uint8Array[];
  /** Bytes at the end that do not form a whole batch. */
  readonly trailingBytes: number;
}

/** Splits `records` into whole batches. */
export function splitRecordBatches(records: Uint8Array): SplitRecordBatches {
  const reader = new ByteReader(records, "Kafka records");
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
  const batches: Uint8Array[] = [];
  let at = 0;
  while (records.length - at >= LOG_OVERHEAD_BYTES) {
    const batchLength = view.getInt32(at + RecordBatchOffset.batchLength);
    if (batchLength < MIN_BATCH_LENGTH) {
      throw reader.error(
        "batchLength",
        `batch length ${String(batchLength)} is below the minimum of ${String(MIN_BATCH_LENGTH)}`,
        at + RecordBatchOffset.batchLength,
      );
    }
    const size = LOG_OVERHEAD_BYTES + batchLength;
    if (size > records.length - at) break;
    batches.push(records.subarray(at, at + size));
    at += size;
  }
  return { batches, trailingBytes: records.length - at };
}
