import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, type FetchOptions, type TestClient, batchOf, fetchBody } from "../../../test/broker-harness.js";
import { decodeResponse, encodeRequest } from "../../protocol/encode-request.js";
import type { RequestBody } from "../../protocol/supported-apis.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { decodeRecordBatch } from "../../protocol/records/decode-record-batch.js";
import { splitRecordBatches } from "../../protocol/records/split-record-batches.js";
import { type RecordParts, recordBytes } from "../../protocol/primitives/record-parts.js";
import { partitionStreamName } from "../../topics/kafka-topic.js";
import { streamIdFromName } from "@nereus/core";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  expect(harness?.errors() ?? []).toEqual([]);
  await harness?.close();
  harness = undefined;
});

function open(options: ConstructorParameters<typeof BrokerHarness>[0] = {}): BrokerHarness {
  harness = new BrokerHarness(options);
  return harness;
}

const baseOffsets = (records: Uint8Array | RecordParts | null | undefined): number[] =>
  splitRecordBatches(recordBytes(records ?? new Uint8Array())).batches.map(
    (batch) => decodeRecordBatch(batch).header.baseOffset,
  );

describe("Fetch", () => {
  test("a fetch offset inside a batch returns that whole batch; the end of the log is empty; beyond it is out of range", async () => {
    const client = open().connect();
    await client.createTopic("t");
    await client.produce("t", 0, batchOf(["a", "b", "c"]));
    await client.produce("t", 0, batchOf(["d"]));
    expect(baseOffsets((await client.fetch("t", 0, 1))?.records)).toEqual([0, 3]);
    expect(baseOffsets((await client.fetch("t", 0, 3))?.records)).toEqual([3]);
    expect(await client.fetch("t", 0, 4)).toMatchObject({ errorCode: 0, highWatermark: 4, records: new Uint8Array() });
    expect(await client.fetch("t", 0, 5)).toMatchObject({
      errorCode: KafkaErrorCode.OFFSET_OUT_OF_RANGE,
      highWatermark: 4,
      logStartOffset: 0,
    });
    expect(await client.fetch("missing", 0, 0, { maxWaitMs: 10_000 })).toMatchObject({
      errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    });
    expect(await client.fetch("t", 1, 0)).toMatchObject({ errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
  });

  test("offsets below the log start (the trim offset) are out of range", async () => {
    const broker = open();
    const client = broker.connect();
    const created = await client.createTopic("trimmed");
    for (let index = 0; index < 3; index += 1) await client.produce("trimmed", 0, batchOf(["x", "y"]));
    const topicId = created.topics[0]?.topicId ?? "";
    await broker.store.trim(streamIdFromName(partitionStreamName(topicId, 0)), 2);
    await broker.restart();
    const again = broker.connect();
    expect(await again.fetch("trimmed", 0, 0)).toMatchObject({
      errorCode: KafkaErrorCode.OFFSET_OUT_OF_RANGE,
      logStartOffset: 2,
      highWatermark: 6,
    });
    expect(baseOffsets((await again.fetch("trimmed", 0, 2))?.records)).toEqual([2, 4]);
    expect(await again.listOffset("trimmed", 0, -2)).toMatchObject({ offset: 2 });
  });

  test("a consumer at the log end is served from the tail cache, exactly the stored batches; it is bounded and dropped with the topic", async () => {
    const broker = open({ partitionLogs: { tailCacheBytes: 8 * 1024 } });
    const client = broker.connect();
    await client.createTopic("tail");
    const metric = (name: string): number =>
      broker.broker.metrics.collect().find((family) => family.name === name)?.samples[0]?.value ?? -1;
    const batch = batchOf(["z".repeat(1000)]);
    for (let index = 0; index < 12; index += 1) await client.produce("tail", 0, batch);
    // About 1 KiB per batch: the newest seven fit in 8 KiB, the older ones come from storage.
    const fromTail = await client.fetch("tail", 0, 10);
    expect(baseOffsets(fromTail?.records)).toEqual([10, 11]);
    expect(metric("nereus_kafka_fetch_tail_hits_total")).toBe(1);
    expect(metric("nereus_kafka_fetch_storage_reads_total")).toBe(0);
    const fromStorage = await client.fetch("tail", 0, 0, { partitionMaxBytes: batch.length });
    expect(baseOffsets(fromStorage?.records)).toEqual([0]);
    expect(metric("nereus_kafka_fetch_storage_reads_total")).toBe(1);
    // The same bytes as storage has: a restart empties the cache, and the read goes to storage.
    await broker.restart();
    const again = broker.connect();
    const stored = await again.fetch("tail", 0, 10);
    expect(stored?.records).toEqual(fromTail?.records);
    // A long poll woken by an append is served from the tail cache.
    const waiting = again.fetch("tail", 0, 12, { maxWaitMs: 5_000, minBytes: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await again.produce("tail", 0, batch);
    expect(baseOffsets((await waiting)?.records)).toEqual([12]);
    expect(metric("nereus_kafka_fetch_tail_hits_total")).toBe(1);
    expect(metric("nereus_kafka_tail_cache_bytes")).toBeGreaterThan(0);
    expect(
      (await again.request(20, 5, { topics: [], topicNames: ["tail"], timeoutMs: 1000 })).responses[0]?.errorCode,
    ).toBe(0);
    expect(metric("nereus_kafka_tail_cache_bytes")).toBe(0);
  });

  test("a consumer reading in order is served from the read-ahead buffer; the metrics count hits and storage reads", async () => {
    // No tail cache: these twelve batches would all be in it.
    const broker = open({ partitionLogs: { tailCacheBytes: 0 } });
    const client = broker.connect();
    await client.createTopic("seq");
    const batch = batchOf(["y".repeat(1000)]);
    for (let index = 0; index < 12; index += 1) await client.produce("seq", 0, batch);
    const metric = (name: string): number =>
      broker.broker.metrics.collect().find((family) => family.name === name)?.samples[0]?.value ?? -1;
    // Budgets of two batches: the first read goes to storage and reads the next two budgets ahead.
    const budget = batch.length * 2 + 10;
    let offset = 0;
    const seen: number[] = [];
    while (offset < 12) {
      const offsets = baseOffsets((await client.fetch("seq", 0, offset, { partitionMaxBytes: budget }))?.records);
      expect(offsets.length).toBeGreaterThan(0);
      seen.push(...offsets);
      offset = (offsets.at(-1) ?? 0) + 1;
      // Let the background read-ahead top the buffer up (it starts on the next turn).
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(seen).toEqual([...Array(12).keys()]);
    expect(metric("nereus_kafka_fetch_storage_reads_total")).toBe(1);
    expect(metric("nereus_kafka_fetch_read_ahead_hits_total")).toBe(5);
    expect(metric("nereus_kafka_read_ahead_bytes")).toBeGreaterThan(0);
    // A seek back is a storage read (the buffer holds only what lies ahead of the reader).
    expect(baseOffsets((await client.fetch("seq", 0, 0, { partitionMaxBytes: budget }))?.records)).toEqual([0, 1]);
    expect(metric("nereus_kafka_fetch_storage_reads_total")).toBe(2);
    // Deleting the topic drops its buffer: the shared read-ahead budget gets the memory back.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(
      (await client.request(20, 5, { topics: [], topicNames: ["seq"], timeoutMs: 1000 })).responses[0]?.errorCode,
    ).toBe(0);
    expect(metric("nereus_kafka_read_ahead_bytes")).toBe(0);
  });

  test("byte limits: whole batches only, at least one batch, response budget across partitions", async () => {
    const client = open().connect();
    await client.createTopic("big", 2);
    const large = batchOf(["x".repeat(2000)]);
    for (let index = 0; index < 3; index += 1) {
      await client.produce("big", 0, large);
      await client.produce("big", 1, large);
    }
    const size = large.length;
    // A per-partition limit below one batch still returns one whole batch for the first partition.
    expect(baseOffsets((await client.fetch("big", 0, 0, { partitionMaxBytes: 10 }))?.records)).toEqual([0]);
    // Two batches fit, the third does not.
    expect(baseOffsets((await client.fetch("big", 0, 0, { partitionMaxBytes: size * 2 + 10 }))?.records)).toEqual([
      0, 1,
    ]);
    // The response budget: the first partition takes it all; the second returns nothing (no error).
    const both = await client.request(
      1,
      11,
      fetchBody(
        [
          { topic: "big", partition: 0, offset: 0, partitionMaxBytes: 1_000_000 },
          { topic: "big", partition: 1, offset: 0, partitionMaxBytes: 1_000_000 },
        ],
        { maxBytes: size + 1 },
      ),
    );
    const [first, second] = both.responses[0]?.partitions ?? [];
    expect(baseOffsets(first?.records)).toEqual([0]);
    expect(second).toMatchObject({ errorCode: 0, highWatermark: 3, records: new Uint8Array() });
    // A budget of less than one batch still returns the first batch of the first non-empty partition.
    const tiny = await client.request(
      1,
      11,
      fetchBody(
        [
          { topic: "big", partition: 0, offset: 3, partitionMaxBytes: 1_000_000 },
          { topic: "big", partition: 1, offset: 0, partitionMaxBytes: 1_000_000 },
        ],
        { maxBytes: 1 },
      ),
    );
    expect(tiny.responses[0]?.partitions.map((partition) => baseOffsets(partition.records))).toEqual([[], [0]]);
  });

  test("a long poll at the log end wakes when a batch is appended", async () => {
    const client = open({ maxFetchWaitMs: 60_000 }).connect();
    const producer = harness?.connect();
    await client.createTopic("poll");
    const poll = client.fetch("poll", 0, 0, { maxWaitMs: 60_000, minBytes: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    await producer?.produce("poll", 0, batchOf(["wake"]));
    const fetched = await poll;
    expect(baseOffsets(fetched?.records)).toEqual([0]);
    expect(fetched?.highWatermark).toBe(1);
  });

  test("minBytes: waits until enough bytes are there or maxWaitMs passes", async () => {
    const client = open({ maxFetchWaitMs: 60_000 }).connect();
    const producer = harness?.connect();
    await client.createTopic("min");
    const small = batchOf(["s"]);
    const poll = client.fetch("min", 0, 0, { maxWaitMs: 60_000, minBytes: small.length * 2 + 1 });
    await producer?.produce("min", 0, small);
    await producer?.produce("min", 0, small);
    await producer?.produce("min", 0, small);
    expect(baseOffsets((await poll)?.records)).toEqual([0, 1, 2]);
    const started = Date.now();
    expect(await client.fetch("min", 0, 3, { maxWaitMs: 30, minBytes: 1 })).toMatchObject({
      errorCode: 0,
      records: new Uint8Array(),
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  test("read_committed sees the high watermark as last stable offset and an empty aborted list; sessions are not kept", async () => {
    const client = open().connect();
    await client.createTopic("rc");
    await client.produce("rc", 0, batchOf(["a"]));
    expect(await client.fetch("rc", 0, 0, { isolationLevel: 1 })).toMatchObject({
      highWatermark: 1,
      lastStableOffset: 1,
      abortedTransactions: [],
    });
    expect(await client.fetch("rc", 0, 0, { isolationLevel: 0 })).toMatchObject({ abortedTransactions: null });
    const session = await client.request(1, 11, {
      ...fetchBody([{ topic: "rc", partition: 0, offset: 0 }]),
      sessionId: 42,
      sessionEpoch: 3,
    });
    expect(session).toMatchObject({ errorCode: KafkaErrorCode.FETCH_SESSION_ID_NOT_FOUND, responses: [] });
    const full = await client.request(1, 11, {
      ...fetchBody([{ topic: "rc", partition: 0, offset: 0 }]),
      sessionEpoch: 0,
    });
    expect(full).toMatchObject({ errorCode: 0, sessionId: 0 });
  });
});

const UNKNOWN_ID = "11111111-1111-4111-8111-111111111111";
const ZERO_ID = "00000000-0000-0000-0000-000000000000";

/** A Fetch body addressing topics by id (v13+): `fetchBody` with the ids in place of the names. */
function fetchByIdBody(
  partitions: ReadonlyArray<{ topicId: string; partition: number; offset: number; partitionMaxBytes?: number }>,
  options: Partial<FetchOptions> = {},
): RequestBody<1> {
  const body = fetchBody(
    partitions.map((entry) => ({ ...entry, topic: entry.topicId })),
    options,
  );
  return { ...body, topics: body.topics.map((topic) => ({ ...topic, topic: "", topicId: topic.topic })) };
}

/** Creates `name` and returns the topic id Metadata v12 reports for it (checked against CreateTopics'). */
async function createWithId(client: TestClient, name: string, partitions = 1): Promise<string> {
  const created = await client.createTopic(name, partitions);
  const topicId = created.topics[0]?.topicId ?? ZERO_ID;
  const metadata = await client.request(3, 12, {
    topics: [{ topicId: ZERO_ID, name }],
    allowAutoTopicCreation: false,
    includeClusterAuthorizedOperations: false,
    includeTopicAuthorizedOperations: false,
  });
  expect(topicId).not.toBe(ZERO_ID);
  expect(metadata.topics[0]?.topicId).toBe(topicId);
  return topicId;
}

describe("Fetch v13-17 (topics by id)", () => {
  test.each([13, 14, 15, 16, 17])(
    "v%i: fetches by topic id, echoes the id, same data and offsets as by name at v12",
    async (version) => {
      const client = open().connect();
      const topicId = await createWithId(client, "by-id", 2);
      await client.produce("by-id", 0, batchOf(["a", "b", "c"]));
      await client.produce("by-id", 0, batchOf(["d"]));
      await client.produce("by-id", 1, batchOf(["e"]));
      const response = await client.request(
        1,
        version,
        fetchByIdBody([
          { topicId, partition: 0, offset: 1 },
          { topicId, partition: 1, offset: 0 },
        ]),
      );
      expect(response).toMatchObject({ errorCode: 0, sessionId: 0 });
      expect(response.responses.map((topic) => topic.topicId)).toEqual([topicId]);
      const [zero, one] = response.responses[0]?.partitions ?? [];
      expect(zero).toMatchObject({
        partitionIndex: 0,
        errorCode: 0,
        highWatermark: 4,
        lastStableOffset: 4,
        logStartOffset: 0,
      });
      expect(baseOffsets(zero?.records)).toEqual([0, 3]);
      expect(one).toMatchObject({ partitionIndex: 1, errorCode: 0, highWatermark: 1 });
      expect(baseOffsets(one?.records)).toEqual([0]);
      const byName = await client.fetch("by-id", 0, 1, { version: 12 });
      expect(byName?.records).toEqual(zero?.records);
    },
  );

  test("the response carries the 16 id bytes where v12 has the name (wire level)", async () => {
    const client = open().connect();
    const topicId = await createWithId(client, "wire");
    const frame = encodeRequest(
      { apiKey: 1, apiVersion: 13, correlationId: 7, clientId: "wire" },
      fetchByIdBody([{ topicId, partition: 0, offset: 0 }]),
    ).subarray(4);
    const answer = await client.connection.handleFrame(frame);
    const bytes = answer?.subarray(4) ?? new Uint8Array();
    // header v1: correlation id, no tags; body: throttle, error code, session id, compact array of 1 topic, topic id.
    const idHex = topicId.replaceAll("-", "");
    expect(Buffer.from(bytes.subarray(0, 4 + 1 + 4 + 2 + 4 + 1 + 16)).toString("hex")).toBe(
      `00000007000000000000000000000002${idHex}`,
    );
    expect(decodeResponse({ apiKey: 1, apiVersion: 13 }, bytes).body.responses[0]?.topicId).toBe(topicId);
  });

  test("an unknown topic id (or the zero id) answers UNKNOWN_TOPIC_ID on every partition, at once, id echoed", async () => {
    const client = open({ maxFetchWaitMs: 60_000 }).connect();
    const started = Date.now();
    const response = await client.request(
      1,
      15,
      fetchByIdBody(
        [
          { topicId: UNKNOWN_ID, partition: 0, offset: 0 },
          { topicId: UNKNOWN_ID, partition: 3, offset: 5 },
          { topicId: ZERO_ID, partition: 0, offset: 0 },
        ],
        { maxWaitMs: 60_000, minBytes: 1 },
      ),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(response.errorCode).toBe(0);
    expect(
      response.responses.map((topic) => [
        topic.topicId,
        topic.partitions.map((partition) => [
          partition.partitionIndex,
          partition.errorCode,
          partition.highWatermark,
          partition.records?.length ?? 0,
        ]),
      ]),
    ).toEqual([
      [
        UNKNOWN_ID,
        [
          [0, KafkaErrorCode.UNKNOWN_TOPIC_ID, -1, 0],
          [3, KafkaErrorCode.UNKNOWN_TOPIC_ID, -1, 0],
        ],
      ],
      [ZERO_ID, [[0, KafkaErrorCode.UNKNOWN_TOPIC_ID, -1, 0]]],
    ]);
  });

  test("mixed known and unknown ids: known partitions are served, unknown ids and partitions get their errors", async () => {
    const client = open().connect();
    const known = await createWithId(client, "known", 1);
    await client.produce("known", 0, batchOf(["x", "y"]));
    const response = await client.request(
      1,
      17,
      fetchByIdBody([
        { topicId: UNKNOWN_ID, partition: 0, offset: 0 },
        { topicId: known, partition: 0, offset: 0 },
        { topicId: known, partition: 1, offset: 0 },
      ]),
    );
    expect(response.responses.map((topic) => topic.topicId)).toEqual([UNKNOWN_ID, known]);
    expect(response.responses[0]?.partitions.map((partition) => partition.errorCode)).toEqual([
      KafkaErrorCode.UNKNOWN_TOPIC_ID,
    ]);
    const [served, missing] = response.responses[1]?.partitions ?? [];
    expect(served).toMatchObject({ errorCode: 0, highWatermark: 2 });
    expect(baseOffsets(served?.records)).toEqual([0]);
    expect(missing).toMatchObject({ partitionIndex: 1, errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
  });

  test("forgotten_topics_data (ids) is accepted and ignored: sessionless full fetches", async () => {
    const client = open().connect();
    const topicId = await createWithId(client, "forget");
    await client.produce("forget", 0, batchOf(["a"]));
    const body = {
      ...fetchByIdBody([{ topicId, partition: 0, offset: 0 }]),
      forgottenTopicsData: [
        { topic: "", topicId: UNKNOWN_ID, partitions: [0, 1] },
        { topic: "", topicId, partitions: [3] },
      ],
    };
    for (const sessionEpoch of [-1, 0]) {
      const response = await client.request(1, 16, { ...body, sessionEpoch });
      expect(response).toMatchObject({ errorCode: 0, sessionId: 0, nodeEndpoints: [] });
      expect(baseOffsets(response.responses[0]?.partitions[0]?.records)).toEqual([0]);
    }
    expect(await client.request(1, 13, { ...body, sessionId: 9, sessionEpoch: 1 })).toMatchObject({
      errorCode: KafkaErrorCode.FETCH_SESSION_ID_NOT_FOUND,
      responses: [],
    });
  });

  test("a long poll by id wakes on an append; a deleted topic's old id is unknown, the recreated topic has a new one", async () => {
    const broker = open({ maxFetchWaitMs: 60_000 });
    const client = broker.connect();
    const producer = broker.connect();
    const oldId = await createWithId(client, "again");
    const poll = client.request(
      1,
      14,
      fetchByIdBody([{ topicId: oldId, partition: 0, offset: 0 }], { maxWaitMs: 60_000, minBytes: 1 }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    await producer.produce("again", 0, batchOf(["wake"]));
    expect(baseOffsets((await poll).responses[0]?.partitions[0]?.records)).toEqual([0]);

    expect(
      (await client.request(20, 5, { topics: [], topicNames: ["again"], timeoutMs: 1000 })).responses[0]?.errorCode,
    ).toBe(0);
    const newId = await createWithId(client, "again");
    expect(newId).not.toBe(oldId);
    const response = await client.request(
      1,
      13,
      fetchByIdBody([
        { topicId: oldId, partition: 0, offset: 0 },
        { topicId: newId, partition: 0, offset: 0 },
      ]),
    );
    expect(
      response.responses.map((topic) => [
        topic.topicId,
        topic.partitions[0]?.errorCode,
        topic.partitions[0]?.highWatermark,
      ]),
    ).toEqual([
      [oldId, KafkaErrorCode.UNKNOWN_TOPIC_ID, -1],
      [newId, 0, 0],
    ]);
  });

  test("an id known only to another broker process (cold cache) resolves through the registry", async () => {
    const first = open();
    const topicId = await createWithId(first.connect(), "cold");
    await first.connect().produce("cold", 0, batchOf(["a"]));
    await first.restart();
    const response = await first.connect().request(1, 13, fetchByIdBody([{ topicId, partition: 0, offset: 0 }]));
    expect(response.responses[0]?.partitions[0]).toMatchObject({ errorCode: 0, highWatermark: 1 });
  });

  test("v4-12 are unchanged: by name, and a name that is an id's text is an unknown topic (not an id)", async () => {
    const client = open().connect();
    const topicId = await createWithId(client, "named");
    await client.produce("named", 0, batchOf(["a"]));
    for (const version of [4, 7, 11, 12]) {
      const response = await client.request(1, version, fetchBody([{ topic: "named", partition: 0, offset: 0 }]));
      expect(response.responses[0]).toMatchObject({ topic: "named", partitions: [{ errorCode: 0, highWatermark: 1 }] });
    }
    // @platformatic/kafka at v12 writes the id's text as the name (its fetch-v12 writer).
    expect(await client.fetch(topicId, 0, 0, { version: 12 })).toMatchObject({
      errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    });
  });
});
