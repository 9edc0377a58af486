// The bytes of a partition's stream before its log start, which make its size (retention.bytes, DescribeLogDirs):
// the head's cumulative size minus them. They come from the KafkaLogStart record when it describes the current log
// start; else the partition is read once from the log start to count them, and the count is recorded. Also the
// two reads a pass over a partition stream starts from: its ACTIVE head and a batch reader.
import {
  ErrorCode,
  type MetadataStore,
  NereusError,
  type ReadEntry,
  type StreamHead,
  type StreamStore,
} from "@nereus/core";
import { type RecordCodec } from "@nereus/core/internal";
import type { KafkaBrokerLogger } from "../logging/broker-logger.js";
import type { KafkaKeyspace } from "../topics/kafka-keys.js";
import type { LogStartRecord } from "./log-start-codec.js";
import { sumBatchBytes } from "./retention-scan.js";

/** What reading and recording the bytes before a log start needs. */
export interface LogStartBytesContext {
  readonly store: StreamStore;
  readonly metadata: MetadataStore;
  readonly keyspace: KafkaKeyspace;
  readonly logStartCodec: RecordCodec<LogStartRecord>;
  readonly logger: KafkaBrokerLogger;
  readonly closing: AbortSignal;
  /** Bytes per read after the first. */
  readonly readBytes: number;
  /** Names the partition in logs. */
  readonly topic: string;
  readonly partition: number;
}

/** The head of a partition's stream; STREAM_NOT_ACTIVE unless it is ACTIVE. */
export async function activePartitionHead(context: LogStartBytesContext, streamId: string): Promise<StreamHead> {
  const head = await context.store.getHead(streamId, { signal: context.closing });
  if (head.state !== "ACTIVE") {
    throw new NereusError(
      ErrorCode.STREAM_NOT_ACTIVE,
      `partition ${context.topic}-${String(context.partition)} is ${head.state}`,
      { retryable: false },
    );
  }
  return head;
}

/** Reads whole stored batches of the stream from an offset, up to a byte budget (at least one batch). */
export function partitionReader(
  context: LogStartBytesContext,
  streamId: string,
): (offset: number, maxBytes: number) => Promise<readonly ReadEntry[]> {
  return async (offset, maxBytes) =>
    (await context.store.read(streamId, offset, { maxBytes, maxRecords: 0x7fff_ffff, signal: context.closing }))
      .entries;
}

/** The bytes before the batch holding `logStart`: from the record when it describes `logStart`, else counted. */
export async function bytesBeforeLogStart(
  context: LogStartBytesContext,
  streamId: string,
  head: { readonly logStart: number; readonly until: number; readonly cumulativeSize: number },
  signal: AbortSignal | undefined,
): Promise<number | undefined> {
  const { logStart, until } = head;
  const stored = await context.metadata.get(context.keyspace.logStartKey(streamId), { signal: context.closing });
  if (stored !== undefined) {
    try {
      const record = context.logStartCodec.decode(stored.value, stored.key);
      if (record.logStartOffset === logStart) return record.bytesBefore;
    } catch (error) {
      context.logger.warn("ignoring an unreadable log-start record", { streamId, error: String(error) });
    }
  }
  context.logger.info("counting the partition's size", {
    topic: context.topic,
    partition: context.partition,
    from: logStart,
    until,
  });
  const counted = await sumBatchBytes(partitionReader(context, streamId), logStart, until, context.readBytes, signal);
  if (counted === undefined) return undefined;
  const bytesBefore = head.cumulativeSize - counted;
  await recordLogStart(context, streamId, logStart, bytesBefore);
  return bytesBefore;
}

/** Writes the log-start record when the bytes are known (best effort: a failed write only means a count later). */
export async function recordLogStart(
  context: LogStartBytesContext,
  streamId: string,
  logStartOffset: number,
  bytesBefore: number | undefined,
): Promise<void> {
  if (bytesBefore === undefined || logStartOffset === 0) return;
  try {
    const value = context.logStartCodec.encode({ streamId, logStartOffset, bytesBefore });
    await context.metadata.txn(
      { compares: [], writes: [{ type: "put", key: context.keyspace.logStartKey(streamId), value }] },
      { signal: context.closing },
    );
  } catch (error) {
    context.logger.warn("log-start record not written", { streamId, error: String(error) });
  }
}

/**
 * The partition's size in bytes: the stored batches from the one holding the log start to the end (the head's
 * cumulative size minus the bytes before the log start). Reads the head, and the partition only when the bytes
 * before its log start are not recorded. Throws storage errors (STREAM_NOT_ACTIVE when the stream is not ACTIVE), and CANCELLED when `signal` ends a
 * count.
 */
export async function measurePartitionSize(
  context: LogStartBytesContext,
  streamId: string,
  signal?: AbortSignal,
): Promise<number> {
  const head = await activePartitionHead(context, streamId);
  if (head.trimOffset === 0) return head.cumulativeSize;
  const bytesBefore = await bytesBeforeLogStart(
    context,
    streamId,
    { logStart: head.trimOffset, until: head.committedEndOffset, cumulativeSize: head.cumulativeSize },
    signal,
  );
  if (bytesBefore === undefined)
    throw new NereusError(
      ErrorCode.CANCELLED,
      `counting the size of ${context.topic}-${String(context.partition)} was aborted`,
      { retryable: true },
    );
  return head.cumulativeSize - bytesBefore;
}
