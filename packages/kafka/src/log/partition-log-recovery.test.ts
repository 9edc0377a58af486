// Uncertain appends: the partition is fenced until recoverAppend resolves the attempt, the waiting request gets
// the truth (its original offsets, or a retriable error when nothing committed), and nothing is ever appended
// twice. Real StreamStore with injected metadata and step faults, plus a scripted store for the outcomes the
// in-memory providers cannot produce on demand.
import {
  AppendFailedError,
  type AppendResult,
  ErrorCode,
  NereusError,
  type StreamHead,
  type StreamStore,
  type TxnRequest,
  streamIdFromName,
} from "@nereus/core";
import { InMemoryMetadataStore, streamHeadFixture } from "@nereus/core/testing";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, batchOf } from "../../test/broker-harness.js";
import { SILENT_LOGGER } from "../logging/broker-logger.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import { readRecordBatchHeader } from "../protocol/records/record-batch-header.js";
import { splitRecordBatches } from "../protocol/records/split-record-batches.js";
import { KafkaKeyspace } from "../topics/kafka-keys.js";
import { type KafkaTopic, partitionStreamName } from "../topics/kafka-topic.js";
import { PartitionLogs } from "./partition-logs.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const isHeadCommit = (request: unknown): boolean =>
  (request as TxnRequest).writes.some((write) => write.type === "put" && write.key.endsWith("/head")) &&
  (request as TxnRequest).compares.length > 0;

async function offsetsOf(client: ReturnType<BrokerHarness["connect"]>, topic: string): Promise<number[]> {
  const fetched = await client.fetch(topic, 0, 0);
  return splitRecordBatches(fetched?.records ?? new Uint8Array()).batches.map(
    (batch) => readRecordBatchHeader(batch).baseOffset,
  );
}

describe("uncertain appends (real store)", () => {
  test("a head commit whose response was lost: the request waits for recovery and gets its original offset, once", async () => {
    harness = new BrokerHarness({}, { autoRecovery: false });
    const client = harness.connect();
    await client.createTopic("lost");
    expect(await client.produce("lost", 0, batchOf(["warm"]))).toMatchObject({ errorCode: 0, baseOffset: 0 });
    harness.metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", when: isHeadCommit });
    expect(await client.produce("lost", 0, batchOf(["uncertain", "pair"]))).toMatchObject({
      errorCode: 0,
      baseOffset: 1,
    });
    expect(await client.produce("lost", 0, batchOf(["after"]))).toMatchObject({ errorCode: 0, baseOffset: 3 });
    expect(await offsetsOf(client, "lost")).toEqual([0, 1, 3]);
    expect(harness.events.some((event) => event.message === "uncertain append: partition fenced until recovery")).toBe(
      true,
    );
    expect(
      harness.broker.metrics.collect().find((family) => family.name === "nereus_kafka_partition_fences_total")
        ?.samples[0]?.value,
    ).toBe(1);
  });

  test("KNOWN_COMMITTED (a step after the head commit failed): recovered and answered as success", async () => {
    let failOnce = true;
    harness = new BrokerHarness(
      {},
      {
        stepHooks: {
          afterHeadCommit: () => {
            if (!failOnce) return;
            failOnce = false;
            throw new NereusError(ErrorCode.METADATA_UNAVAILABLE, "injected after the head commit");
          },
        },
      },
    );
    const client = harness.connect();
    await client.createTopic("known");
    expect(await client.produce("known", 0, batchOf(["a"]))).toMatchObject({ errorCode: 0, baseOffset: 0 });
    expect(await client.produce("known", 0, batchOf(["b"]))).toMatchObject({ errorCode: 0, baseOffset: 1 });
    expect(await offsetsOf(client, "known")).toEqual([0, 1]);
  });

  test("an append that provably did not commit leaves the partition writable at the same end", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("refused");
    await client.produce("refused", 0, batchOf(["a"]));
    harness.metadata.faults.add({ op: "txn", mode: "fail-before-apply", when: isHeadCommit });
    const refused = await client.produce("refused", 0, batchOf(["b"]));
    expect(refused?.errorCode).toBe(KafkaErrorCode.KAFKA_STORAGE_ERROR);
    expect(await client.produce("refused", 0, batchOf(["c"]))).toMatchObject({ errorCode: 0, baseOffset: 1 });
    expect(await offsetsOf(client, "refused")).toEqual([0, 1]);
  });

  test("another writer moved the log end: NOT_LEADER_OR_FOLLOWER, then the partition reloads and goes on", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    const created = await client.createTopic("shared");
    await client.produce("shared", 0, batchOf(["a"]));
    const streamId = streamIdFromName(partitionStreamName(created.topics[0]?.topicId ?? "", 0));
    const foreign = batchOf(["foreign"]);
    new DataView(foreign.buffer).setBigInt64(0, 1n);
    await harness.store.append(
      streamId,
      { payloadFormat: "KAFKA_RECORD_BATCH", entries: [{ payload: foreign, recordCount: 1 }] },
      { expectedStartOffset: 1 },
    );
    expect(await client.produce("shared", 0, batchOf(["b"]), { version: 10 })).toMatchObject({
      errorCode: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER,
      currentLeader: { leaderId: 1, leaderEpoch: 0 },
    });
    expect(await client.produce("shared", 0, batchOf(["b"]))).toMatchObject({ errorCode: 0, baseOffset: 2 });
  });
});

/** A stream store whose append and recovery outcomes are scripted. */
class ScriptedStore {
  head: StreamHead = streamHeadFixture();
  heads = 0;
  appends: Array<() => Promise<AppendResult>> = [];
  recoveries: Array<() => Promise<AppendResult>> = [];

  getHead(): Promise<StreamHead> {
    this.heads += 1;
    return Promise.resolve(this.head);
  }

  read(
    streamId: string,
    offset: number,
  ): Promise<{
    entries: never[];
    nextOffset: number;
    endOfStream: boolean;
    committedEndOffset: number;
    streamId: string;
    requestedOffset: number;
  }> {
    return Promise.resolve({
      streamId,
      requestedOffset: offset,
      entries: [],
      nextOffset: offset,
      endOfStream: true,
      committedEndOffset: this.head.committedEndOffset,
    });
  }

  append(): Promise<AppendResult> {
    const next = this.appends.shift();
    if (next === undefined) throw new Error("unexpected append");
    return next();
  }

  recoverAppend(): Promise<AppendResult> {
    const next = this.recoveries.shift();
    if (next === undefined) return new Promise(() => undefined);
    return next();
  }
}

describe("uncertain appends (scripted outcomes)", () => {
  const topic: KafkaTopic = {
    name: "t",
    topicId: "11111111-2222-4333-8444-555555555555",
    state: "ACTIVE",
    partitionCount: 1,
    profile: "OBJECT_WAL_SYNC_OBJECT",
    configs: {},
    createdAtMillis: 0,
  };

  function logsOver(store: ScriptedStore): { logs: PartitionLogs; closing: AbortController } {
    const closing = new AbortController();
    const logs = new PartitionLogs({
      store: store as unknown as StreamStore,
      metadata: new InMemoryMetadataStore(),
      keyspace: new KafkaKeyspace("c"),
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
    });
    return { logs, closing };
  }

  const submit = (logs: PartitionLogs, timeoutMs = 5_000) => {
    const batch = batchOf(["x"]);
    return logs.reserve("t", 0).submit({ topic, batch, header: readRecordBatchHeader(batch), timeoutMs });
  };

  test("MAY_HAVE_COMMITTED that recovery proves absent: fenced meanwhile, then NOT_LEADER_OR_FOLLOWER, reload, writable", async () => {
    const store = new ScriptedStore();
    const { logs, closing } = logsOver(store);
    let recovered!: () => void;
    const recoveryGate = new Promise<void>((resolve) => (recovered = resolve));
    store.appends.push(() =>
      Promise.reject(new AppendFailedError(ErrorCode.TIMEOUT, "lost", "MAY_HAVE_COMMITTED", "run/1")),
    );
    store.recoveries.push(
      () => Promise.reject(new AppendFailedError(ErrorCode.TIMEOUT, "still unknown", "MAY_HAVE_COMMITTED", "run/1")),
      async () => {
        await recoveryGate;
        throw new AppendFailedError(ErrorCode.METADATA_UNAVAILABLE, "absent", "KNOWN_NOT_COMMITTED", undefined);
      },
    );
    const uncertain = submit(logs);
    while (logs.fencedCount === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(await submit(logs)).toMatchObject({ kind: "failed", errorCode: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER });
    const headsBefore = store.heads;
    recovered();
    expect(await uncertain).toMatchObject({
      kind: "failed",
      errorCode: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER,
      message: "the append did not commit",
    });
    store.appends.push(() => Promise.resolve({ startOffset: 0, endOffset: 1 } as AppendResult));
    expect(await submit(logs)).toMatchObject({ kind: "appended", baseOffset: 0 });
    expect(store.heads).toBe(headsBefore + 1);
    expect(logs.fencedCount).toBe(0);
    closing.abort();
  });

  test("a recovery slower than the request's timeout answers REQUEST_TIMED_OUT; the fence stays until it resolves", async () => {
    const store = new ScriptedStore();
    const { logs, closing } = logsOver(store);
    store.appends.push(() =>
      Promise.reject(new AppendFailedError(ErrorCode.TIMEOUT, "lost", "MAY_HAVE_COMMITTED", "run/2")),
    );
    expect(await submit(logs, 20)).toMatchObject({ kind: "failed", errorCode: KafkaErrorCode.REQUEST_TIMED_OUT });
    expect(logs.fencedCount).toBe(1);
    expect(await submit(logs)).toMatchObject({ kind: "failed", errorCode: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER });
    closing.abort();
  });
});
