// One Kafka partition over its stream: the produce path (tickets appended in order, idempotent-producer checks,
// offset assignment, one ranged entry per RecordBatch), the state fetches read (log start, high watermark = log
// end = committed end, append notifications), producer state rebuilt by replaying committed batches from an
// optional checkpoint, the time index, the log start (DeleteRecords and time retention) and the fence an uncertain
// append raises until `recoverAppend` resolves it.
// The produce path runs in partition-producer.ts (append loop and groups in flight), settle-append-group.ts,
// commit-append-group.ts, handle-append-failure.ts and fence-until-recovered.ts, over this log (produce-host.ts).
// The committed state changes only when a group's append succeeded, in group order. State is a cache of what is
// committed: any doubt drops it and the next use reloads it from the stream (after the groups in flight settled).
// Beside it: the shared context and view (partition-log-context.ts), loading and replay (partition-state.ts), the
// recovery behind the fence (recover-uncertain-append.ts) and the checkpoint write (write-producer-checkpoint.ts).
import { type ReadEntry, streamIdFromName } from "@nereus/core";
import { type KafkaTopic, partitionStreamName } from "../topics/kafka-topic.js";
import { ReadAhead } from "./read-ahead.js";
import { PartitionProducer } from "./partition-producer.js";
import type { ProduceTicket } from "./produce-ticket.js";
import { type LogStartBytesContext, measurePartitionSize } from "./log-start-bytes.js";
import type { PartitionLogContext, PartitionView } from "./partition-log-context.js";
import { type RetentionLimits, enforcePartitionRetention } from "./partition-retention.js";
import { type PartitionState, loadPartitionState, scanBatches } from "./partition-state.js";
import type { BatchSummary } from "./stored-batch.js";
import { TailCache } from "./tail-cache.js";
import { writeProducerCheckpoint } from "./write-producer-checkpoint.js";

/** One partition of one topic name (the topic behind the name may be deleted and created again). */
export class PartitionLog {
  readonly topicName: string;
  readonly partition: number;
  readonly #context: PartitionLogContext;
  readonly #onIdle: (log: PartitionLog) => void;
  readonly #producer: PartitionProducer;
  readonly #listeners = new Set<() => void>();
  #state: PartitionState | undefined;
  #loading: { readonly topicId: string; readonly promise: Promise<PartitionState> } | undefined;
  #checkpointing: Promise<void> | undefined;
  #checkpointAgain = false;
  readonly #readAhead: ReadAhead;
  readonly #tail: TailCache;

  constructor(topicName: string, partition: number, context: PartitionLogContext, onIdle: (log: PartitionLog) => void) {
    this.topicName = topicName;
    this.partition = partition;
    this.#context = context;
    this.#onIdle = onIdle;
    this.#readAhead = new ReadAhead(context.store, context.closing, context.readAheadMemory);
    this.#tail = new TailCache(context.tailCacheBytes, context.tailCacheMemory);
    this.#producer = new PartitionProducer({
      topicName,
      partition,
      context,
      tail: this.#tail,
      loadedState: () => this.#state,
      ensureLoaded: (topic) => this.#ensureLoaded(topic),
      drop: (state) => this.#drop(state),
      notify: () => this.#notify(),
      scheduleCheckpoint: (state) => this.#scheduleCheckpoint(state),
      maybeIdle: () => this.#maybeIdle(),
      drain: () => this.#producer.drain(),
    });
  }

  /** True when nothing refers to this log any more (the manager may drop it). */
  get idle(): boolean {
    return (
      this.#producer.idle && this.#listeners.size === 0 && this.#loading === undefined && this.#state === undefined
    );
  }

  /** True while an uncertain append is being recovered. */
  get fenced(): boolean {
    return this.#state?.fence !== undefined;
  }

  /** Reserves the next place in this partition's append order (synchronous; see ProduceTicket). */
  reserve(): ProduceTicket {
    return this.#producer.reserve();
  }

  /** Loads (or returns) the committed view for `topic`. Throws storage errors (map them with mapStorageError). */
  async view(topic: KafkaTopic): Promise<PartitionView> {
    const state = await this.#ensureLoaded(topic);
    return { streamId: state.streamId, logStartOffset: state.logStartOffset, highWatermark: state.highWatermark };
  }

  /**
   * Deletes every record below `offset` (-1 = the high watermark): raises the stream's trim offset, which is the
   * partition's log start from then on (never lowered; an offset at or below it changes nothing). Answers the new
   * log start, or `outOfRange` when `offset` is negative (other than -1) or above the high watermark. Throws storage
   * errors (map them with mapStorageError); nothing changes before the trim commits.
   */
  async deleteRecordsBefore(
    topic: KafkaTopic,
    offset: number,
  ): Promise<{ readonly outOfRange: true } | { readonly outOfRange: false; readonly logStartOffset: number }> {
    const state = await this.#ensureLoaded(topic);
    const target = offset === -1 ? state.highWatermark : offset;
    if (target < 0 || target > state.highWatermark) return { outOfRange: true };
    if (target > state.logStartOffset) {
      const head = await this.#context.store.trim(state.streamId, target, { signal: this.#context.closing });
      state.logStartOffset = Math.max(state.logStartOffset, head.trimOffset);
      this.#context.logger.info("records deleted", {
        topic: this.topicName,
        partition: this.partition,
        logStartOffset: state.logStartOffset,
        reason: "DeleteRecords",
      });
      this.#notify();
    }
    return { outOfRange: false, logStartOffset: state.logStartOffset };
  }

  /**
   * One retention pass (partition-retention.ts) on this partition's stream, loaded or not: nothing is loaded for it.
   * A loaded partition's log start follows the trims. Answers the log start and the offsets deleted. Throws storage
   * errors.
   */
  async enforceRetention(
    topic: KafkaTopic,
    limits: RetentionLimits,
    signal?: AbortSignal,
  ): Promise<{ readonly logStartOffset: number; readonly deleted: number }> {
    const context = this.#context;
    const streamId = streamIdFromName(partitionStreamName(topic.topicId, this.partition));
    try {
      return await enforcePartitionRetention(
        {
          ...this.#logStartBytesContext(),
          stepBytes: context.retentionStepBytes,
          onTrimmed: (logStartOffset) => {
            const state = this.#state;
            if (state?.streamId !== streamId || logStartOffset <= state.logStartOffset) return;
            state.logStartOffset = logStartOffset;
            this.#notify();
          },
        },
        streamId,
        limits,
        signal,
      );
    } finally {
      // A partition nobody else uses is forgotten again (the manager created it for this pass).
      this.#maybeIdle();
    }
  }

  /**
   * The partition's size in bytes (log-start-bytes.ts), from its stream's head, loaded or not: nothing is loaded for
   * it. Throws storage errors.
   */
  async size(topic: KafkaTopic, signal?: AbortSignal): Promise<number> {
    try {
      return await measurePartitionSize(
        this.#logStartBytesContext(),
        streamIdFromName(partitionStreamName(topic.topicId, this.partition)),
        signal,
      );
    } finally {
      this.#maybeIdle();
    }
  }

  #logStartBytesContext(): LogStartBytesContext {
    const context = this.#context;
    return {
      store: context.store,
      metadata: context.metadata,
      keyspace: context.keyspace,
      logStartCodec: context.logStartCodec,
      logger: context.logger,
      closing: context.closing,
      readBytes: context.replayReadBytes,
      topic: this.topicName,
      partition: this.partition,
    };
  }

  /**
   * Whole stored batches from `offset` (the first may start before it) below the view's high watermark, within
   * `maxBytes` except that at least one batch is returned.
   */
  async read(view: PartitionView, offset: number, maxBytes: number, signal?: AbortSignal): Promise<ReadEntry[]> {
    const tail = this.#tail.read(view.streamId, offset, maxBytes, view.highWatermark);
    if (tail !== undefined) {
      this.#context.events.fetchRead("tail");
      return tail;
    }
    if (this.#context.readAhead) {
      const buffered = await this.#readAhead.read(view.streamId, offset, maxBytes, view.highWatermark);
      if (buffered !== undefined) {
        this.#context.events.fetchRead("read-ahead");
        this.#readAhead.after(view.streamId, buffered, maxBytes, view.highWatermark, true);
        return buffered;
      }
    }
    this.#context.events.fetchRead("storage");
    const result = await this.#context.store.read(view.streamId, offset, { maxBytes, maxRecords: 0x7fff_ffff, signal });
    const entries = result.entries.filter((entry) => entry.offset < view.highWatermark);
    if (this.#context.readAhead) this.#readAhead.after(view.streamId, entries, maxBytes, view.highWatermark);
    return entries;
  }

  /** Calls `listener` after every append that moves the high watermark, and when the state is dropped. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
      this.#maybeIdle();
    };
  }

  /** The first batch at or after `logStart` whose max timestamp is >= `timestamp`. */
  async findByTimestamp(topic: KafkaTopic, timestamp: number): Promise<BatchSummary | undefined> {
    const state = await this.#ensureLoaded(topic);
    const match = await state.timeIndex.find(timestamp, state.logStartOffset, (from, until) =>
      scanBatches(this.#context, state.streamId, from, Math.min(until, state.highWatermark)),
    );
    return match?.batch;
  }

  /** Largest max timestamp of the partition's batches (-Infinity when empty). */
  async maxTimestamp(topic: KafkaTopic): Promise<number> {
    const state = await this.#ensureLoaded(topic);
    if (state.timeIndex.coveredFrom > state.logStartOffset)
      await state.timeIndex.find(Number.POSITIVE_INFINITY, state.logStartOffset, (from, until) =>
        scanBatches(this.#context, state.streamId, from, until),
      );
    return state.timeIndex.maxTimestamp;
  }

  /** Reads stored batches of [from, until) in order (whole entries; the first may start before `from`). */
  async *scan(topic: KafkaTopic, from: number, until: number): AsyncIterable<BatchSummary> {
    const state = await this.#ensureLoaded(topic);
    yield* scanBatches(this.#context, state.streamId, from, Math.min(until, state.highWatermark));
  }

  /** Drops the cached state (topic deleted); fetches waiting on this partition re-evaluate. */
  invalidate(topicId?: string): void {
    if (topicId !== undefined && this.#state !== undefined && this.#state.topicId !== topicId) return;
    this.#state = undefined;
    this.#readAhead.clear();
    this.#tail.clear();
    this.#notify();
    this.#maybeIdle();
  }

  /** Writes a producer-state checkpoint now when batches were committed since the last one. */
  async flushCheckpoint(): Promise<void> {
    const state = this.#state;
    if (this.#context.checkpointIntervalBatches === 0) return;
    if (state !== undefined && state.batchesSinceCheckpoint > 0 && state.fence === undefined)
      this.#scheduleCheckpoint(state);
    await this.#checkpointing;
  }

  /**
   * Resolves once no append loop is running and no append is in flight (queued batches behind an unresolved
   * ticket are not waited for).
   */
  settled(): Promise<void> {
    return this.#producer.settled();
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }

  #maybeIdle(): void {
    if (!this.idle) return;
    // The manager forgets this log: give the buffers' memory back to the shared budget.
    this.#readAhead.clear();
    this.#tail.clear();
    this.#onIdle(this);
  }

  // ---- loading ------------------------------------------------------------------------------------------------

  #ensureLoaded(topic: KafkaTopic): Promise<PartitionState> {
    const state = this.#state;
    if (state !== undefined && state.topicId === topic.topicId) return Promise.resolve(state);
    if (this.#loading !== undefined && this.#loading.topicId === topic.topicId) return this.#loading.promise;
    const promise = loadPartitionState(this.#context, topic, this.topicName, this.partition);
    const loading = { topicId: topic.topicId, promise };
    this.#loading = loading;
    promise.then(
      (loaded) => {
        if (this.#loading === loading) {
          this.#loading = undefined;
          this.#state = loaded;
        }
      },
      () => {
        if (this.#loading === loading) this.#loading = undefined;
        this.#maybeIdle();
      },
    );
    return promise;
  }

  // ---- produce (partition-producer.ts) -----------------------------------------------------------------------

  #drop(state: PartitionState): void {
    if (this.#state === state) this.#state = undefined;
    this.#notify();
  }

  // ---- checkpoints --------------------------------------------------------------------------------------------

  #scheduleCheckpoint(state: PartitionState): void {
    if (this.#checkpointing !== undefined) {
      this.#checkpointAgain = true;
      return;
    }
    this.#checkpointing = writeProducerCheckpoint(this.#context, state)
      .catch((error: unknown) =>
        this.#context.logger.warn("producer-state checkpoint failed", {
          streamId: state.streamId,
          error: String(error),
        }),
      )
      .finally(() => {
        this.#checkpointing = undefined;
        if (this.#checkpointAgain) {
          this.#checkpointAgain = false;
          if (this.#state === state && state.batchesSinceCheckpoint > 0) this.#scheduleCheckpoint(state);
        }
      });
  }
}
