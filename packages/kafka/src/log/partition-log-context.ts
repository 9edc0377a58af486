// What every partition log shares (owned by PartitionLogs): the stores, codecs, limits and the events the broker's
// metrics observe; and the committed view of a loaded partition that Fetch and ListOffsets read.
import type { MetadataStore, StreamStore } from "@nereus/core";
import type { RecordCodec } from "@nereus/core/internal";
import type { KafkaBrokerLogger } from "../logging/broker-logger.js";
import type { ProducerCheckpoint } from "../producers/producer-checkpoint-codec.js";
import type { KafkaKeyspace } from "../topics/kafka-keys.js";
import type { LogStartRecord } from "./log-start-codec.js";
import type { ReadAheadMemory } from "./read-ahead.js";

/** Everything partition logs share (owned by PartitionLogs). */
export interface PartitionLogContext {
  readonly store: StreamStore;
  readonly metadata: MetadataStore;
  readonly keyspace: KafkaKeyspace;
  readonly checkpointCodec: RecordCodec<ProducerCheckpoint>;
  readonly logStartCodec: RecordCodec<LogStartRecord>;
  readonly logger: KafkaBrokerLogger;
  readonly clock: () => number;
  /** Aborted when the broker closes. */
  readonly closing: AbortSignal;
  /** Bytes / batches merged into one append at most. */
  readonly maxAppendBytes: number;
  readonly maxAppendBatches: number;
  /** Appends of one partition in flight at once (1 = each waits for the previous one). */
  readonly maxInFlightAppends: number;
  /**
   * With an append of the partition in flight, the next one starts early only once at least this many bytes of
   * batches wait for it (0 = as soon as `maxInFlightAppends` allows); below that they wait for the one in flight.
   */
  readonly pipelinedAppendMinBytes: number;
  /** Committed batches between producer-state checkpoints (0 disables checkpoints). */
  readonly checkpointIntervalBatches: number;
  readonly producerIdExpirationMs: number;
  readonly timeIndexIntervalBytes: number;
  /** Bytes read per step when replaying or scanning. */
  readonly replayReadBytes: number;
  /** Expired bytes a retention pass scans between two trims. */
  readonly retentionStepBytes: number;
  /** After a (nearly) full read, read the next budgets in the background and keep them (see read-ahead.ts). */
  readonly readAhead: boolean;
  /** Bytes of the newest committed batches kept in memory for consumers at the log end (tail-cache.ts; 0 = none). */
  readonly tailCacheBytes: number;
  /** What the read-ahead buffers of all partitions may hold together. */
  readonly readAheadMemory: ReadAheadMemory;
  /** What the tail caches of all partitions may hold together (a pool of its own: tails never starve read-ahead). */
  readonly tailCacheMemory: ReadAheadMemory;
  readonly events: PartitionLogEvents;
}

/** Counters the broker's metrics observe. */
export interface PartitionLogEvents {
  /** Batches of `topic` committed: how many, their records and bytes. */
  appended(topic: string, batches: number, records: number, bytes: number): void;
  duplicate(): void;
  fenced(): void;
  loaded(replayedBatches: number): void;
  /** Where a Fetch read was served from: the tail cache, the read-ahead buffer or storage. */
  fetchRead(source: FetchReadSource): void;
}

/** Where a Fetch read is served from. */
type FetchReadSource = "tail" | "read-ahead" | "storage";

/** The committed view of a loaded partition. */
export interface PartitionView {
  readonly streamId: string;
  readonly logStartOffset: number;
  /** High watermark = last stable offset = log end = committed end (as of the last validated append). */
  readonly highWatermark: number;
}
