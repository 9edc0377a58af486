// The partition logs of one broker, by topic name and partition index. Logs are created on first use (a produce
// ticket, a fetch) and dropped again when idle and unloaded, so requests naming topics that do not exist leave
// nothing behind. Also the broker-wide tuning the logs share.
import type { MetadataStore, StreamStore } from "@nereus/core";
import type { KafkaBrokerLogger } from "../logging/broker-logger.js";
import { producerCheckpointCodec } from "../producers/producer-checkpoint-codec.js";
import { logStartCodec } from "./log-start-codec.js";
import type { KafkaKeyspace } from "../topics/kafka-keys.js";
import type { KafkaTopic } from "../topics/kafka-topic.js";
import { PartitionLog } from "./partition-log.js";
import type { PartitionLogContext, PartitionLogEvents } from "./partition-log-context.js";
import type { ProduceTicket } from "./produce-ticket.js";
import { DEFAULT_TIME_INDEX_INTERVAL_BYTES } from "./time-index.js";
import { ReadAheadMemory } from "./read-ahead.js";

/** Appends of one partition in flight at once unless `maxInFlightAppends` says otherwise. */
const DEFAULT_MAX_IN_FLIGHT_APPENDS = 4;

/** Tuning of the partition logs (every field has a default). */
export interface PartitionLogTuning {
  /** Bytes of batches merged into one append (default 8 MiB). */
  readonly maxAppendBytes?: number;
  /** Batches merged into one append (default 1,000). */
  readonly maxAppendBatches?: number;
  /**
   * Appends of one partition in flight at once (default 4; 1 = each append waits for the previous one). Each is
   * planned against the end the ones ahead will leave; the storage core commits them in order.
   */
  readonly maxInFlightAppends?: number;
  /**
   * With an append of a partition in flight, the next one starts early (up to `maxInFlightAppends`) only once at
   * least this many bytes of batches wait for it; below that they wait for the one in flight and merge into one
   * append (default 0: start as soon as allowed). Keeps overlapping appends as large as serial ones: each append has a
   * fixed cost (WAL object, metadata txns), so many small overlapping appends can cost more than they overlap.
   */
  readonly pipelinedAppendMinBytes?: number;
  /** Committed batches between producer-state checkpoints (default 5,000; 0 disables them). */
  readonly checkpointIntervalBatches?: number;
  /** Producers idle longer than this (by batch timestamp) are forgotten (default 1 day, Kafka's default). */
  readonly producerIdExpirationMs?: number;
  readonly timeIndexIntervalBytes?: number;
  /** Bytes read per step when replaying producer state (default 8 MiB). */
  readonly replayReadBytes?: number;
  /** Expired bytes a retention pass scans between two trims (default 64 MiB; each trim is durable progress). */
  readonly retentionStepBytes?: number;
  /**
   * After a Fetch read that filled at least half its budget, read the next budgets of the partition in the background
   * and keep them, so the consumer's next Fetch is served from memory (default true; see read-ahead.ts).
   */
  readonly readAhead?: boolean;
  /** Bytes the read-ahead buffers of all partitions hold at most together (default 64 MiB). */
  readonly readAheadMaxBytes?: number;
  /**
   * Bytes of each partition's newest committed batches kept for consumers at the log end (default 256 KiB; 0 = none;
   * see tail-cache.ts).
   */
  readonly tailCacheBytes?: number;
  /** Bytes the tail caches of all partitions hold at most together (default 32 MiB; partitions past it keep none). */
  readonly tailCacheMaxBytes?: number;
}

export interface PartitionLogsOptions extends PartitionLogTuning {
  readonly store: StreamStore;
  readonly metadata: MetadataStore;
  readonly keyspace: KafkaKeyspace;
  readonly logger: KafkaBrokerLogger;
  readonly clock: () => number;
  readonly closing: AbortSignal;
  readonly events: PartitionLogEvents;
}

/** Default of {@link PartitionLogTuning.readAheadMaxBytes}. */
const DEFAULT_READ_AHEAD_MAX_BYTES = 64 * 1024 * 1024;
/** Default bytes of one partition's tail cache. */
const DEFAULT_TAIL_CACHE_BYTES = 256 * 1024;
/** Default bytes all partitions' tail caches hold together. */
const DEFAULT_TAIL_CACHE_MAX_BYTES = 32 * 1024 * 1024;

/** Every partition log of the broker. */
export class PartitionLogs {
  readonly #logs = new Map<string, PartitionLog>();
  readonly #context: PartitionLogContext;

  constructor(options: PartitionLogsOptions) {
    const maxInFlightAppends = options.maxInFlightAppends ?? DEFAULT_MAX_IN_FLIGHT_APPENDS;
    if (!Number.isSafeInteger(maxInFlightAppends) || maxInFlightAppends < 1) {
      throw new RangeError(`maxInFlightAppends must be a positive integer, got ${String(options.maxInFlightAppends)}`);
    }
    const pipelinedAppendMinBytes = options.pipelinedAppendMinBytes ?? 0;
    if (!Number.isSafeInteger(pipelinedAppendMinBytes) || pipelinedAppendMinBytes < 0) {
      throw new RangeError(
        `pipelinedAppendMinBytes must be a non-negative integer, got ${String(options.pipelinedAppendMinBytes)}`,
      );
    }
    this.#context = {
      store: options.store,
      metadata: options.metadata,
      keyspace: options.keyspace,
      checkpointCodec: producerCheckpointCodec(options.keyspace),
      logStartCodec: logStartCodec(options.keyspace),
      logger: options.logger,
      clock: options.clock,
      closing: options.closing,
      maxAppendBytes: options.maxAppendBytes ?? 8 * 1024 * 1024,
      maxAppendBatches: options.maxAppendBatches ?? 1_000,
      maxInFlightAppends,
      pipelinedAppendMinBytes,
      checkpointIntervalBatches: options.checkpointIntervalBatches ?? 5_000,
      producerIdExpirationMs: options.producerIdExpirationMs ?? 86_400_000,
      timeIndexIntervalBytes: options.timeIndexIntervalBytes ?? DEFAULT_TIME_INDEX_INTERVAL_BYTES,
      replayReadBytes: options.replayReadBytes ?? 8 * 1024 * 1024,
      retentionStepBytes: options.retentionStepBytes ?? 64 * 1024 * 1024,
      readAhead: options.readAhead ?? true,
      tailCacheBytes: options.tailCacheBytes ?? DEFAULT_TAIL_CACHE_BYTES,
      readAheadMemory: new ReadAheadMemory(options.readAheadMaxBytes ?? DEFAULT_READ_AHEAD_MAX_BYTES),
      tailCacheMemory: new ReadAheadMemory(options.tailCacheMaxBytes ?? DEFAULT_TAIL_CACHE_MAX_BYTES),
      events: options.events,
    };
  }

  /** Logs currently held (loaded or in use). */
  get size(): number {
    return this.#logs.size;
  }

  /** Bytes the read-ahead buffers of all partitions hold now. */
  get readAheadBytes(): number {
    return this.#context.readAheadMemory.used;
  }

  /** Bytes the tail caches of all partitions hold now. */
  get tailCacheBytes(): number {
    return this.#context.tailCacheMemory.used;
  }

  /** Partitions currently fenced by an uncertain append. */
  get fencedCount(): number {
    let count = 0;
    for (const log of this.#logs.values()) if (log.fenced) count += 1;
    return count;
  }

  /** The log of `topicName`/`partition` (created on first use). */
  get(topicName: string, partition: number): PartitionLog {
    const key = `${topicName}\u0000${String(partition)}`;
    let log = this.#logs.get(key);
    if (log === undefined) {
      log = new PartitionLog(topicName, partition, this.#context, (idle) => {
        if (this.#logs.get(key) === idle && idle.idle) this.#logs.delete(key);
      });
      this.#logs.set(key, log);
    }
    return log;
  }

  /** Reserves the next append place of `topicName`/`partition` (synchronous). */
  reserve(topicName: string, partition: number): ProduceTicket {
    return this.get(topicName, partition).reserve();
  }

  /** Drops the state of every partition of `topic` (it is being deleted). */
  invalidateTopic(topic: KafkaTopic): void {
    for (const log of this.#logs.values()) if (log.topicName === topic.name) log.invalidate(topic.topicId);
  }

  /** Drops the state of partition `partition` of the topic with id `topicId` (another broker leads it now). */
  invalidatePartition(topicId: string, partition: number): void {
    for (const log of this.#logs.values()) if (log.partition === partition) log.invalidate(topicId);
  }

  /** Waits for running appends, then writes the producer-state checkpoints that are behind. */
  async close(): Promise<void> {
    const logs = [...this.#logs.values()];
    await Promise.all(logs.map((log) => log.settled()));
    await Promise.all(logs.map((log) => log.flushCheckpoint()));
  }
}
