// One retention pass over one partition stream (Kafka's `retention.ms` and `retention.bytes`), on the stream itself:
// it reads the head, so a partition nobody uses is neither loaded nor kept in memory for it. First the batches whose
// max timestamp is older than `olderThan` go (retention-scan.ts: from the oldest on, a newer batch keeps the older
// ones behind it, a batch without a timestamp never expires), then the oldest batches while the partition keeps at
// least `maxBytes` without them. The partition's size is the head's cumulative size minus the bytes before its log
// start: 0 for a stream never trimmed, else from the KafkaLogStart record when it describes this log start, else
// counted by reading the partition once (and recorded). Every trim records the bytes before the new log start, and
// `onTrimmed` lets a loaded partition raise its cached log start.
import {
  type LogStartBytesContext,
  activePartitionHead,
  bytesBeforeLogStart,
  partitionReader,
  recordLogStart,
} from "./log-start-bytes.js";
import { deletePrefix } from "./retention-scan.js";

/** What a pass enforces (an absent limit is not enforced). */
export interface RetentionLimits {
  /** Batches whose max timestamp is below this (ms) expire. */
  readonly olderThan?: number;
  /** The partition keeps at least this many bytes. */
  readonly maxBytes?: number;
}

export interface PartitionRetentionContext extends LogStartBytesContext {
  /** Bytes let go between two trims. */
  readonly stepBytes: number;
  /** Called after each trim with the new log start and the bytes before it (undefined when not known). */
  readonly onTrimmed: (logStartOffset: number, bytesBefore: number | undefined) => void;
}

/** Runs one pass over stream `streamId`; answers the log start and the offsets deleted. Throws storage errors. */
export async function enforcePartitionRetention(
  context: PartitionRetentionContext,
  streamId: string,
  limits: RetentionLimits,
  signal?: AbortSignal,
): Promise<{ readonly logStartOffset: number; readonly deleted: number }> {
  const head = await activePartitionHead(context, streamId);
  const until = head.committedEndOffset;
  const before = head.trimOffset;
  let logStart = head.trimOffset;
  let bytesBefore: number | undefined = logStart === 0 ? 0 : undefined;
  const read = partitionReader(context, streamId);
  const trim =
    (reason: string) =>
    async (offset: number, removedBytes: number): Promise<void> => {
      const trimmed = await context.store.trim(streamId, offset, { signal: context.closing });
      bytesBefore =
        bytesBefore !== undefined && trimmed.trimOffset === offset && logStart < offset
          ? bytesBefore + removedBytes
          : undefined;
      logStart = Math.max(logStart, trimmed.trimOffset);
      context.logger.info("records deleted", {
        topic: context.topic,
        partition: context.partition,
        logStartOffset: logStart,
        reason,
      });
      context.onTrimmed(logStart, bytesBefore);
      await recordLogStart(context, streamId, logStart, bytesBefore);
    };
  const pass = (reason: string, letGo: Parameters<typeof deletePrefix>[0]["letGo"]) =>
    deletePrefix({
      from: logStart,
      until,
      readBytes: context.readBytes,
      stepBytes: context.stepBytes,
      read,
      trim: trim(reason),
      letGo,
      ...(signal === undefined ? {} : { signal }),
    });
  const { olderThan, maxBytes } = limits;
  if (olderThan !== undefined)
    await pass("retention.ms", (batch) => batch.maxTimestamp >= 0 && batch.maxTimestamp < olderThan);
  if (maxBytes !== undefined && signal?.aborted !== true) {
    bytesBefore ??= await bytesBeforeLogStart(
      context,
      streamId,
      { logStart, until, cumulativeSize: head.cumulativeSize },
      signal,
    );
    if (bytesBefore !== undefined) {
      let excess = head.cumulativeSize - bytesBefore - maxBytes;
      if (excess > 0) {
        await pass("retention.bytes", (batch) => {
          if (batch.bytes > excess) return false;
          excess -= batch.bytes;
          return true;
        });
      }
    }
  }
  return { logStartOffset: logStart, deleted: Math.max(0, logStart - before) };
}
