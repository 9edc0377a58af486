// Rewrites parts of an encoded RecordBatch v2 the way a hostile or buggy producer would — another records
// section, a different record count or lastOffsetDelta, other attributes — and fixes batchLength and the CRC-32C
// so that only the records themselves are wrong. For tests; the input is not modified.
import { crc32c } from "@nereus/core";
import {
  CRC_COVERAGE_START,
  LOG_OVERHEAD_BYTES,
  RECORD_BATCH_HEADER_BYTES,
  RecordBatchOffset,
} from "../src/protocol/records/record-batch-header.js";

/** What {@link forgeRecordBatch} changes. */
export interface BatchForgery {
  readonly section?: Uint8Array;
  readonly recordCount?: number;
  readonly lastOffsetDelta?: number;
  readonly compression?: number;
}

/** A copy of `batch` with `changes` applied and a valid batchLength and CRC. */
export function forgeRecordBatch(batch: Uint8Array, changes: BatchForgery): Uint8Array {
  const section = changes.section ?? batch.subarray(RECORD_BATCH_HEADER_BYTES);
  const forged = new Uint8Array(RECORD_BATCH_HEADER_BYTES + section.length);
  forged.set(batch.subarray(0, RECORD_BATCH_HEADER_BYTES));
  forged.set(section, RECORD_BATCH_HEADER_BYTES);
  const view = new DataView(forged.buffer);
  view.setInt32(RecordBatchOffset.batchLength, forged.length - LOG_OVERHEAD_BYTES);
  if (changes.recordCount !== undefined) view.setInt32(RecordBatchOffset.recordCount, changes.recordCount);
  if (changes.lastOffsetDelta !== undefined) view.setInt32(RecordBatchOffset.lastOffsetDelta, changes.lastOffsetDelta);
  if (changes.compression !== undefined) {
    view.setInt16(
      RecordBatchOffset.attributes,
      (view.getInt16(RecordBatchOffset.attributes) & ~0x07) | changes.compression,
    );
  }
  view.setUint32(RecordBatchOffset.crc, crc32c(forged.subarray(CRC_COVERAGE_START)));
  return forged;
}

/** The records section of `batch` (a view). */
export function sectionOf(batch: Uint8Array): Uint8Array {
  return batch.subarray(RECORD_BATCH_HEADER_BYTES);
}
