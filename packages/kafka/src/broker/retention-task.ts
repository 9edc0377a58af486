// Retention, Kafka's `retention.ms` and `retention.bytes`: a periodic sweep (Kafka's
// `log.retention.check.interval.ms`, five minutes by default; the first one after min(interval, 30 s)) over every
// topic whose `cleanup.policy` includes "delete" and that limits its partitions by time or size. Partition by
// partition it deletes the oldest batches the limits let go (PartitionLog.enforceRetention), as Kafka deletes
// expired or excess segments from the oldest on. One sweep at a time, partitions one after another (bounded
// background work); a partition that fails is logged and tried again by the next sweep. Deleting is logical: the
// bytes stay in storage until a collector reclaims them.
import type { PartitionLogs } from "../log/partition-logs.js";
import type { TopicRegistry } from "../topics/topic-registry.js";
import { allowsRecordDeletion, retentionBytes, retentionMs } from "../topics/topic-configs.js";
import type { KafkaBrokerLogger } from "../logging/broker-logger.js";
import { mapStorageError } from "../log/map-storage-error.js";

/** Kafka's `log.retention.check.interval.ms` default. */
export const DEFAULT_RETENTION_CHECK_INTERVAL_MS = 300_000;
/** Longest wait before the first sweep (Kafka's scheduler starts its retention check after 30 s). */
const RETENTION_INITIAL_DELAY_MS = 30_000;

/** What one sweep did. */
export interface RetentionSweep {
  /** Topics with a retention limit that were visited. */
  readonly topics: number;
  readonly partitions: number;
  /** Offsets now below the log start that were not before the sweep. */
  readonly deletedRecords: number;
  /** Partitions whose retention failed (logged; the next sweep tries again). */
  readonly failures: number;
}

export interface RetentionTaskOptions {
  readonly registry: TopicRegistry;
  readonly logs: PartitionLogs;
  readonly logger: KafkaBrokerLogger;
  /** Wall clock in ms: retention compares record timestamps with it. */
  readonly clock: () => number;
  /** Period between sweeps; 0 disables the timer (sweeps then run only when asked). */
  readonly intervalMs: number;
  /** Aborted when the broker closes: a running sweep stops at its next storage call. */
  readonly signal: AbortSignal;
  /** Counts each sweep's deleted records and failures. */
  readonly onSweep?: (sweep: RetentionSweep) => void;
}

/** Runs the sweeps. Invariant: at most one sweep runs at a time; after `close()` none starts. */
export class RetentionTask {
  readonly #options: RetentionTaskOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<RetentionSweep> | undefined;
  #closed = false;

  constructor(options: RetentionTaskOptions) {
    if (!Number.isSafeInteger(options.intervalMs) || options.intervalMs < 0) {
      throw new RangeError(`retention check interval must be an integer >= 0 ms, got ${String(options.intervalMs)}`);
    }
    this.#options = options;
  }

  /** Arms the timer (no-op when the interval is 0). The timer never keeps the process alive. */
  start(): void {
    if (this.#options.intervalMs === 0 || this.#closed) return;
    this.#arm(Math.min(this.#options.intervalMs, RETENTION_INITIAL_DELAY_MS));
  }

  /** Runs a sweep now, or joins the one running. */
  sweep(): Promise<RetentionSweep> {
    this.#running ??= this.#sweep().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** Stops the timer and waits for a running sweep (which the broker's closing signal cuts short). Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => undefined);
  }

  #arm(delayMs: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.sweep()
        .catch((error: unknown) => this.#options.logger.warn("retention sweep failed", { error: String(error) }))
        .finally(() => {
          if (!this.#closed) this.#arm(this.#options.intervalMs);
        });
    }, delayMs);
    this.#timer.unref();
  }

  async #sweep(): Promise<RetentionSweep> {
    const { registry, logs, logger, clock, signal } = this.#options;
    let topics = 0;
    let partitions = 0;
    let deletedRecords = 0;
    let failures = 0;
    for (const topic of await registry.list(signal)) {
      const maxAgeMs = retentionMs(topic.configs);
      const maxBytes = retentionBytes(topic.configs);
      if ((maxAgeMs === undefined && maxBytes === undefined) || !allowsRecordDeletion(topic.configs)) continue;
      topics += 1;
      for (let partition = 0; partition < topic.partitionCount; partition += 1) {
        if (this.#closed || signal.aborted) break;
        partitions += 1;
        try {
          const limits = {
            ...(maxAgeMs === undefined ? {} : { olderThan: clock() - maxAgeMs }),
            ...(maxBytes === undefined ? {} : { maxBytes }),
          };
          const { deleted } = await logs.get(topic.name, partition).enforceRetention(topic, limits, signal);
          deletedRecords += deleted;
        } catch (error) {
          failures += 1;
          logger.warn("retention failed", { topic: topic.name, partition, error: mapStorageError(error).message });
        }
      }
    }
    const sweep = { topics, partitions, deletedRecords, failures };
    if (deletedRecords > 0 || failures > 0) logger.info("retention sweep", { ...sweep });
    this.#options.onSweep?.(sweep);
    return sweep;
  }
}
