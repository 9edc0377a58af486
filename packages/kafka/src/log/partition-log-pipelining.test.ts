// Pipelined appends: several groups of one partition in flight at once, each expecting the end the ones ahead
// leave; the committed view advancing only in order; retries of in-flight batches; a failed group dooming the
// ones behind it (retriable answers, no gap, no duplicate); uncertain appends resolved exactly once; checkpoints
// of committed state only; maxInFlightAppends = 1 as one append at a time. Real in-memory StreamStore behind a
// wrapper that holds appends until released, plus a scripted store where resolution order matters.
import {
  type AppendBatch,
  AppendFailedError,
  type AppendOptions,
  type AppendResult,
  ErrorCode,
  GenerationZeroVisibleCoordinator,
  StableHeadCoordinator,
  type StreamHead,
  type StreamStore,
  type TxnRequest,
  createStreamStore,
  streamIdFromName,
} from "@nereus/core";
import { InMemoryMetadataStore, MemoryWalProvider, streamHeadFixture } from "@nereus/core/testing";
import { afterEach, describe, expect, test } from "vitest";
import { batchOf } from "../../test/broker-harness.js";
import { SILENT_LOGGER } from "../logging/broker-logger.js";
import { producerCheckpointCodec } from "../producers/producer-checkpoint-codec.js";
import { kafkaError, KafkaErrorCode } from "../protocol/error-codes.js";
import { readRecordBatchHeader } from "../protocol/records/record-batch-header.js";
import { KafkaKeyspace } from "../topics/kafka-keys.js";
import { type KafkaTopic, partitionStreamName } from "../topics/kafka-topic.js";
import { PartitionLogs, type PartitionLogsOptions } from "./partition-logs.js";
import type { ProduceOutcome } from "./produce-ticket.js";

const topic: KafkaTopic = {
  name: "t",
  topicId: "11111111-2222-4333-8444-555555555555",
  state: "ACTIVE",
  partitionCount: 1,
  profile: "OBJECT_WAL_SYNC_OBJECT",
  configs: {},
  createdAtMillis: 0,
};
const streamId = streamIdFromName(partitionStreamName(topic.topicId, 0));
const keyspace = new KafkaKeyspace("c");
const PRODUCER = 7n;

const isHeadCommit = (request: unknown): boolean =>
  (request as TxnRequest).writes.some((write) => write.type === "put" && write.key.endsWith("/head")) &&
  (request as TxnRequest).compares.length > 0;

/** Lets queued promise callbacks run (used only to show that something did NOT happen). */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface HeldCall {
  readonly expectedStartOffset: number | undefined;
  readonly entries: number;
  readonly release: () => void;
}

/** Wraps a store so that every append waits until released; counts appends called and not yet answered. */
class HeldAppends {
  readonly calls: HeldCall[] = [];
  #holding = true;
  outstanding = 0;
  maxOutstanding = 0;
  #waiters: Array<{ readonly count: number; readonly resolve: () => void }> = [];

  wrap(inner: StreamStore): StreamStore {
    const append = async (id: string, batch: AppendBatch, options?: AppendOptions): Promise<AppendResult> => {
      this.outstanding += 1;
      this.maxOutstanding = Math.max(this.maxOutstanding, this.outstanding);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      this.calls.push({ expectedStartOffset: options?.expectedStartOffset, entries: batch.entries.length, release });
      this.#waiters = this.#waiters.filter((waiter) =>
        waiter.count <= this.calls.length ? (waiter.resolve(), false) : true,
      );
      if (!this.#holding) release();
      try {
        await gate;
        return await inner.append(id, batch, options);
      } finally {
        this.outstanding -= 1;
      }
    };
    return new Proxy(inner, {
      get: (target, property) => {
        if (property === "append") return append;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  /** Resolves once `count` appends have been called. */
  called(count: number): Promise<void> {
    if (this.calls.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  /** Releases every held append and lets later ones through. */
  releaseAll(): void {
    this.#holding = false;
    for (const call of this.calls) call.release();
  }
}

interface Setup {
  readonly metadata: InMemoryMetadataStore;
  readonly store: StreamStore;
  readonly held: HeldAppends;
  readonly logs: PartitionLogs;
  readonly counts: { duplicates: number; fences: number };
}

let opened: { logs: PartitionLogs; held: HeldAppends; store: StreamStore; closing: AbortController } | undefined;
afterEach(async () => {
  if (opened === undefined) return;
  const { logs, held, store, closing } = opened;
  opened = undefined;
  held.releaseAll();
  await logs.close();
  closing.abort();
  await store.close();
});

async function setup(
  tuning: Partial<PartitionLogsOptions> = {},
  storeOptions: { autoRecovery?: false } = {},
): Promise<Setup> {
  const metadata = new InMemoryMetadataStore();
  const wal = new MemoryWalProvider({ walKind: "OBJECT" });
  const store = createStreamStore({
    metadata,
    cluster: "c",
    writerId: "pipelining-test",
    walWriters: [wal],
    walReaders: [wal],
    completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator()],
    ...storeOptions,
  });
  await store.createStream(partitionStreamName(topic.topicId, 0), { profile: topic.profile });
  const held = new HeldAppends();
  const closing = new AbortController();
  const counts = { duplicates: 0, fences: 0 };
  const logs = new PartitionLogs({
    store: held.wrap(store),
    metadata,
    keyspace,
    logger: SILENT_LOGGER,
    clock: Date.now,
    closing: closing.signal,
    events: {
      appended: () => undefined,
      duplicate: () => (counts.duplicates += 1),
      fenced: () => (counts.fences += 1),
      loaded: () => undefined,
      fetchRead: () => undefined,
    },
    ...tuning,
  });
  opened = { logs, held, store, closing };
  return { metadata, store, held, logs, counts };
}

function produce(logs: PartitionLogs, values: readonly string[], sequence?: number): Promise<ProduceOutcome> {
  const batch =
    sequence === undefined
      ? batchOf(values)
      : batchOf(values, { producerId: PRODUCER, producerEpoch: 0, baseSequence: sequence });
  return logs.reserve("t", 0).submit({ topic, batch, header: readRecordBatchHeader(batch), timeoutMs: 5_000 });
}

/** Tracks whether a promise has settled. */
function watch<T>(promise: Promise<T>): { readonly settled: () => boolean } {
  let settled = false;
  void promise.then(() => (settled = true));
  return { settled: () => settled };
}

/** The stored batches in offset order: [offset, record count, base sequence]. */
async function stored(store: StreamStore): Promise<Array<[number, number, number]>> {
  const result = await store.read(streamId, 0, { maxBytes: 1 << 24, maxRecords: 0x7fff_ffff });
  return result.entries.map((entry) => [
    entry.offset,
    entry.recordCount,
    readRecordBatchHeader(entry.payload).baseSequence,
  ]);
}

const baseOffsetOf = (outcome: ProduceOutcome): number =>
  outcome.kind === "appended" ? outcome.baseOffset : Number.NaN;

describe("pipelined appends (real store)", () => {
  test("up to maxInFlightAppends appends are outstanding, each expecting the end the ones ahead leave; the high watermark follows commits", async () => {
    const { held, logs, store } = await setup({ maxInFlightAppends: 4 });
    const log = logs.get("t", 0);
    const a = produce(logs, ["a1", "a2"]);
    await held.called(1);
    const b = produce(logs, ["b1"]);
    await held.called(2);
    const c = produce(logs, ["c1", "c2", "c3"]);
    await held.called(3);
    const d = produce(logs, ["d1"]);
    await held.called(4);
    const e = produce(logs, ["e1"]);
    const f = produce(logs, ["f1", "f2"]);
    await turn();
    expect(held.calls.map((call) => call.expectedStartOffset)).toEqual([0, 2, 3, 6]);
    expect(held.outstanding).toBe(4);
    expect((await log.view(topic)).highWatermark).toBe(0);

    held.calls[0]?.release();
    expect(await a).toMatchObject({ kind: "appended", baseOffset: 0 });
    expect((await log.view(topic)).highWatermark).toBe(2);
    // The freed place goes to the batches that waited, merged into one group.
    await held.called(5);
    expect(held.calls[4]).toMatchObject({ expectedStartOffset: 7, entries: 2 });

    held.releaseAll();
    expect((await Promise.all([b, c, d, e, f])).map(baseOffsetOf)).toEqual([2, 3, 6, 7, 8]);
    expect((await log.view(topic)).highWatermark).toBe(10);
    expect((await stored(store)).map(([offset, records]) => [offset, records])).toEqual([
      [0, 2],
      [2, 1],
      [3, 3],
      [6, 1],
      [7, 1],
      [8, 2],
    ]);
    expect(held.maxOutstanding).toBe(4);
  });

  test("maxInFlightAppends = 1: one append at a time, batches submitted meanwhile merged into the next", async () => {
    const { held, logs, store } = await setup({ maxInFlightAppends: 1 });
    const a = produce(logs, ["a1", "a2"]);
    await held.called(1);
    const b = produce(logs, ["b1"]);
    const c = produce(logs, ["c1"]);
    await turn();
    expect(held.calls).toHaveLength(1);
    held.calls[0]?.release();
    await held.called(2);
    expect(held.calls[1]).toMatchObject({ expectedStartOffset: 2, entries: 2 });
    held.releaseAll();
    expect((await Promise.all([a, b, c])).map(baseOffsetOf)).toEqual([0, 2, 3]);
    expect(held.maxOutstanding).toBe(1);
    expect((await stored(store)).map(([offset]) => offset)).toEqual([0, 2, 3]);
  });

  test("pipelinedAppendMinBytes: a second append starts beside the one in flight only once that many bytes wait", async () => {
    const minBytes = batchOf(["b1"]).byteLength + batchOf(["c1"]).byteLength;
    const { held, logs, store } = await setup({ maxInFlightAppends: 2, pipelinedAppendMinBytes: minBytes });
    const a = produce(logs, ["a1", "a2"]);
    await held.called(1);
    const b = produce(logs, ["b1"]);
    await turn();
    // One batch waits, fewer bytes than the minimum: no second append yet.
    expect(held.calls).toHaveLength(1);
    const c = produce(logs, ["c1"]);
    await held.called(2);
    expect(held.calls[1]).toMatchObject({ expectedStartOffset: 2, entries: 2 });
    const d = produce(logs, ["d1"]);
    await turn();
    expect(held.calls).toHaveLength(2);
    held.calls[0]?.release();
    expect(await a).toMatchObject({ kind: "appended", baseOffset: 0 });
    await turn();
    // A place is free, but `d` alone is below the minimum while the b+c append is in flight: it waits for it.
    expect(held.calls).toHaveLength(2);
    held.calls[1]?.release();
    await held.called(3);
    expect(held.calls[2]).toMatchObject({ expectedStartOffset: 4, entries: 1 });
    held.releaseAll();
    expect((await Promise.all([b, c, d])).map(baseOffsetOf)).toEqual([2, 3, 4]);
    expect(held.maxOutstanding).toBe(2);
    expect((await stored(store)).map(([offset]) => offset)).toEqual([0, 2, 3, 4]);
  });

  test("pipelinedAppendMinBytes must be a non-negative integer", async () => {
    await expect(setup({ pipelinedAppendMinBytes: -1 })).rejects.toThrow(
      "pipelinedAppendMinBytes must be a non-negative integer, got -1",
    );
  });

  test("a retry of a batch still in flight waits for it and gets its offset; nothing is appended twice", async () => {
    const { held, logs, store, counts } = await setup({ maxInFlightAppends: 4 });
    const first = produce(logs, ["a", "b"], 0);
    await held.called(1);
    const second = produce(logs, ["c"], 2);
    await held.called(2);
    const retryFirst = produce(logs, ["a", "b"], 0);
    const retrySecond = produce(logs, ["c"], 2);
    const waiting = watch(retryFirst);
    await turn();
    expect(held.calls).toHaveLength(2);
    expect(waiting.settled()).toBe(false);
    expect(counts.duplicates).toBe(2);
    held.releaseAll();
    expect((await Promise.all([first, second, retryFirst, retrySecond])).map(baseOffsetOf)).toEqual([0, 2, 0, 2]);
    expect(await produce(logs, ["d"], 3)).toMatchObject({ kind: "appended", baseOffset: 3 });
    expect(await stored(store)).toEqual([
      [0, 2, 0],
      [2, 1, 2],
      [3, 1, 3],
    ]);
  });

  test("a group that did not commit fails every group behind it with retriable errors; later batches continue at the committed end", async () => {
    const { held, logs, metadata, store } = await setup({ maxInFlightAppends: 2 });
    const a = produce(logs, ["a"], 0);
    await held.called(1);
    held.calls[0]?.release();
    expect(await a).toMatchObject({ kind: "appended", baseOffset: 0 });
    const b = produce(logs, ["b"], 1);
    await held.called(2);
    const retryB = produce(logs, ["b"], 1);
    const c = produce(logs, ["c"], 2);
    await held.called(3);
    // No place in the pipeline: waits, and must not be planned behind the groups that are about to fail.
    const plain = produce(logs, ["plain"]);
    await turn();
    expect(held.calls.map((call) => call.expectedStartOffset)).toEqual([0, 1, 2]);

    metadata.faults.add({ op: "txn", mode: "fail-before-apply", when: isHeadCommit });
    held.releaseAll();
    const failed = await Promise.all([b, c, retryB]);
    for (const outcome of failed) {
      expect(outcome.kind).toBe("failed");
      expect(outcome.kind === "failed" && kafkaError(outcome.errorCode).retriable).toBe(true);
    }
    expect(failed[1]).toMatchObject({ errorCode: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER });
    expect(failed[2]).toEqual(failed[0]);
    expect(await plain).toMatchObject({ kind: "appended", baseOffset: 1 });
    // The client retries what failed, in order.
    expect(await produce(logs, ["b"], 1)).toMatchObject({ kind: "appended", baseOffset: 2 });
    expect(await produce(logs, ["c"], 2)).toMatchObject({ kind: "appended", baseOffset: 3 });
    expect((await stored(store)).map(([offset, , sequence]) => [offset, sequence])).toEqual([
      [0, 0],
      [1, -1],
      [2, 1],
      [3, 2],
    ]);
  });

  test.each([1, 2])(
    "an uncertain head commit (#%i) among several appends in flight: recovered, every batch stored exactly once at the offset it was answered with",
    async (uncertainCommit) => {
      const { held, logs, metadata, store, counts } = await setup({ maxInFlightAppends: 4 }, { autoRecovery: false });
      const sequences = [0, 1, 2, 3];
      const answers = new Map<number, number>();
      let pending: Array<{ sequence: number; outcome: Promise<ProduceOutcome> }> = [];
      for (const sequence of sequences) {
        pending.push({ sequence, outcome: produce(logs, [`v${String(sequence)}`], sequence) });
        await held.called(sequence + 1);
      }
      expect(held.calls.map((call) => call.expectedStartOffset)).toEqual([0, 1, 2, 3]);
      let headCommits = 0;
      metadata.faults.add({
        op: "txn",
        mode: "apply-then-lose-response",
        when: (request) => isHeadCommit(request) && (headCommits += 1) === uncertainCommit,
      });
      held.releaseAll();
      for (let round = 0; pending.length > 0; round += 1) {
        expect(round).toBeLessThan(1_000);
        const failedSequences: number[] = [];
        for (const { sequence, outcome } of pending) {
          const answered = await outcome;
          if (answered.kind === "appended") answers.set(sequence, answered.baseOffset);
          else {
            expect(kafkaError(answered.errorCode).retriable).toBe(true);
            failedSequences.push(sequence);
          }
        }
        // A client backs off and retries; while the partition is fenced it would only be refused again.
        while (logs.fencedCount > 0) await turn();
        pending = failedSequences.map((sequence) => ({
          sequence,
          outcome: produce(logs, [`v${String(sequence)}`], sequence),
        }));
      }
      expect(counts.fences).toBeGreaterThanOrEqual(1);
      expect(await stored(store)).toEqual(sequences.map((sequence) => [answers.get(sequence), 1, sequence]));
      expect([...answers.values()].sort()).toEqual([0, 1, 2, 3]);
    },
  );

  test("checkpoints hold committed state only, never the groups still in flight", async () => {
    const { held, logs, metadata } = await setup({ maxInFlightAppends: 4, checkpointIntervalBatches: 1 });
    const log = logs.get("t", 0);
    const first = produce(logs, ["a"], 0);
    await held.called(1);
    const second = produce(logs, ["b", "c"], 1);
    await held.called(2);
    held.calls[0]?.release();
    await first;
    await log.flushCheckpoint();
    const codec = producerCheckpointCodec(keyspace);
    const read = async () => {
      const value = await metadata.get(keyspace.producerStateKey(streamId));
      if (value === undefined) throw new Error("no checkpoint");
      return codec.decode(value.value, value.key);
    };
    const atFirst = await read();
    expect(atFirst.endOffset).toBe(1);
    expect(atFirst.producers.map((producer) => producer.batches.map((batch) => batch.lastSequence))).toEqual([[0]]);
    held.releaseAll();
    await second;
    await log.flushCheckpoint();
    const atSecond = await read();
    expect(atSecond.endOffset).toBe(3);
    expect(atSecond.producers.map((producer) => producer.batches.map((batch) => batch.lastSequence))).toEqual([[0, 2]]);
  });

  test("settled() waits for every append in flight", async () => {
    const { held, logs } = await setup({ maxInFlightAppends: 4 });
    const log = logs.get("t", 0);
    const a = produce(logs, ["a"]);
    await held.called(1);
    const b = produce(logs, ["b"]);
    await held.called(2);
    const settled = log.settled();
    const settling = watch(settled);
    await turn();
    expect(settling.settled()).toBe(false);
    const answered = watch(Promise.all([a, b]));
    held.releaseAll();
    await settled;
    expect(answered.settled()).toBe(true);
    expect((await Promise.all([a, b])).map(baseOffsetOf)).toEqual([0, 1]);
  });
});

/** A stream store whose appends answer when the test says so. */
class DeferredStore {
  readonly head: StreamHead = streamHeadFixture();
  heads = 0;
  readonly appends: Array<{
    readonly expectedStartOffset: number | undefined;
    resolve: (result: AppendResult) => void;
    reject: (error: unknown) => void;
  }> = [];
  readonly recoveries: Array<() => Promise<AppendResult>> = [];
  #waiters: Array<() => void> = [];

  getHead(): Promise<StreamHead> {
    this.heads += 1;
    return Promise.resolve(this.head);
  }

  read(id: string, offset: number) {
    return Promise.resolve({
      streamId: id,
      requestedOffset: offset,
      entries: [],
      nextOffset: offset,
      endOfStream: true,
      committedEndOffset: this.head.committedEndOffset,
    });
  }

  append(_id: string, _batch: AppendBatch, options?: AppendOptions): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      this.appends.push({ expectedStartOffset: options?.expectedStartOffset, resolve, reject });
      for (const waiter of this.#waiters.splice(0)) waiter();
    });
  }

  recoverAppend(): Promise<AppendResult> {
    const next = this.recoveries.shift();
    if (next === undefined) return new Promise(() => undefined);
    return next();
  }

  async called(count: number): Promise<void> {
    while (this.appends.length < count) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }
}

describe("pipelined appends (scripted outcomes)", () => {
  function logsOver(
    store: DeferredStore,
    maxInFlightAppends: number,
  ): { logs: PartitionLogs; closing: AbortController } {
    const closing = new AbortController();
    const logs = new PartitionLogs({
      store: store as unknown as StreamStore,
      metadata: new InMemoryMetadataStore(),
      keyspace,
      logger: SILENT_LOGGER,
      clock: Date.now,
      closing: closing.signal,
      events: {
        appended: () => undefined,
        duplicate: () => undefined,
        fenced: () => undefined,
        loaded: () => undefined,
        fetchRead: () => undefined,
      },
      maxInFlightAppends,
    });
    return { logs, closing };
  }

  test("an append answered before the one ahead of it is applied only after that one", async () => {
    const store = new DeferredStore();
    const { logs, closing } = logsOver(store, 4);
    const log = logs.get("t", 0);
    const a = produce(logs, ["a1", "a2"]);
    await store.called(1);
    const b = produce(logs, ["b"]);
    await store.called(2);
    expect(store.appends.map((append) => append.expectedStartOffset)).toEqual([0, 2]);
    store.appends[1]?.resolve({ startOffset: 2, endOffset: 3 } as AppendResult);
    const second = watch(b);
    await turn();
    expect(second.settled()).toBe(false);
    expect((await log.view(topic)).highWatermark).toBe(0);
    store.appends[0]?.resolve({ startOffset: 0, endOffset: 2 } as AppendResult);
    expect((await Promise.all([a, b])).map(baseOffsetOf)).toEqual([0, 2]);
    expect((await log.view(topic)).highWatermark).toBe(3);
    closing.abort();
  });

  test("an uncertain append fences the partition; the groups behind it fail as not committed; recovery answers it", async () => {
    const store = new DeferredStore();
    const { logs, closing } = logsOver(store, 2);
    let recovered!: () => void;
    const recoveryGate = new Promise<void>((resolve) => (recovered = resolve));
    store.recoveries.push(async () => {
      await recoveryGate;
      return { startOffset: 0, endOffset: 1 } as AppendResult;
    });
    const uncertain = produce(logs, ["a"]);
    await store.called(1);
    const behind = produce(logs, ["b"]);
    await store.called(2);
    const waiting = produce(logs, ["c"]);
    store.appends[0]?.reject(new AppendFailedError(ErrorCode.TIMEOUT, "lost", "MAY_HAVE_COMMITTED", "run/1"));
    store.appends[1]?.reject(
      new AppendFailedError(ErrorCode.OFFSET_CONFLICT, "expected 1, end is 0", "KNOWN_NOT_COMMITTED", undefined),
    );
    expect(await behind).toMatchObject({ kind: "failed", errorCode: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER });
    // Submitted before the failure, planned after it: refused while the partition is fenced, never appended.
    expect(await waiting).toMatchObject({ kind: "failed", errorCode: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER });
    expect(logs.fencedCount).toBe(1);
    expect(store.appends).toHaveLength(2);
    const headsBefore = store.heads;
    recovered();
    expect(await uncertain).toMatchObject({ kind: "appended", baseOffset: 0 });
    expect(logs.fencedCount).toBe(0);
    (store.head as { committedEndOffset: number }).committedEndOffset = 1;
    const after = produce(logs, ["d"]);
    await store.called(3);
    expect(store.appends[2]?.expectedStartOffset).toBe(1);
    expect(store.heads).toBe(headsBefore + 1);
    store.appends[2]?.resolve({ startOffset: 1, endOffset: 2 } as AppendResult);
    expect(await after).toMatchObject({ kind: "appended", baseOffset: 1 });
    closing.abort();
  });
});
