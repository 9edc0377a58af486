// Rewrites an encoded RecordBatch v2 the way a hostile producer would — another records section, record count,
// lastOffsetDelta or codec — and fixes batchLength and the CRC-32C, so that only the records are wrong.
import { crc32c } from "@nereus/core";
import { protocol } from "@nereus/kafka";

const { RecordBatchOffset, RECORD_BATCH_HEADER_BYTES, LOG_OVERHEAD_BYTES, CRC_COVERAGE_START } = protocol;

/** A copy of `batch` with the given parts replaced and a valid batchLength and CRC. */
export function forgeBatch(
  batch: Uint8Array,
  changes: { section?: Uint8Array; recordCount?: number; lastOffsetDelta?: number; compression?: number },
): Uint8Array {
  const section = changes.section ?? batch.subarray(RECORD_BATCH_HEADER_BYTES);
  const forged = new Uint8Array(RECORD_BATCH_HEADER_BYTES + section.length);
  forged.set(batch.subarray(0, RECORD_BATCH_HEADER_BYTES));
  forged.set(section, RECORD_BATCH_HEADER_BYTES);
  const view = new DataView(forged.buffer);
  view.setInt32(RecordBatchOffset.batchLength, forged.length - LOG_OVERHEAD_BYTES);
  if (changes.recordCount !== undefined) view.setInt32(RecordBatchOffset.recordCount, changes.recordCount);
  if (changes.lastOffsetDelta !== undefined) view.setInt32(RecordBatchOffset.lastOffsetDelta, changes.lastOffsetDelta);
  if (changes.compression !== undefined)
    view.setInt16(
      RecordBatchOffset.attributes,
      (view.getInt16(RecordBatchOffset.attributes) & ~0x07) | changes.compression,
    );
  view.setUint32(RecordBatchOffset.crc, crc32c(forged.subarray(CRC_COVERAGE_START)));
  return forged;
}

/** The records section of `batch` (a view). */
export function sectionOf(batch: Uint8Array): Uint8Array {
  return batch.subarray(RECORD_BATCH_HEADER_BYTES);
}
