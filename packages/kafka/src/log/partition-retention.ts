// One retention pass over one partition stream (Kafka's `retention.ms` and `retention.bytes`), on the stream itself:
// it reads the head, so a partition nobody uses is neither loaded nor kept in memory for it. First the batches whose
// max timestamp is older than `olderThan` go (retention-scan.ts: from the oldest on, a newer batch keeps the older
// ones behind it, a batch without a timestamp never expires), then the oldest batches while the partition keeps at
// least `maxBytes` without them. The partition's size is the head's cumulative size minus the bytes before its log
// start: 0 for a stream never trimmed, else from the KafkaLogStart record when it describes this log start, else
// counted by reading the partition once (and recorded). Every trim records the bytes before the new log start, and
// `onTrimmed` lets a loaded partition raise its cached log start.
import { ErrorCode, NereusError, type MetadataStore, type ReadEntry, type RecordCodec, type StreamStore } from "@nereus/core";
import type { KafkaBrokerLogger } from "../broker/broker-logger.js";
import type { KafkaKeyspace } from "../topics/kafka-keys.js";
import type { LogStartRecord } from "./log-start-codec.js";
import { deletePrefix, sumBatchBytes } from "./retention-scan.js";

/** What a pass enforces (an absent limit is not enforced). */
export interface RetentionLimits {
  /** Batches whose max timestamp is below this (ms) expire. */
  readonly olderThan?: number;
  /** The partition keeps at least this many bytes. */
  readonly maxBytes?: number;
}

export interface PartitionRetentionContext {
  readonly store: StreamStore;
  readonly metadata: MetadataStore;
  readonly keyspace: KafkaKeyspace;
  readonly logStartCodec: RecordCodec<LogStartRecord>;
  readonly logger: KafkaBrokerLogger;
  readonly closing: AbortSignal;
  /** Bytes per read after the first. */
  readonly readBytes: number;
  /** Bytes let go between two trims. */
  readonly stepBytes: number;
  /** Names the partition in logs. */
  readonly topic: string;
  readonly partition: number;
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
  const head = await context.store.getHead(streamId, { signal: context.closing });
  if (head.state !== "ACTIVE") {
    throw new NereusError(ErrorCode.STREAM_NOT_ACTIVE, `partition ${context.topic}-${String(context.partition)} is ${head.state}`, { retryable: false });
  }
  const until = head.committedEndOffset;
  const before = head.trimOffset;
  let logStart = head.trimOffset;
  let bytesBefore: number | undefined = logStart === 0 ? 0 : undefined;
  const read = async (offset: number, maxBytes: number): Promise<readonly ReadEntry[]> =>
    (await context.store.read(streamId, offset, { maxBytes, maxRecords: 0x7fff_ffff, signal: context.closing })).entries;
  const trim = (reason: string) => async (offset: number, removedBytes: number): Promise<void> => {
    const trimmed = await context.store.trim(streamId, offset, { signal: context.closing });
    bytesBefore = bytesBefore !== undefined && trimmed.trimOffset === offset && logStart < offset ? bytesBefore + removedBytes : undefined;
    logStart = Math.max(logStart, trimmed.trimOffset);
    context.logger.info("records deleted", { topic: context.topic, partition: context.partition, logStartOffset: logStart, reason });
    context.onTrimmed(logStart, bytesBefore);
    await recordLogStart(context, streamId, logStart, bytesBefore);
  };
  const pass = (reason: string, letGo: Parameters<typeof deletePrefix>[0]["letGo"]) =>
    deletePrefix({ from: logStart, until, readBytes: context.readBytes, stepBytes: context.stepBytes, read, trim: trim(reason), letGo, ...(signal === undefined ? {} : { signal }) });
  const { olderThan, maxBytes } = limits;
  if (olderThan !== undefined) await pass("retention.ms", (batch) => batch.maxTimestamp >= 0 && batch.maxTimestamp < olderThan);
  if (maxBytes !== undefined && signal?.aborted !== true) {
    bytesBefore ??= await bytesBeforeLogStart(context, streamId, logStart, until, head.cumulativeSize, read, signal);
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

/** The bytes before the batch holding `logStart`: from the record when it describes `logStart`, else counted. */
async function bytesBeforeLogStart(
  context: PartitionRetentionContext,
  streamId: string,
  logStart: number,
  until: number,
  cumulative: number,
  read: (offset: number, maxBytes: number) => Promise<readonly ReadEntry[]>,
  signal: AbortSignal | undefined,
): Promise<number | undefined> {
  const stored = await context.metadata.get(context.keyspace.logStartKey(streamId), { signal: context.closing });
  if (stored !== undefined) {
    try {
      const record = context.logStartCodec.decode(stored.value, stored.key);
      if (record.logStartOffset === logStart) return record.bytesBefore;
    } catch (error) {
      context.logger.warn("ignoring an unreadable log-start record", { streamId, error: String(error) });
    }
  }
  context.logger.info("counting the partition's size for retention.bytes", { topic: context.topic, partition: context.partition, from: logStart, until });
  const counted = await sumBatchBytes(read, logStart, until, context.readBytes, signal);
  if (counted === undefined) return undefined;
  const bytesBefore = cumulative - counted;
  await recordLogStart(context, streamId, logStart, bytesBefore);
  return bytesBefore;
}

/** Writes the log-start record when the bytes are known (best effort: a failed write only means a count later). */
async function recordLogStart(context: PartitionRetentionContext, streamId: string, logStartOffset: number, bytesBefore: number | undefined): Promise<void> {
  if (bytesBefore === undefined || logStartOffset === 0) return;
  try {
    const value = context.logStartCodec.encode({ streamId, logStartOffset, bytesBefore });
    await context.metadata.txn({ compares: [], writes: [{ type: "put", key: context.keyspace.logStartKey(streamId), value }] }, { signal: context.closing });
  } catch (error) {
    context.logger.warn("log-start record not written", { streamId, error: String(error) });
  }
}
