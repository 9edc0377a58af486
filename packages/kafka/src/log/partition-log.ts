// One Kafka partition over its stream: the produce path (tickets appended in order, idempotent-producer checks,
// offset assignment, one ranged entry per RecordBatch, `expectedStartOffset` = the log end), the state fetches
// read (log start, high watermark = log end = committed end, append notifications), producer state rebuilt by
// replaying committed batches from an optional checkpoint, the time index, and the fence an uncertain append
// raises until `recoverAppend` resolves it. At most one append per partition is in flight; batches submitted
// meanwhile are merged into the next append (one head CAS for all of them, each batch still its own entry).
// State is a cache of what is committed: any doubt drops it and the next use reloads it from the stream.
import {
  type AppendResult,
  AppendFailedError,
  ErrorCode,
  type MetadataStore,
  NereusError,
  type ReadEntry,
  type RecordCodec,
  type StreamStore,
  streamIdFromName,
} from "@nereus/core";
import type { KafkaBrokerLogger } from "../broker/broker-logger.js";
import { type KafkaErrorMapping, mapStorageError } from "../broker/map-storage-error.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import type { ProducerCheckpoint } from "../producers/producer-checkpoint-codec.js";
import {
  type ProducerEntry,
  type RetainedBatch,
  checkBatch,
  expireProducers,
  replayBatch,
  withBatch,
} from "../producers/producer-state.js";
import type { KafkaKeyspace } from "../topics/kafka-keys.js";
import { type KafkaTopic, partitionStreamName } from "../topics/kafka-topic.js";
import { usesLogAppendTime } from "../topics/topic-configs.js";
import { type ProduceOutcome, ProduceTicket } from "./produce-ticket.js";
import { type BatchSummary, prepareStoredBatch, summarizeBatch } from "./stored-batch.js";
import { TimeIndex } from "./time-index.js";

/** Everything partition logs share (owned by PartitionLogs). */
export interface PartitionLogContext {
  readonly store: StreamStore;
  readonly metadata: MetadataStore;
  readonly keyspace: KafkaKeyspace;
  readonly checkpointCodec: RecordCodec<ProducerCheckpoint>;
  readonly logger: KafkaBrokerLogger;
  readonly clock: () => number;
  /** Aborted when the broker closes. */
  readonly closing: AbortSignal;
  /** Bytes / batches merged into one append at most. */
  readonly maxAppendBytes: number;
  readonly maxAppendBatches: number;
  /** Committed batches between producer-state checkpoints (0 disables checkpoints). */
  readonly checkpointIntervalBatches: number;
  readonly producerIdExpirationMs: number;
  readonly timeIndexIntervalBytes: number;
  /** Bytes read per step when replaying or scanning. */
  readonly replayReadBytes: number;
  readonly events: PartitionLogEvents;
}

/** Counters the broker's metrics observe. */
export interface PartitionLogEvents {
  appended(batches: number, records: number, bytes: number): void;
  duplicate(): void;
  fenced(): void;
  loaded(replayedBatches: number): void;
}

/** The committed view of a loaded partition. */
export interface PartitionView {
  readonly streamId: string;
  readonly logStartOffset: number;
  /** High watermark = last stable offset = log end = committed end (as of the last validated append). */
  readonly highWatermark: number;
}

interface LoadedState extends PartitionView {
  readonly topicId: string;
  logStartOffset: number;
  highWatermark: number;
  readonly producers: Map<bigint, ProducerEntry>;
  readonly timeIndex: TimeIndex;
  batchesSinceCheckpoint: number;
  /** Set while an uncertain append is being recovered: produce is refused. */
  fence: Promise<void> | undefined;
}

interface Member {
  readonly ticket: ProduceTicket;
  readonly baseOffset: number;
  readonly timeoutMs: number;
}

interface Dependent {
  readonly ticket: ProduceTicket;
  readonly original: Member;
}

const RECOVERY_MIN_DELAY_MS = 10;
const RECOVERY_MAX_DELAY_MS = 2_000;

/** One partition of one topic name (the topic behind the name may be deleted and created again). */
export class PartitionLog {
  readonly topicName: string;
  readonly partition: number;
  readonly #context: PartitionLogContext;
  readonly #onIdle: (log: PartitionLog) => void;
  readonly #queue: ProduceTicket[] = [];
  readonly #listeners = new Set<() => void>();
  #state: LoadedState | undefined;
  #loading: { readonly topicId: string; readonly promise: Promise<LoadedState> } | undefined;
  #draining = false;
  #drainRun: Promise<void> | undefined;
  #checkpointing: Promise<void> | undefined;
  #checkpointAgain = false;

  constructor(topicName: string, partition: number, context: PartitionLogContext, onIdle: (log: PartitionLog) => void) {
    this.topicName = topicName;
    this.partition = partition;
    this.#context = context;
    this.#onIdle = onIdle;
  }

  /** True when nothing refers to this log any more (the manager may drop it). */
  get idle(): boolean {
    return this.#queue.length === 0 && !this.#draining && this.#listeners.size === 0 && this.#loading === undefined && this.#state === undefined;
  }

  /** True while an uncertain append is being recovered. */
  get fenced(): boolean {
    return this.#state?.fence !== undefined;
  }

  /** Reserves the next place in this partition's append order (synchronous; see ProduceTicket). */
  reserve(): ProduceTicket {
    const ticket = new ProduceTicket(() => this.#drain());
    this.#queue.push(ticket);
    return ticket;
  }

  /** Loads (or returns) the committed view for `topic`. Throws storage errors (map them with mapStorageError). */
  async view(topic: KafkaTopic): Promise<PartitionView> {
    const state = await this.#ensureLoaded(topic);
    return { streamId: state.streamId, logStartOffset: state.logStartOffset, highWatermark: state.highWatermark };
  }

  /**
   * Whole stored batches from `offset` (the first may start before it) below the view's high watermark, within
   * `maxBytes` except that at least one batch is returned.
   */
  async read(view: PartitionView, offset: number, maxBytes: number, signal?: AbortSignal): Promise<ReadEntry[]> {
    const result = await this.#context.store.read(view.streamId, offset, { maxBytes, maxRecords: 0x7fff_ffff, signal });
    return result.entries.filter((entry) => entry.offset < view.highWatermark);
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
    const match = await state.timeIndex.find(timestamp, state.logStartOffset, (from, until) => this.#scan(state.streamId, from, Math.min(until, state.highWatermark)));
    return match?.batch;
  }

  /** Largest max timestamp of the partition's batches (-Infinity when empty). */
  async maxTimestamp(topic: KafkaTopic): Promise<number> {
    const state = await this.#ensureLoaded(topic);
    if (state.timeIndex.coveredFrom > state.logStartOffset) await state.timeIndex.find(Number.POSITIVE_INFINITY, state.logStartOffset, (from, until) => this.#scan(state.streamId, from, until));
    return state.timeIndex.maxTimestamp;
  }

  /** Reads stored batches of [from, until) in order (whole entries; the first may start before `from`). */
  async *scan(topic: KafkaTopic, from: number, until: number): AsyncIterable<BatchSummary> {
    const state = await this.#ensureLoaded(topic);
    yield* this.#scan(state.streamId, from, Math.min(until, state.highWatermark));
  }

  /** Drops the cached state (topic deleted); fetches waiting on this partition re-evaluate. */
  invalidate(topicId?: string): void {
    if (topicId !== undefined && this.#state !== undefined && this.#state.topicId !== topicId) return;
    this.#state = undefined;
    this.#notify();
    this.#maybeIdle();
  }

  /** Writes a producer-state checkpoint now when batches were committed since the last one. */
  async flushCheckpoint(): Promise<void> {
    const state = this.#state;
    if (this.#context.checkpointIntervalBatches === 0) return;
    if (state !== undefined && state.batchesSinceCheckpoint > 0 && state.fence === undefined) this.#scheduleCheckpoint(state);
    await this.#checkpointing;
  }

  /** Resolves once no append loop is running (queued batches behind an unresolved ticket are not waited for). */
  async settled(): Promise<void> {
    while (this.#drainRun !== undefined) await this.#drainRun;
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }

  #maybeIdle(): void {
    if (this.idle) this.#onIdle(this);
  }

  // ---- loading ------------------------------------------------------------------------------------------------

  #ensureLoaded(topic: KafkaTopic): Promise<LoadedState> {
    const state = this.#state;
    if (state !== undefined && state.topicId === topic.topicId) return Promise.resolve(state);
    if (this.#loading !== undefined && this.#loading.topicId === topic.topicId) return this.#loading.promise;
    const promise = this.#load(topic);
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

  async #load(topic: KafkaTopic): Promise<LoadedState> {
    const context = this.#context;
    const streamId = streamIdFromName(partitionStreamName(topic.topicId, this.partition));
    const head = await context.store.getHead(streamId, { signal: context.closing });
    if (head.state !== "ACTIVE") {
      throw new NereusError(ErrorCode.STREAM_NOT_ACTIVE, `partition ${this.topicName}-${String(this.partition)} is ${head.state}`, { retryable: false });
    }
    const end = head.committedEndOffset;
    const producers = new Map<bigint, ProducerEntry>();
    let replayFrom = head.trimOffset;
    const checkpoint = await this.#readCheckpoint(streamId);
    if (checkpoint !== undefined && checkpoint.endOffset >= head.trimOffset && checkpoint.endOffset <= end) {
      for (const producer of checkpoint.producers) producers.set(producer.producerId, producer);
      replayFrom = checkpoint.endOffset;
    }
    const timeIndex = new TimeIndex(replayFrom, context.timeIndexIntervalBytes);
    let replayed = 0;
    for await (const batch of this.#scan(streamId, replayFrom, end)) {
      if (batch.producer !== undefined) replayBatch(producers, batch.producer, batch.baseOffset);
      timeIndex.observe(batch);
      replayed += 1;
    }
    expireProducers(producers, context.clock(), context.producerIdExpirationMs);
    context.events.loaded(replayed);
    context.logger.debug("partition loaded", { topic: this.topicName, partition: this.partition, streamId, end, replayFrom, replayed });
    return {
      topicId: topic.topicId,
      streamId,
      logStartOffset: head.trimOffset,
      highWatermark: end,
      producers,
      timeIndex,
      batchesSinceCheckpoint: replayed,
      fence: undefined,
    };
  }

  async #readCheckpoint(streamId: string): Promise<ProducerCheckpoint | undefined> {
    const key = this.#context.keyspace.producerStateKey(streamId);
    const stored = await this.#context.metadata.get(key, { signal: this.#context.closing });
    if (stored === undefined) return undefined;
    try {
      return this.#context.checkpointCodec.decode(stored.value, stored.key);
    } catch (error) {
      this.#context.logger.warn("ignoring an unreadable producer-state checkpoint", { streamId, error: String(error) });
      return undefined;
    }
  }

  async *#scan(streamId: string, from: number, until: number): AsyncIterable<BatchSummary> {
    let offset = from;
    while (offset < until) {
      const result = await this.#context.store.read(streamId, offset, {
        maxBytes: this.#context.replayReadBytes,
        maxRecords: 0x7fff_ffff,
        signal: this.#context.closing,
      });
      if (result.entries.length === 0) return;
      for (const entry of result.entries) {
        if (entry.offset >= until) return;
        yield summarizeBatch(entry.payload, entry.offset, entry.recordCount);
      }
      offset = result.nextOffset;
    }
  }

  // ---- produce ------------------------------------------------------------------------------------------------

  #drain(): void {
    if (this.#draining) return;
    this.#draining = true;
    this.#drainRun = this.#drainLoop()
      .catch((error: unknown) => this.#context.logger.error("partition append loop failed", { topic: this.topicName, partition: this.partition, error: String(error) }))
      .finally(() => {
        this.#draining = false;
        this.#drainRun = undefined;
        if (this.#queue[0] !== undefined && this.#queue[0].state !== "reserved") this.#drain();
        else this.#maybeIdle();
      });
  }

  async #drainLoop(): Promise<void> {
    for (;;) {
      const group: ProduceTicket[] = [];
      let bytes = 0;
      let topicId: string | undefined;
      while (this.#queue.length > 0) {
        const ticket = this.#queue[0];
        if (ticket === undefined || ticket.state === "reserved") break;
        if (ticket.state === "cancelled") {
          this.#queue.shift();
          continue;
        }
        const submission = ticket.submission;
        if (submission === undefined) break;
        const size = submission.batch.byteLength;
        if (group.length > 0 && (submission.topic.topicId !== topicId || group.length >= this.#context.maxAppendBatches || bytes + size > this.#context.maxAppendBytes)) break;
        topicId = submission.topic.topicId;
        group.push(ticket);
        bytes += size;
        this.#queue.shift();
      }
      if (group.length === 0) return;
      await this.#appendGroup(group);
    }
  }

  async #appendGroup(group: readonly ProduceTicket[]): Promise<void> {
    const first = group[0]?.submission;
    if (first === undefined) return;
    const topic = first.topic;
    let state: LoadedState;
    try {
      state = await this.#ensureLoaded(topic);
    } catch (error) {
      const mapped = mapStorageError(error);
      for (const ticket of group) ticket.complete(failure(mapped));
      return;
    }
    if (state.fence !== undefined) {
      for (const ticket of group) {
        ticket.complete({ kind: "failed", errorCode: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER, message: "the partition is recovering an uncertain append" });
      }
      return;
    }
    const now = this.#context.clock();
    const logAppendTimeMs = usesLogAppendTime(topic.configs) ? now : undefined;
    const overlay = new Map<bigint, ProducerEntry>();
    const members: Member[] = [];
    const dependents: Dependent[] = [];
    const entries: Array<{ payload: Uint8Array; recordCount: number }> = [];
    let next = state.highWatermark;
    for (const ticket of group) {
      const submission = ticket.submission;
      if (submission === undefined) continue;
      const { header } = submission;
      if (header.producerId >= 0n) {
        const producer = {
          producerId: header.producerId,
          producerEpoch: header.producerEpoch,
          baseSequence: header.baseSequence,
          lastOffsetDelta: header.lastOffsetDelta,
          recordCount: header.recordCount,
          maxTimestamp: logAppendTimeMs ?? header.maxTimestamp,
        };
        const entry = overlay.get(header.producerId) ?? state.producers.get(header.producerId);
        const verdict = checkBatch(entry, producer);
        if (verdict.kind === "duplicate") {
          this.#context.events.duplicate();
          const original = members.find((member) => member.baseOffset === verdict.batch.baseOffset);
          if (original !== undefined) dependents.push({ ticket, original });
          else ticket.complete(duplicateOutcome(verdict.batch, state, topic));
          continue;
        }
        if (verdict.kind === "invalid-epoch") {
          ticket.complete({ kind: "failed", errorCode: KafkaErrorCode.INVALID_PRODUCER_EPOCH, message: verdict.message, logStartOffset: state.logStartOffset });
          continue;
        }
        if (verdict.kind === "out-of-order") {
          ticket.complete({ kind: "failed", errorCode: KafkaErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, message: verdict.message, logStartOffset: state.logStartOffset });
          continue;
        }
        overlay.set(header.producerId, withBatch(entry, producer, next));
      }
      entries.push({ payload: prepareStoredBatch(submission.batch, next, logAppendTimeMs), recordCount: header.recordCount });
      members.push({ ticket, baseOffset: next, timeoutMs: submission.timeoutMs });
      next += header.recordCount;
    }
    if (entries.length === 0) return;
    const expectedStart = state.highWatermark;
    let result: AppendResult;
    try {
      result = await this.#context.store.append(
        state.streamId,
        { payloadFormat: "KAFKA_RECORD_BATCH", entries },
        { expectedStartOffset: expectedStart, signal: this.#context.closing },
      );
    } catch (error) {
      this.#handleAppendFailure(state, error, members, dependents, logAppendTimeMs);
      return;
    }
    if (result.startOffset !== expectedStart || result.endOffset !== next) {
      // Core guarantees the range; if it ever differs, the stored base offsets are wrong: reload, never guess.
      this.#context.logger.error("append committed an unexpected range", { streamId: state.streamId, expectedStart, expectedEnd: next, result });
      this.#drop(state);
      const failed: ProduceOutcome = { kind: "failed", errorCode: KafkaErrorCode.KAFKA_STORAGE_ERROR, message: "append committed an unexpected range" };
      for (const member of [...members, ...dependents]) member.ticket.complete(failed);
      return;
    }
    this.#commit(state, overlay, entries, members, logAppendTimeMs);
    for (const member of members) member.ticket.complete(appendedOutcome(member.baseOffset, state, logAppendTimeMs));
    for (const dependent of dependents) dependent.ticket.complete(appendedOutcome(dependent.original.baseOffset, state, logAppendTimeMs));
  }

  #commit(
    state: LoadedState,
    overlay: ReadonlyMap<bigint, ProducerEntry>,
    entries: ReadonlyArray<{ payload: Uint8Array; recordCount: number }>,
    members: readonly Member[],
    logAppendTimeMs: number | undefined,
  ): void {
    let records = 0;
    let bytes = 0;
    entries.forEach((entry, index) => {
      const member = members[index];
      if (member === undefined) return;
      state.timeIndex.observe({
        baseOffset: member.baseOffset,
        recordCount: entry.recordCount,
        maxTimestamp: logAppendTimeMs ?? member.ticket.submission?.header.maxTimestamp ?? -1,
        bytes: entry.payload.byteLength,
        producer: undefined,
      });
      records += entry.recordCount;
      bytes += entry.payload.byteLength;
    });
    for (const [producerId, entry] of overlay) state.producers.set(producerId, entry);
    state.highWatermark += records;
    state.batchesSinceCheckpoint += entries.length;
    this.#context.events.appended(entries.length, records, bytes);
    const interval = this.#context.checkpointIntervalBatches;
    if (interval > 0 && state.batchesSinceCheckpoint >= interval) this.#scheduleCheckpoint(state);
    this.#notify();
  }

  #handleAppendFailure(state: LoadedState, error: unknown, members: readonly Member[], dependents: readonly Dependent[], logAppendTimeMs: number | undefined): void {
    const mapped = mapStorageError(error);
    const attemptId = AppendFailedError.isAppendFailure(error) ? error.attemptId : undefined;
    if (mapped.action === "recover" && attemptId !== undefined) {
      this.#context.events.fenced();
      this.#context.logger.warn("uncertain append: partition fenced until recovery", {
        topic: this.topicName,
        partition: this.partition,
        streamId: state.streamId,
        attemptId,
        error: mapped.message,
      });
      const recovery = this.#recover(state.streamId, attemptId);
      state.fence = recovery.then(
        () => undefined,
        () => undefined,
      );
      void state.fence.then(() => {
        this.#drop(state);
        this.#drain();
      });
      const answer = recovery.then(
        (result) => (result === undefined ? "not-committed" : result.startOffset === members[0]?.baseOffset ? "committed" : "unknown"),
        () => "unknown",
      );
      for (const member of [...members, ...dependents.map((dependent) => ({ ...dependent.original, ticket: dependent.ticket }))]) {
        const timer = setTimeout(() => {
          member.ticket.complete({ kind: "failed", errorCode: KafkaErrorCode.REQUEST_TIMED_OUT, message: "the append outcome is still being recovered" });
        }, Math.max(0, member.timeoutMs));
        timer.unref?.();
        void answer.then((verdict) => {
          clearTimeout(timer);
          member.ticket.complete(
            verdict === "committed"
              ? appendedOutcome(member.baseOffset, state, logAppendTimeMs)
              : verdict === "not-committed"
                ? { kind: "failed", errorCode: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER, message: "the append did not commit", logStartOffset: state.logStartOffset }
                : { kind: "failed", errorCode: KafkaErrorCode.REQUEST_TIMED_OUT, message: "the append outcome could not be resolved" },
          );
        });
      }
      return;
    }
    if (mapped.action !== "none") this.#drop(state);
    if (mapped.action === "offline") {
      this.#context.logger.error("partition storage error", { topic: this.topicName, partition: this.partition, error: mapped.message });
    }
    const outcome = failure(mapped, state.logStartOffset);
    for (const member of [...members, ...dependents]) member.ticket.complete(outcome);
  }

  /**
   * Resolves the uncertain attempt exactly (never a new write): the original result when it committed, undefined
   * when it provably did not. Retries unresolved recoveries with backoff until the broker closes.
   */
  async #recover(streamId: string, attemptId: string): Promise<AppendResult | undefined> {
    let delay = RECOVERY_MIN_DELAY_MS;
    for (;;) {
      try {
        const result = await this.#context.store.recoverAppend(streamId, attemptId, { signal: this.#context.closing });
        this.#context.logger.info("uncertain append recovered: committed", { streamId, attemptId });
        return result;
      } catch (error) {
        if (AppendFailedError.isAppendFailure(error) && error.outcome === "KNOWN_NOT_COMMITTED") {
          this.#context.logger.info("uncertain append recovered: not committed", { streamId, attemptId });
          return undefined;
        }
        if (this.#context.closing.aborted || NereusError.hasCode(error, ErrorCode.UNKNOWN_APPEND_ATTEMPT) || NereusError.hasCode(error, ErrorCode.STORAGE_CLOSED)) {
          throw error;
        }
        this.#context.logger.debug("append recovery not resolved yet", { streamId, attemptId, error: String(error) });
      }
      await new Promise((resolve) => setTimeout(resolve, delay).unref?.());
      delay = Math.min(delay * 2, RECOVERY_MAX_DELAY_MS);
    }
  }

  #drop(state: LoadedState): void {
    if (this.#state === state) this.#state = undefined;
    this.#notify();
  }

  // ---- checkpoints --------------------------------------------------------------------------------------------

  #scheduleCheckpoint(state: LoadedState): void {
    if (this.#checkpointing !== undefined) {
      this.#checkpointAgain = true;
      return;
    }
    this.#checkpointing = this.#writeCheckpoint(state)
      .catch((error: unknown) => this.#context.logger.warn("producer-state checkpoint failed", { streamId: state.streamId, error: String(error) }))
      .finally(() => {
        this.#checkpointing = undefined;
        if (this.#checkpointAgain) {
          this.#checkpointAgain = false;
          if (this.#state === state && state.batchesSinceCheckpoint > 0) this.#scheduleCheckpoint(state);
        }
      });
  }

  async #writeCheckpoint(state: LoadedState): Promise<void> {
    if (state.fence !== undefined) return;
    const endOffset = state.highWatermark;
    const written = state.batchesSinceCheckpoint;
    expireProducers(state.producers, this.#context.clock(), this.#context.producerIdExpirationMs);
    const producers = [...state.producers.values()].sort((left, right) => (left.producerId < right.producerId ? -1 : left.producerId > right.producerId ? 1 : 0));
    const checkpoint: ProducerCheckpoint = { streamId: state.streamId, endOffset, producers };
    const key = this.#context.keyspace.producerStateKey(state.streamId);
    await this.#context.metadata.txn({ compares: [], writes: [{ type: "put", key, value: this.#context.checkpointCodec.encode(checkpoint) }] });
    state.batchesSinceCheckpoint = Math.max(0, state.batchesSinceCheckpoint - written);
  }
}

function failure(mapped: KafkaErrorMapping, logStartOffset?: number): ProduceOutcome {
  return { kind: "failed", errorCode: mapped.errorCode, message: mapped.message, logStartOffset, throttleTimeMs: mapped.throttleTimeMs };
}

function appendedOutcome(baseOffset: number, state: PartitionView, logAppendTimeMs: number | undefined): ProduceOutcome {
  return { kind: "appended", baseOffset, logAppendTimeMs: logAppendTimeMs ?? -1, logStartOffset: state.logStartOffset };
}

function duplicateOutcome(batch: RetainedBatch, state: PartitionView, topic: KafkaTopic): ProduceOutcome {
  return {
    kind: "appended",
    baseOffset: batch.baseOffset,
    logAppendTimeMs: usesLogAppendTime(topic.configs) ? batch.maxTimestamp : -1,
    logStartOffset: state.logStartOffset,
  };
}
