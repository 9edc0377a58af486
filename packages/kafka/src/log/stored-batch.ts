// Stored RecordBatches: the bytes a partition stream holds per entry are the produced batch with its base offset
// and partition leader epoch set (both outside the CRC) and, on LogAppendTime topics, the timestamp type bit and
// max timestamp stamped with the broker's time (inside the CRC, which is recomputed). `summarizeBatch` reads back
// what the log needs from a stored batch's header without decoding its records.
import { crc32c, crc32cCombine } from "@nereus/core";
import { assignBaseOffset } from "../protocol/records/assign-base-offset.js";
import {
  CRC_COVERAGE_START,
  RecordBatchAttribute,
  RecordBatchOffset,
  readRecordBatchHeader,
} from "../protocol/records/record-batch-header.js";
import type { ProducedBatch } from "../producers/producer-state.js";

/** The leader epoch every batch and every Metadata answer carries (one logical leader that never changes). */
export const PARTITION_LEADER_EPOCH = 0;

/**
 * `batch` stamped to store at `baseOffset` (`logAppendTimeMs` stamps LogAppendTime), in place: a produced batch is
 * the request's own memory, which nothing else reads, and the stamped bytes are handed over to the store as they
 * are (`handOverPayloads`). Stamping it again (a re-planned append) rewrites the same fields.
 */
export function prepareStoredBatch(batch: Uint8Array, baseOffset: number, logAppendTimeMs?: number): Uint8Array {
  const stored = assignBaseOffset(batch, baseOffset, { partitionLeaderEpoch: PARTITION_LEADER_EPOCH, inPlace: true });
  if (logAppendTimeMs !== undefined) {
    const view = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
    view.setInt16(
      RecordBatchOffset.attributes,
      view.getInt16(RecordBatchOffset.attributes) | RecordBatchAttribute.logAppendTime,
    );
    view.setBigInt64(RecordBatchOffset.maxTimestamp, BigInt(logAppendTimeMs));
    view.setUint32(RecordBatchOffset.crc, crc32c(stored.subarray(CRC_COVERAGE_START)));
  }
  return stored;
}

/**
 * `crc32c(stored)` without a pass over the records: the batch's CRC field already covers every byte after it, so
 * only the 21 bytes before it are read. Requires a right CRC field — the produce handler validated it, or
 * `prepareStoredBatch` recomputed it — which is what lets the WAL take this value as the entry's checksum.
 */
export function storedBatchCrc32c(stored: Uint8Array): number {
  const coveredCrc = new DataView(stored.buffer, stored.byteOffset, stored.byteLength).getUint32(RecordBatchOffset.crc);
  return crc32cCombine(crc32c(stored.subarray(0, CRC_COVERAGE_START)), coveredCrc, stored.length - CRC_COVERAGE_START);
}

/** What the log derives from one stored batch. */
export interface BatchSummary {
  readonly baseOffset: number;
  readonly recordCount: number;
  readonly maxTimestamp: number;
  readonly bytes: number;
  /** Producer fields when the batch has a producer id (idempotent producers). */
  readonly producer: ProducedBatch | undefined;
}

/** Summarizes the stored batch `payload` of the entry at `offset` (DECODE_ERROR when its header is unreadable). */
export function summarizeBatch(payload: Uint8Array, offset: number, recordCount: number): BatchSummary {
  const header = readRecordBatchHeader(payload);
  const producer: ProducedBatch | undefined =
    header.producerId >= 0n
      ? {
          producerId: header.producerId,
          producerEpoch: header.producerEpoch,
          baseSequence: header.baseSequence,
          lastOffsetDelta: header.lastOffsetDelta,
          recordCount: header.recordCount,
          maxTimestamp: header.maxTimestamp,
        }
      : undefined;
  return { baseOffset: offset, recordCount, maxTimestamp: header.maxTimestamp, bytes: payload.byteLength, producer };
}
