import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, batchOf } from "../../test/broker-harness.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";

const NOW = 1_800_000_000_000;
const MINUTE = 60_000;

let harness: BrokerHarness | undefined;
afterEach(async () => {
  expect(harness?.errors() ?? []).toEqual([]);
  await harness?.close();
  harness = undefined;
});

/** A broker whose wall clock is `clock.now` and whose sweeps run only when the test asks. */
function retentionHarness(clock: { now: number }, intervalMs = 0): BrokerHarness {
  return new BrokerHarness({ clock: () => clock.now, retentionCheckIntervalMs: intervalMs });
}

describe("retention", () => {
  test("deletes the prefix of whole batches older than retention.ms, from the oldest on, and keeps the rest readable", async () => {
    const clock = { now: NOW };
    harness = retentionHarness(clock);
    const client = harness.connect();
    await client.createTopic("aging", 2, { "retention.ms": String(10 * MINUTE) });
    await client.produce("aging", 0, batchOf(["a", "b"], { baseTimestamp: NOW - 30 * MINUTE }));
    await client.produce("aging", 0, batchOf(["c", "d", "e"], { baseTimestamp: NOW - 20 * MINUTE }));
    await client.produce("aging", 0, batchOf(["f"], { baseTimestamp: NOW - 5 * MINUTE }));
    // A newer batch ahead of an older one keeps the older one (Kafka deletes from the oldest segment on).
    await client.produce("aging", 0, batchOf(["g"], { baseTimestamp: NOW - 40 * MINUTE }));
    await client.produce("aging", 1, batchOf(["x"], { baseTimestamp: NOW - 1 * MINUTE }));

    expect(await harness.broker.enforceRetention()).toEqual({
      topics: 1,
      partitions: 2,
      deletedRecords: 5,
      failures: 0,
    });
    expect(await client.listOffset("aging", 0, -2)).toMatchObject({ errorCode: 0, offset: 5 });
    expect(await client.listOffset("aging", 1, -2)).toMatchObject({ errorCode: 0, offset: 0 });
    expect(await client.fetch("aging", 0, 4)).toMatchObject({
      errorCode: KafkaErrorCode.OFFSET_OUT_OF_RANGE,
      logStartOffset: 5,
      highWatermark: 7,
    });
    expect(await client.fetch("aging", 0, 5)).toMatchObject({ errorCode: 0, logStartOffset: 5 });
    // Nothing more expired: a second sweep deletes nothing.
    expect((await harness.broker.enforceRetention()).deletedRecords).toBe(0);
    // Time passes: "f" expires, and so does "g" behind it.
    clock.now += 10 * MINUTE;
    expect((await harness.broker.enforceRetention()).deletedRecords).toBe(2 + 1);
    expect(await client.listOffset("aging", 0, -2)).toMatchObject({ offset: 7 });
    expect(await client.listOffset("aging", 0, -1)).toMatchObject({ offset: 7 });
    expect(await client.listOffset("aging", 1, -2)).toMatchObject({ offset: 1 });
    // Produce goes on at the same end.
    expect(await client.produce("aging", 0, batchOf(["h"], { baseTimestamp: clock.now }))).toMatchObject({
      errorCode: 0,
      baseOffset: 7,
      logStartOffset: 7,
    });
    const counters = harness.broker.metrics.collect();
    expect(
      counters.find((family) => family.name === "nereus_kafka_retention_deleted_records_total")?.samples[0]?.value,
    ).toBe(8);
    expect(
      harness.events.some(
        (event) => event.message === "records deleted" && event.fields?.["reason"] === "retention.ms",
      ),
    ).toBe(true);
  });

  test("leaves topics without time retention, compact-only topics and batches without a timestamp alone", async () => {
    const clock = { now: NOW };
    harness = retentionHarness(clock);
    const client = harness.connect();
    await client.createTopic("forever", 1, { "retention.ms": "-1" });
    await client.createTopic("compacted", 1, { "retention.ms": "1000", "cleanup.policy": "compact" });
    await client.createTopic("untimed", 1, { "retention.ms": "1000" });
    await client.createTopic("defaulted");
    for (const topic of ["forever", "compacted", "defaulted"])
      await client.produce(topic, 0, batchOf(["old"], { baseTimestamp: NOW - 30 * 24 * 60 * MINUTE }));
    await client.produce("untimed", 0, batchOf(["?"], { baseTimestamp: -1 }));
    await client.produce("untimed", 0, batchOf(["old"], { baseTimestamp: 0 }));
    // The default retention.ms (7 days) applies to "defaulted": its 30-day-old batch goes.
    expect(await harness.broker.enforceRetention()).toEqual({
      topics: 2,
      partitions: 2,
      deletedRecords: 1,
      failures: 0,
    });
    expect(await client.listOffset("defaulted", 0, -2)).toMatchObject({ offset: 1 });
    for (const topic of ["forever", "compacted", "untimed"])
      expect(await client.listOffset(topic, 0, -2)).toMatchObject({ offset: 0 });
  });

  test("a whole expired log after a DeleteRecords inside a batch, and a restart in between", async () => {
    const clock = { now: NOW };
    harness = retentionHarness(clock);
    const client = harness.connect();
    await client.createTopic("trimmed", 1, { "retention.ms": String(MINUTE) });
    await client.produce("trimmed", 0, batchOf(["a", "b", "c"], { baseTimestamp: NOW - 2 * MINUTE }));
    await client.produce("trimmed", 0, batchOf(["d", "e"], { baseTimestamp: NOW }));
    const deleted = await client.request(21, 2, {
      topics: [{ name: "trimmed", partitions: [{ partitionIndex: 0, offset: 1 }] }],
      timeoutMs: 5000,
    });
    expect(deleted.topics[0]?.partitions[0]).toMatchObject({ lowWatermark: 1, errorCode: 0 });
    await harness.restart();
    const again = harness.connect();
    // The batch holding the log start (offset 1) expired: the log start moves past it, two offsets deleted.
    expect(await harness.broker.enforceRetention()).toMatchObject({ deletedRecords: 2, failures: 0 });
    expect(await again.listOffset("trimmed", 0, -2)).toMatchObject({ offset: 3 });
    clock.now += 2 * MINUTE;
    expect(await harness.broker.enforceRetention()).toMatchObject({ deletedRecords: 2 });
    expect(await again.listOffset("trimmed", 0, -2)).toMatchObject({ offset: 5 });
    expect(await again.fetch("trimmed", 0, 5)).toMatchObject({ errorCode: 0, logStartOffset: 5, highWatermark: 5 });
  });

  test("a sweep works on the streams: it loads no partition, and a loaded one follows its trims", async () => {
    const clock = { now: NOW };
    harness = retentionHarness(clock);
    const client = harness.connect();
    await client.createTopic("idle", 3, { "retention.ms": String(MINUTE) });
    for (const partition of [0, 1, 2])
      await client.produce("idle", partition, batchOf(["old"], { baseTimestamp: NOW - 2 * MINUTE }));
    await harness.restart();
    const metric = (name: string): number =>
      harness?.broker.metrics.collect().find((family) => family.name === name)?.samples[0]?.value ?? Number.NaN;
    expect(await harness.broker.enforceRetention()).toEqual({
      topics: 1,
      partitions: 3,
      deletedRecords: 3,
      failures: 0,
    });
    expect(metric("nereus_kafka_partition_loads_total")).toBe(0);
    expect(metric("nereus_kafka_partitions_open")).toBe(0);
    // Loaded after the sweep: it reads the trimmed log start from the head.
    const again = harness.connect();
    expect(await again.listOffset("idle", 1, -2)).toMatchObject({ offset: 1 });
    // Loaded before a sweep: its cached log start follows the trim.
    await again.produce("idle", 1, batchOf(["old again"], { baseTimestamp: NOW - 2 * MINUTE }));
    expect(await again.listOffset("idle", 1, -2)).toMatchObject({ offset: 1 });
    expect((await harness.broker.enforceRetention()).deletedRecords).toBe(1);
    expect(await again.listOffset("idle", 1, -2)).toMatchObject({ offset: 2 });
    expect(await again.fetch("idle", 1, 1)).toMatchObject({
      errorCode: KafkaErrorCode.OFFSET_OUT_OF_RANGE,
      logStartOffset: 2,
    });
  });

  test("a partition whose trim fails is counted, logged and tried again by the next sweep", async () => {
    const clock = { now: NOW };
    harness = retentionHarness(clock);
    const client = harness.connect();
    await client.createTopic("flaky", 2, { "retention.ms": String(MINUTE) });
    await client.produce("flaky", 0, batchOf(["a"], { baseTimestamp: NOW - 2 * MINUTE }));
    await client.produce("flaky", 1, batchOf(["b"], { baseTimestamp: NOW - 2 * MINUTE }));
    // Partition 0's trim transaction fails; partition 1 is swept all the same.
    harness.metadata.faults.add({ op: "txn", mode: "fail-before-apply" });
    expect(await harness.broker.enforceRetention()).toEqual({
      topics: 1,
      partitions: 2,
      deletedRecords: 1,
      failures: 1,
    });
    expect(harness.events.filter((event) => event.message === "retention failed")).toHaveLength(1);
    expect(await harness.broker.enforceRetention()).toEqual({
      topics: 1,
      partitions: 2,
      deletedRecords: 1,
      failures: 0,
    });
    expect(await client.listOffset("flaky", 0, -2)).toMatchObject({ offset: 1 });
  });

  test("the timer sweeps by itself, and a long expired prefix is trimmed in steps", async () => {
    harness = new BrokerHarness({ retentionCheckIntervalMs: 20, partitionLogs: { retentionStepBytes: 1 } });
    const client = harness.connect();
    await client.createTopic("timed", 1, { "retention.ms": String(MINUTE) });
    for (let index = 0; index < 5; index += 1)
      await client.produce("timed", 0, batchOf([`old-${String(index)}`], { baseTimestamp: Date.now() - 2 * MINUTE }));
    const deadline = Date.now() + 10_000;
    while ((await client.listOffset("timed", 0, -2))?.offset !== 5) {
      if (Date.now() > deadline) throw new Error("the retention timer did not delete the expired records");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const sweeps = harness.broker.metrics
      .collect()
      .find((family) => family.name === "nereus_kafka_retention_sweeps_total");
    expect(sweeps?.samples[0]?.value).toBeGreaterThanOrEqual(1);
    // One trim per expired batch (the step is one byte): the log start moved 1, 2, ..., 5.
    const starts = harness.events
      .filter((event) => event.message === "records deleted")
      .map((event) => event.fields?.["logStartOffset"]);
    expect(starts).toEqual([1, 2, 3, 4, 5]);
  });

  test("retention.bytes deletes the oldest batches while the partition keeps at least that many bytes without them", async () => {
    const clock = { now: NOW };
    harness = retentionHarness(clock);
    const client = harness.connect();
    const batch = (value: string): Uint8Array => batchOf([value], { baseTimestamp: clock.now });
    const size = batch("v-0").byteLength;
    await client.createTopic("sized", 1, { "retention.bytes": String(2 * size + 1) });
    for (let index = 0; index < 5; index += 1) await client.produce("sized", 0, batch(`v-${String(index)}`));
    const counts = (): number =>
      harness?.events.filter((event) => event.message === "counting the partition's size").length ?? 0;
    // 5 batches: deleting 2 leaves 3 (>= 2 batches + 1 byte); deleting a third would leave too little. A partition
    // never trimmed has the head's cumulative size as its size: nothing is counted.
    expect(await harness.broker.enforceRetention()).toEqual({
      topics: 1,
      partitions: 1,
      deletedRecords: 2,
      failures: 0,
    });
    expect(counts()).toBe(0);
    expect(await client.listOffset("sized", 0, -2)).toMatchObject({ offset: 2 });
    // The size is kept up to date by appends and by retention itself (no recount).
    const loads = (): number =>
      harness?.broker.metrics.collect().find((family) => family.name === "nereus_kafka_partition_loads_total")
        ?.samples[0]?.value ?? 0;
    const loadsBefore = loads();
    await client.produce("sized", 0, batch("v-5"));
    expect((await harness.broker.enforceRetention()).deletedRecords).toBe(1);
    expect(await client.listOffset("sized", 0, -2)).toMatchObject({ offset: 3 });
    expect(loads()).toBe(loadsBefore);
    // A restart: the log-start record the trims wrote gives the size back without counting.
    await harness.restart();
    const restarted = harness.connect();
    expect((await harness.broker.enforceRetention()).deletedRecords).toBe(0);
    expect(counts()).toBe(0);
    // DeleteRecords inside the partition: its removed bytes are not known, the next pass counts (once).
    await restarted.request(21, 2, {
      topics: [{ name: "sized", partitions: [{ partitionIndex: 0, offset: 4 }] }],
      timeoutMs: 5000,
    });
    await restarted.produce("sized", 0, batch("v-6"));
    expect((await harness.broker.enforceRetention()).deletedRecords).toBe(0);
    expect(counts()).toBe(1);
    await restarted.produce("sized", 0, batch("v-7"));
    expect((await harness.broker.enforceRetention()).deletedRecords).toBe(1);
    expect(await restarted.listOffset("sized", 0, -2)).toMatchObject({ offset: 5 });
    expect(counts()).toBe(1);
    // After another restart the record written with the count and the trim is used again.
    await harness.restart();
    const again = harness.connect();
    await again.produce("sized", 0, batch("v-8"));
    expect((await harness.broker.enforceRetention()).deletedRecords).toBe(1);
    expect(await again.listOffset("sized", 0, -2)).toMatchObject({ offset: 6 });
    expect(await again.listOffset("sized", 0, -1)).toMatchObject({ offset: 9 });
    expect(counts()).toBe(1);
    const reasons = harness.events
      .filter((event) => event.message === "records deleted")
      .map((event) => event.fields?.["reason"]);
    expect(reasons).toContain("retention.bytes");
  });

  test("retention.ms and retention.bytes together; retention.bytes 0 empties the partition", async () => {
    const clock = { now: NOW };
    harness = retentionHarness(clock);
    const client = harness.connect();
    const size = batchOf(["x-0"], { baseTimestamp: NOW }).byteLength;
    await client.createTopic("both", 1, { "retention.ms": String(MINUTE), "retention.bytes": String(3 * size) });
    await client.createTopic("empty", 1, { "retention.bytes": "0" });
    await client.produce("both", 0, batchOf(["x-0"], { baseTimestamp: NOW - 2 * MINUTE }));
    for (let index = 1; index < 6; index += 1)
      await client.produce("both", 0, batchOf([`x-${String(index)}`], { baseTimestamp: NOW }));
    for (let index = 0; index < 3; index += 1)
      await client.produce("empty", 0, batchOf([`e-${String(index)}`], { baseTimestamp: NOW }));
    // "both": time lets the first batch go, size two more (3 batches left); "empty": everything.
    expect(await harness.broker.enforceRetention()).toEqual({
      topics: 2,
      partitions: 2,
      deletedRecords: 3 + 3,
      failures: 0,
    });
    expect(await client.listOffset("both", 0, -2)).toMatchObject({ offset: 3 });
    expect(await client.listOffset("empty", 0, -2)).toMatchObject({ offset: 3 });
    expect(await client.produce("empty", 0, batchOf(["e-3"], { baseTimestamp: NOW }))).toMatchObject({
      errorCode: 0,
      baseOffset: 3,
    });
  });

  test("rejects a bad interval before doing anything", () => {
    expect(() => new BrokerHarness({ retentionCheckIntervalMs: -1 })).toThrow(
      /retentionCheckIntervalMs must be an integer >= 0/,
    );
  });
});
