// One Kafka partition over its stream: the produce path (tickets appended in order, idempotent-producer checks,
// offset assignment, one ranged entry per RecordBatch), the state fetches read (log start, high watermark = log
// end = committed end, append notifications), producer state rebuilt by replaying committed batches from an
// optional checkpoint, the time index, the log start (DeleteRecords and time retention) and the fence an uncertain
// append raises until `recoverAppend` resolves it.
// Up to `maxInFlightAppends` appends per partition are in flight (see append-pipeline.ts): each group is planned
// against the projected end and appended with `expectedStartOffset` = that end; batches submitted while the
// pipeline is full are merged into the next group (one head CAS for all of them, each batch still its own entry).
// With `pipelinedAppendMinBytes`, a group starts beside one in flight only once that many bytes wait for it.
// The committed state changes only when a group's append succeeded, in group order. State is a cache of what is
// committed: any doubt drops it and the next use reloads it from the stream (after the groups in flight settled).
// Beside it: the shared context and view (partition-log-context.ts), loading and replay (partition-state.ts), the
// recovery behind the fence (recover-uncertain-append.ts) and the checkpoint write (write-producer-checkpoint.ts).
import {
  type AppendResult,
  AppendFailedError,
  ErrorCode,
  NereusError,
  type ReadEntry,
  streamIdFromName,
} from "@nereus/core";
import { mapStorageError } from "./map-storage-error.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import { type KafkaTopic, partitionStreamName } from "../topics/kafka-topic.js";
import { AppendPipeline, type InFlightGroup } from "./append-pipeline.js";
import { planAppendGroup } from "./plan-append-group.js";
import { ReadAhead } from "./read-ahead.js";
import { appendedOutcome, failedOutcome } from "./produce-outcomes.js";
import { ProduceQueue } from "./produce-queue.js";
import { type ProduceOutcome, ProduceTicket } from "./produce-ticket.js";
import { type LogStartBytesContext, measurePartitionSize } from "./log-start-bytes.js";
import type { PartitionLogContext, PartitionView } from "./partition-log-context.js";
import { type RetentionLimits, enforcePartitionRetention } from "./partition-retention.js";
import { type PartitionState, loadPartitionState, scanBatches } from "./partition-state.js";
import { recoverUncertainAppend } from "./recover-uncertain-append.js";
import type { BatchSummary } from "./stored-batch.js";
import { TailCache } from "./tail-cache.js";
import { writeProducerCheckpoint } from "./write-producer-checkpoint.js";

type Group = InFlightGroup<PartitionState>;

type AppendOutcome =
  { readonly ok: true; readonly result: AppendResult } | { readonly ok: false; readonly error: unknown };

/** One partition of one topic name (the topic behind the name may be deleted and created again). */
export class PartitionLog {
  readonly topicName: string;
  readonly partition: number;
  readonly #context: PartitionLogContext;
  readonly #onIdle: (log: PartitionLog) => void;
  readonly #queue = new ProduceQueue();
  readonly #listeners = new Set<() => void>();
  #state: PartitionState | undefined;
  #loading: { readonly topicId: string; readonly promise: Promise<PartitionState> } | undefined;
  #draining = false;
  #drainRun: Promise<void> | undefined;
  #checkpointing: Promise<void> | undefined;
  #checkpointAgain = false;
  readonly #pipeline = new AppendPipeline<PartitionState>();
  readonly #readAhead: ReadAhead;
  readonly #tail: TailCache;
  /** Resolves when every launched group's outcome has been handled (groups are handled in launch order). */
  #settling: Promise<void> = Promise.resolve();
  #wakeUp: (() => void) | undefined;

  constructor(topicName: string, partition: number, context: PartitionLogContext, onIdle: (log: PartitionLog) => void) {
    this.topicName = topicName;
    this.partition = partition;
    this.#context = context;
    this.#onIdle = onIdle;
    this.#readAhead = new ReadAhead(context.store, context.closing, context.readAheadMemory);
    this.#tail = new TailCache(context.tailCacheBytes, context.tailCacheMemory);
  }

  /** True when nothing refers to this log any more (the manager may drop it). */
  get idle(): boolean {
    return (
      this.#queue.length === 0 &&
      !this.#draining &&
      this.#listeners.size === 0 &&
      this.#loading === undefined &&
      this.#state === undefined
    );
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
  async settled(): Promise<void> {
    while (this.#drainRun !== undefined) await this.#drainRun;
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

  // ---- produce ------------------------------------------------------------------------------------------------

  #drain(): void {
    if (this.#draining) {
      this.#wake();
      return;
    }
    this.#draining = true;
    this.#drainRun = this.#drainLoop()
      .catch((error: unknown) =>
        this.#context.logger.error("partition append loop failed", {
          topic: this.topicName,
          partition: this.partition,
          error: String(error),
        }),
      )
      .finally(() => {
        this.#draining = false;
        this.#drainRun = undefined;
        if (this.#queue.headResolved) this.#drain();
        else this.#maybeIdle();
      });
  }

  /** Wakes the append loop when it waits for a submission or for a group to settle. */
  #wake(): void {
    const wakeUp = this.#wakeUp;
    this.#wakeUp = undefined;
    wakeUp?.();
  }

  /** Starts groups while the pipeline accepts them; returns once nothing startable is queued and nothing is in flight. */
  async #drainLoop(): Promise<void> {
    for (;;) {
      const tickets = this.#takeGroup();
      if (tickets !== undefined) {
        await this.#startGroup(tickets);
        continue;
      }
      if (this.#pipeline.size === 0) return;
      await new Promise<void>((resolve) => {
        this.#wakeUp = resolve;
      });
    }
  }

  /**
   * Takes the tickets that make the next group, if the pipeline accepts one: it has room, and with a group in flight
   * at least `pipelinedAppendMinBytes` wait (fewer wait for the one in flight and merge into one group after it).
   */
  #takeGroup(): ProduceTicket[] | undefined {
    return this.#queue.take(
      this.#context,
      (topicId, bytes) =>
        this.#pipeline.accepts(this.#state, topicId, this.#context.maxInFlightAppends) &&
        (this.#pipeline.size === 0 || bytes() >= this.#context.pipelinedAppendMinBytes),
    );
  }

  /** Plans `tickets` against the projection and issues their append (without waiting for it). */
  async #startGroup(tickets: readonly ProduceTicket[]): Promise<void> {
    const topic = tickets[0]?.submission?.topic;
    if (topic === undefined) return;
    // With groups in flight, `#takeGroup` checked that the loaded state is theirs: no await, nothing can change.
    let state = this.#pipeline.size > 0 ? this.#state : undefined;
    if (state === undefined) {
      try {
        state = await this.#ensureLoaded(topic);
      } catch (error) {
        const mapped = mapStorageError(error);
        for (const ticket of tickets) ticket.complete(failedOutcome(mapped));
        return;
      }
    }
    if (state.fence !== undefined) {
      for (const ticket of tickets) {
        ticket.complete({
          kind: "failed",
          errorCode: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER,
          message: "the partition is recovering an uncertain append",
        });
      }
      return;
    }
    const plan = planAppendGroup(tickets, state, this.#pipeline, topic, this.#context.clock());
    for (let count = 0; count < plan.duplicates; count += 1) this.#context.events.duplicate();
    for (const answer of plan.answers) answer.ticket.complete(answer.outcome);
    if (plan.group !== undefined) this.#launch(plan.group);
  }

  /**
   * Issues the group's append right away, expecting it to start at the projected end, and handles its outcome
   * only after every group ahead of it has been handled (whatever order the appends resolve in).
   */
  #launch(group: Group): void {
    this.#pipeline.add(group);
    let append: Promise<AppendOutcome>;
    try {
      append = this.#context.store
        .append(
          group.state.streamId,
          { payloadFormat: "KAFKA_RECORD_BATCH", entries: group.entries, handOverPayloads: true },
          { expectedStartOffset: group.expectedStart, signal: this.#context.closing },
        )
        .then(
          (result): AppendOutcome => ({ ok: true, result }),
          (error: unknown): AppendOutcome => ({ ok: false, error }),
        );
    } catch (error) {
      append = Promise.resolve({ ok: false, error });
    }
    this.#settling = this.#settling
      .then(() => append)
      .then((outcome) => {
        try {
          this.#settleGroup(group, outcome);
        } catch (error) {
          this.#context.logger.error("settling an append failed", {
            topic: this.topicName,
            partition: this.partition,
            error: String(error),
          });
        } finally {
          this.#pipeline.settle(group);
          this.#wake();
        }
      });
  }

  #settleGroup(group: Group, outcome: AppendOutcome): void {
    const state = group.state;
    if (!outcome.ok) {
      const first = !this.#pipeline.broken;
      this.#pipeline.fail();
      this.#handleAppendFailure(group, outcome.error, first);
      return;
    }
    const { result } = outcome;
    if (result.startOffset !== group.expectedStart || result.endOffset !== group.end) {
      // Core guarantees the range; if it ever differs, the stored base offsets are wrong: reload, never guess.
      this.#context.logger.error("append committed an unexpected range", {
        streamId: state.streamId,
        expectedStart: group.expectedStart,
        expectedEnd: group.end,
        result,
      });
      this.#pipeline.fail();
      this.#drop(state);
      const failed: ProduceOutcome = {
        kind: "failed",
        errorCode: KafkaErrorCode.KAFKA_STORAGE_ERROR,
        message: "append committed an unexpected range",
      };
      for (const member of [...group.members, ...group.dependents]) member.ticket.complete(failed);
      return;
    }
    if (this.#pipeline.broken) {
      // A group ahead failed, yet this one committed at its planned offsets (only possible when the log end moved
      // to exactly where this group expected it). Its batches are stored where planned, so the answer is true, but
      // the committed state misses the failed group: reload it.
      this.#context.logger.warn("an append committed behind a failed one: reloading the partition", {
        topic: this.topicName,
        partition: this.partition,
        streamId: state.streamId,
      });
      this.#drop(this.#state?.streamId === state.streamId ? this.#state : state);
    } else {
      this.#commit(group);
    }
    for (const member of group.members)
      member.ticket.complete(appendedOutcome(member.baseOffset, state.logStartOffset, group.logAppendTimeMs));
    for (const dependent of group.dependents)
      dependent.ticket.complete(
        appendedOutcome(dependent.original.baseOffset, state.logStartOffset, group.logAppendTimeMs),
      );
  }

  /** Applies a committed group to the committed state (every group ahead of it has been applied). */
  #commit(group: Group): void {
    const state = group.state;
    let records = 0;
    let bytes = 0;
    // The tail cache takes the stored batches of the current state only (a dropped state's group is not its tail).
    const tailing = this.#tail.enabled && this.#state === state;
    group.entries.forEach((entry, index) => {
      const member = group.members[index];
      if (member === undefined) return;
      if (tailing)
        this.#tail.add(state.streamId, {
          offset: member.baseOffset,
          recordCount: entry.recordCount,
          payload: entry.payload,
        });
      state.timeIndex.observe({
        baseOffset: member.baseOffset,
        recordCount: entry.recordCount,
        maxTimestamp: group.logAppendTimeMs ?? member.ticket.submission?.header.maxTimestamp ?? -1,
        bytes: entry.payload.byteLength,
        producer: undefined,
      });
      records += entry.recordCount;
      bytes += entry.payload.byteLength;
    });
    for (const [producerId, entry] of group.overlay) state.producers.set(producerId, entry);
    state.highWatermark += records;
    state.batchesSinceCheckpoint += group.entries.length;
    this.#context.events.appended(group.entries.length, records, bytes);
    const interval = this.#context.checkpointIntervalBatches;
    if (interval > 0 && state.batchesSinceCheckpoint >= interval) this.#scheduleCheckpoint(state);
    this.#notify();
  }

  /**
   * `first`: the first failure since the pipeline was whole; later groups were planned behind it and are doomed
   * (their expected start no longer holds), so they answer a retriable error and leave the state to the first.
   * Uncertain failures, first or not, fence the partition until their attempt is resolved.
   */
  #handleAppendFailure(group: Group, error: unknown, first: boolean): void {
    const state = group.state;
    const mapped = mapStorageError(error);
    const attemptId = AppendFailedError.isAppendFailure(error) ? error.attemptId : undefined;
    if (mapped.action === "recover" && attemptId !== undefined) {
      this.#fenceUntilRecovered(group, attemptId, mapped.message);
      return;
    }
    let outcome: ProduceOutcome;
    if (first) {
      if (mapped.action !== "none") this.#drop(state);
      if (mapped.action === "offline") {
        this.#context.logger.error("partition storage error", {
          topic: this.topicName,
          partition: this.partition,
          error: mapped.message,
        });
      }
      outcome = failedOutcome(mapped, state.logStartOffset);
    } else {
      // The usual cause is OFFSET_CONFLICT (the group ahead did not commit); anything else says more about the log.
      if (mapped.action !== "none" && !NereusError.hasCode(error, ErrorCode.OFFSET_CONFLICT)) this.#drop(state);
      outcome = {
        kind: "failed",
        errorCode: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER,
        message: `an earlier append failed; ${mapped.message}`,
        logStartOffset: state.logStartOffset,
      };
    }
    for (const member of [...group.members, ...group.dependents]) member.ticket.complete(outcome);
  }

  /**
   * Fences the partition until `recoverAppend` resolves the group's attempt; its tickets wait for the verdict
   * (at most their timeout). The state is dropped and reloaded once every recovery of the state has ended.
   */
  #fenceUntilRecovered(group: Group, attemptId: string, message: string): void {
    const state = group.state;
    this.#context.events.fenced();
    this.#context.logger.warn("uncertain append: partition fenced until recovery", {
      topic: this.topicName,
      partition: this.partition,
      streamId: state.streamId,
      attemptId,
      error: message,
    });
    const verdict = recoverUncertainAppend(this.#context, state.streamId, attemptId).then(
      (result) =>
        result === undefined ? "not-committed" : result.startOffset === group.expectedStart ? "committed" : "unknown",
      () => "unknown",
    );
    const fence: Promise<void> = Promise.all([state.fence, verdict]).then(noop);
    state.fence = fence;
    // Tickets are answered after the fence came down (when no later recovery raised it again), so a client that
    // retries on the answer finds the partition writable.
    const lifted = fence.then(() => {
      if (state.fence !== fence) return;
      this.#drop(state);
      this.#drain();
    });
    const answer = lifted.then(() => verdict);
    for (const member of [
      ...group.members,
      ...group.dependents.map((dependent) => ({ ...dependent.original, ticket: dependent.ticket })),
    ]) {
      const timer = setTimeout(
        () => {
          member.ticket.complete({
            kind: "failed",
            errorCode: KafkaErrorCode.REQUEST_TIMED_OUT,
            message: "the append outcome is still being recovered",
          });
        },
        Math.max(0, member.timeoutMs),
      );
      timer.unref?.();
      void answer.then((resolved) => {
        clearTimeout(timer);
        member.ticket.complete(
          resolved === "committed"
            ? appendedOutcome(member.baseOffset, state.logStartOffset, group.logAppendTimeMs)
            : resolved === "not-committed"
              ? {
                  kind: "failed",
                  errorCode: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER,
                  message: "the append did not commit",
                  logStartOffset: state.logStartOffset,
                }
              : {
                  kind: "failed",
                  errorCode: KafkaErrorCode.REQUEST_TIMED_OUT,
                  message: "the append outcome could not be resolved",
                },
        );
      });
    }
  }

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

function noop(): void {
  return undefined;
}
