import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, type TestClient, batchOf } from "../../test/broker-harness.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  expect(harness?.errors() ?? []).toEqual([]);
  await harness?.close();
  harness = undefined;
});

async function initProducerId(client: TestClient): Promise<bigint> {
  const response = await client.request(22, 4, {
    transactionalId: null,
    transactionTimeoutMs: 60_000,
    producerId: -1n,
    producerEpoch: -1,
  });
  expect(response).toMatchObject({ errorCode: 0, producerEpoch: 0 });
  return response.producerId;
}

const idempotent = (
  producerId: bigint,
  baseSequence: number,
  values: readonly string[],
  producerEpoch = 0,
): Uint8Array => batchOf(values, { producerId, producerEpoch, baseSequence });

function metric(broker: BrokerHarness, name: string): number {
  return broker.broker.metrics.collect().find((family) => family.name === name)?.samples[0]?.value ?? Number.NaN;
}

describe("InitProducerId", () => {
  test("hands out distinct producer ids that stay distinct across restarts; transactional ids are refused", async () => {
    harness = new BrokerHarness({ producerIdBlockSize: 3 });
    const client = harness.connect();
    const first = await Promise.all(Array.from({ length: 5 }, () => initProducerId(client)));
    expect(new Set(first).size).toBe(5);
    await harness.restart();
    const after = await initProducerId(harness.connect());
    expect(first.every((id) => id < after)).toBe(true);
    const transactional = await harness
      .connect()
      .request(22, 4, { transactionalId: "tx", transactionTimeoutMs: 60_000, producerId: -1n, producerEpoch: -1 });
    expect(transactional.errorCode).toBe(KafkaErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
  });
});

describe("idempotent produce", () => {
  test("a retried batch gets its original offset and is not appended again", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("idem");
    const producerId = await initProducerId(client);
    expect(await client.produce("idem", 0, idempotent(producerId, 0, ["a", "b"]))).toMatchObject({
      errorCode: 0,
      baseOffset: 0,
    });
    expect(await client.produce("idem", 0, idempotent(producerId, 2, ["c"]))).toMatchObject({
      errorCode: 0,
      baseOffset: 2,
    });
    expect(await client.produce("idem", 0, idempotent(producerId, 0, ["a", "b"]))).toMatchObject({
      errorCode: 0,
      baseOffset: 0,
    });
    expect(await client.produce("idem", 0, idempotent(producerId, 2, ["c"]))).toMatchObject({
      errorCode: 0,
      baseOffset: 2,
    });
    expect((await client.fetch("idem", 0, 0))?.highWatermark).toBe(3);
    expect(metric(harness, "nereus_kafka_duplicate_batches_total")).toBe(2);
  });

  test("pipelined retries of batches still in flight get the same offsets", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("pipelined");
    const producerId = await initProducerId(client);
    const sends = [0, 1, 2, 0, 1, 2, 3].map((sequence) =>
      client.produce("pipelined", 0, idempotent(producerId, sequence, [`v${String(sequence)}`])),
    );
    expect((await Promise.all(sends)).map((result) => [result?.errorCode, result?.baseOffset])).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [0, 0],
      [0, 1],
      [0, 2],
      [0, 3],
    ]);
    expect((await client.fetch("pipelined", 0, 0))?.highWatermark).toBe(4);
  });

  test("sequence gaps are OUT_OF_ORDER_SEQUENCE_NUMBER; older epochs are fenced; a bumped epoch restarts at 0", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("seq");
    const producerId = await initProducerId(client);
    await client.produce("seq", 0, idempotent(producerId, 0, ["a"], 1));
    expect(await client.produce("seq", 0, idempotent(producerId, 2, ["gap"], 1))).toMatchObject({
      errorCode: KafkaErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
      baseOffset: -1,
    });
    expect(await client.produce("seq", 0, idempotent(producerId, 1, ["stale"], 0))).toMatchObject({
      errorCode: KafkaErrorCode.INVALID_PRODUCER_EPOCH,
    });
    expect(await client.produce("seq", 0, idempotent(producerId, 3, ["bump"], 2))).toMatchObject({
      errorCode: KafkaErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
    });
    expect(await client.produce("seq", 0, idempotent(producerId, 0, ["bump"], 2))).toMatchObject({
      errorCode: 0,
      baseOffset: 1,
    });
    expect(await client.produce("seq", 0, idempotent(producerId, 1, ["next"], 1))).toMatchObject({
      errorCode: KafkaErrorCode.INVALID_PRODUCER_EPOCH,
    });
    expect((await client.fetch("seq", 0, 0))?.highWatermark).toBe(2);
  });

  test("producer state survives a restart (replayed from the committed batches)", async () => {
    harness = new BrokerHarness({ partitionLogs: { checkpointIntervalBatches: 0 } });
    const client = harness.connect();
    await client.createTopic("durable", 2);
    const producerId = await initProducerId(client);
    for (let sequence = 0; sequence < 8; sequence += 1)
      await client.produce(
        "durable",
        sequence % 2,
        idempotent(producerId, Math.floor(sequence / 2), [`v${String(sequence)}`]),
      );
    await harness.restart();
    const again = harness.connect();
    expect(await again.produce("durable", 1, idempotent(producerId, 3, ["v7"]))).toMatchObject({
      errorCode: 0,
      baseOffset: 3,
    });
    expect(await again.produce("durable", 1, idempotent(producerId, 1, ["v3"]))).toMatchObject({
      errorCode: 0,
      baseOffset: 1,
    });
    expect(await again.produce("durable", 0, idempotent(producerId, 5, ["gap"]))).toMatchObject({
      errorCode: KafkaErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
    });
    expect(await again.produce("durable", 0, idempotent(producerId, 4, ["next"]))).toMatchObject({
      errorCode: 0,
      baseOffset: 4,
    });
    expect(metric(harness, "nereus_kafka_replayed_batches_total")).toBe(8);
  });

  test("a producer-state checkpoint bounds the replay; the time index still covers the whole log", async () => {
    harness = new BrokerHarness({
      partitionLogs: { checkpointIntervalBatches: 4, producerIdExpirationMs: Number.MAX_SAFE_INTEGER },
    });
    const client = harness.connect();
    await client.createTopic("checkpointed");
    const producerId = await initProducerId(client);
    for (let sequence = 0; sequence < 10; sequence += 1) {
      const batch = batchOf([`v${String(sequence)}`], {
        producerId,
        producerEpoch: 0,
        baseSequence: sequence,
        baseTimestamp: 1_000 * (sequence + 1),
      });
      expect(await client.produce("checkpointed", 0, batch)).toMatchObject({ errorCode: 0, baseOffset: sequence });
    }
    // close() writes the checkpoint that is behind, so the next load replays nothing.
    await harness.restart();
    const again = harness.connect();
    expect(
      await again.produce(
        "checkpointed",
        0,
        batchOf(["v9"], { producerId, producerEpoch: 0, baseSequence: 9, baseTimestamp: 10_000 }),
      ),
    ).toMatchObject({ errorCode: 0, baseOffset: 9 });
    expect(metric(harness, "nereus_kafka_replayed_batches_total")).toBe(0);
    expect(await again.listOffset("checkpointed", 0, 2_500)).toMatchObject({ offset: 2, timestamp: 3_000 });
    expect(await again.listOffset("checkpointed", 0, -3)).toMatchObject({ offset: 9, timestamp: 10_000 });
  });
});
