import { streamIdFromName } from "@nereus/core";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, batchOf } from "../../test/broker-harness.js";
import { SILENT_LOGGER } from "../logging/broker-logger.js";
import { KafkaKeyspace } from "../topics/kafka-keys.js";
import { partitionStreamName } from "../topics/kafka-topic.js";
import { logStartCodec } from "./log-start-codec.js";
import { type PartitionRetentionContext, enforcePartitionRetention } from "./partition-retention.js";

const NOW = 1_800_000_000_000;

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A topic "t" with one partition holding `values` batches stamped `stamps`, and a pass context over its stream. */
async function partitionWith(stamps: readonly number[]): Promise<{
  streamId: string;
  context: PartitionRetentionContext;
  trims: Array<[number, number | undefined]>;
  size: number;
}> {
  harness = new BrokerHarness({ retentionCheckIntervalMs: 0 });
  const client = harness.connect();
  const created = await client.createTopic("t");
  for (const [index, stamp] of stamps.entries())
    await client.produce("t", 0, batchOf([`value-${String(index)}`], { baseTimestamp: stamp }));
  const keyspace = new KafkaKeyspace(harness.cluster);
  const trims: Array<[number, number | undefined]> = [];
  const context: PartitionRetentionContext = {
    store: harness.store,
    metadata: harness.metadata,
    keyspace,
    logStartCodec: logStartCodec(keyspace),
    logger: SILENT_LOGGER,
    closing: new AbortController().signal,
    readBytes: 1 << 20,
    stepBytes: 1 << 20,
    topic: "t",
    partition: 0,
    onTrimmed: (logStart, bytesBefore) => void trims.push([logStart, bytesBefore]),
  };
  const size = batchOf(["value-0"], { baseTimestamp: NOW }).byteLength;
  return { streamId: streamIdFromName(partitionStreamName(created.topics[0]?.topicId ?? "", 0)), context, trims, size };
}

describe("enforcePartitionRetention", () => {
  test("trims the stream by time then by size, reports each trim with the bytes before it, and records them", async () => {
    const { streamId, context, trims, size } = await partitionWith([NOW - 10_000, NOW - 9_000, NOW, NOW, NOW]);
    expect(await enforcePartitionRetention(context, streamId, { olderThan: NOW - 5_000, maxBytes: 2 * size })).toEqual({
      logStartOffset: 3,
      deleted: 3,
    });
    expect(trims).toEqual([
      [2, 2 * size],
      [3, 3 * size],
    ]);
    expect((await harness?.store.getHead(streamId))?.trimOffset).toBe(3);
    const stored = await harness?.metadata.get(context.keyspace.logStartKey(streamId));
    expect(stored === undefined ? undefined : context.logStartCodec.decode(stored.value, stored.key)).toEqual({
      streamId,
      logStartOffset: 3,
      bytesBefore: 3 * size,
    });
    // Nothing more to let go.
    expect(await enforcePartitionRetention(context, streamId, { olderThan: NOW - 5_000, maxBytes: 2 * size })).toEqual({
      logStartOffset: 3,
      deleted: 0,
    });
  });

  test("a log start the record does not describe is counted once, and the count recorded", async () => {
    const { streamId, context, size } = await partitionWith([NOW, NOW, NOW, NOW]);
    await harness?.store.trim(streamId, 1);
    expect(await enforcePartitionRetention(context, streamId, { maxBytes: 2 * size })).toEqual({
      logStartOffset: 2,
      deleted: 1,
    });
    const stored = await harness?.metadata.get(context.keyspace.logStartKey(streamId));
    expect(stored === undefined ? undefined : context.logStartCodec.decode(stored.value, stored.key)).toEqual({
      streamId,
      logStartOffset: 2,
      bytesBefore: 2 * size,
    });
  });

  test("a stream that is not active is refused", async () => {
    const { streamId, context } = await partitionWith([NOW]);
    await harness?.store.seal(streamId);
    await expect(enforcePartitionRetention(context, streamId, { maxBytes: 0 })).rejects.toMatchObject({
      code: "STREAM_NOT_ACTIVE",
    });
  });
});
