import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, batchOf, produceBody, utf8 } from "../../../test/broker-harness.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { decodeRecordBatch } from "../../protocol/records/decode-record-batch.js";
import { encodeRecordBatch } from "../../protocol/records/encode-record-batch.js";
import { RecordBatchOffset } from "../../protocol/records/record-batch-header.js";
import { splitRecordBatches } from "../../protocol/records/split-record-batches.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function open(options: ConstructorParameters<typeof BrokerHarness>[0] = {}): BrokerHarness {
  harness = new BrokerHarness(options);
  return harness;
}

describe("Produce", () => {
  test("assigns dense offsets batch by batch and stores each batch as one ranged entry", async () => {
    const broker = open();
    const client = broker.connect();
    await client.createTopic("orders", 2);
    const first = await client.produce("orders", 0, batchOf(["a", "b", "c"]));
    const second = await client.produce("orders", 0, batchOf(["d", "e"]));
    const other = await client.produce("orders", 1, batchOf(["x"]));
    expect(first).toMatchObject({ errorCode: 0, baseOffset: 0, logAppendTimeMs: -1, logStartOffset: 0 });
    expect(second).toMatchObject({ errorCode: 0, baseOffset: 3 });
    expect(other).toMatchObject({ errorCode: 0, baseOffset: 0 });
    const fetched = await client.fetch("orders", 0, 0);
    expect(fetched).toMatchObject({ errorCode: 0, highWatermark: 5, lastStableOffset: 5, logStartOffset: 0 });
    const { batches } = splitRecordBatches(fetched?.records ?? new Uint8Array());
    expect(batches).toHaveLength(2);
    const decoded = batches.map((batch) => decodeRecordBatch(batch));
    expect(decoded.map((batch) => batch.header.baseOffset)).toEqual([0, 3]);
    expect(decoded.map((batch) => batch.header.partitionLeaderEpoch)).toEqual([0, 0]);
    expect(
      decoded.flatMap((batch) =>
        batch.records.map((record) => [record.offset, new TextDecoder().decode(record.value ?? new Uint8Array())]),
      ),
    ).toEqual([
      [0, "a"],
      [1, "b"],
      [2, "c"],
      [3, "d"],
      [4, "e"],
    ]);
  });

  test("pipelined requests on one connection append in arrival order", async () => {
    const broker = open();
    const client = broker.connect();
    await client.createTopic("ordered");
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => client.produce("ordered", 0, batchOf([`m${String(index)}`, "pad"]))),
    );
    expect(results.map((result) => result?.baseOffset)).toEqual(Array.from({ length: 20 }, (_, index) => index * 2));
    const fetched = await client.fetch("ordered", 0, 0);
    const values = splitRecordBatches(fetched?.records ?? new Uint8Array()).batches.map((batch) =>
      new TextDecoder().decode(decodeRecordBatch(batch).records[0]?.value ?? new Uint8Array()),
    );
    expect(values).toEqual(Array.from({ length: 20 }, (_, index) => `m${String(index)}`));
  });

  test("rejects invalid batches per partition with Kafka's error codes and appends nothing", async () => {
    const broker = open();
    const client = broker.connect();
    await client.createTopic("strict", 1, { "max.message.bytes": "200" });
    const good = batchOf(["ok"]);
    const badCrc = good.slice();
    badCrc[good.length - 1] = (badCrc[good.length - 1] ?? 0) ^ 0xff;
    const withOffset = good.slice();
    new DataView(withOffset.buffer).setBigInt64(RecordBatchOffset.baseOffset, 7n);
    const twoBatches = new Uint8Array([...good, ...good]);
    const control = encodeRecordBatch({ baseTimestamp: 1, isControl: true, records: [{ value: utf8("x") }] });
    const transactional = encodeRecordBatch({
      baseTimestamp: 1,
      isTransactional: true,
      producerId: 1n,
      producerEpoch: 0,
      baseSequence: 0,
      records: [{ value: utf8("x") }],
    });
    const cases: Array<[Uint8Array | null, number]> = [
      [badCrc, KafkaErrorCode.CORRUPT_MESSAGE],
      [withOffset, KafkaErrorCode.INVALID_RECORD],
      [twoBatches, KafkaErrorCode.INVALID_RECORD],
      [good.subarray(0, good.length - 3), KafkaErrorCode.CORRUPT_MESSAGE],
      [batchOf(["x".repeat(300)]), KafkaErrorCode.MESSAGE_TOO_LARGE],
      [control, KafkaErrorCode.INVALID_RECORD],
      [transactional, KafkaErrorCode.INVALID_TXN_STATE],
      [null, KafkaErrorCode.INVALID_RECORD],
    ];
    for (const [records, errorCode] of cases) {
      const response = await client.request(0, 9, produceBody("strict", 0, records));
      expect(response.responses[0]?.partitionResponses[0]).toMatchObject({ errorCode, baseOffset: -1 });
    }
    expect(await client.produce("strict", 0, good)).toMatchObject({ errorCode: 0, baseOffset: 0 });
  });

  test("unknown topics and partitions, Produce v0-2, bad acks and transactional ids are refused", async () => {
    const broker = open();
    const client = broker.connect();
    await client.createTopic("known");
    expect(await client.produce("missing", 0, batchOf(["a"]))).toMatchObject({
      errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    });
    expect(await client.produce("known", 3, batchOf(["a"]))).toMatchObject({
      errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    });
    expect(await client.produce("known", 0, batchOf(["a"]), { version: 2 })).toMatchObject({
      errorCode: KafkaErrorCode.UNSUPPORTED_VERSION,
    });
    expect(await client.produce("known", 0, batchOf(["a"]), { acks: 2 })).toMatchObject({
      errorCode: KafkaErrorCode.INVALID_REQUIRED_ACKS,
    });
    const transactional = await client.request(0, 9, {
      ...produceBody("known", 0, batchOf(["a"])),
      transactionalId: "tx",
    });
    expect(transactional.responses[0]?.partitionResponses[0]?.errorCode).toBe(
      KafkaErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
    );
    expect((await client.fetch("known", 0, 0))?.highWatermark).toBe(0);
  });

  test("acks=0 appends without answering, in order with later requests", async () => {
    const broker = open();
    const client = broker.connect();
    await client.createTopic("fire");
    expect(await client.produce("fire", 0, batchOf(["a"]), { acks: 0 })).toBeUndefined();
    expect(await client.produce("fire", 0, batchOf(["b"]), { acks: 1 })).toMatchObject({ errorCode: 0, baseOffset: 1 });
  });

  test("LogAppendTime topics stamp the broker time into the stored batch and the answer", async () => {
    const broker = open({ clock: () => 1_800_000_000_000 });
    const client = broker.connect();
    await client.createTopic("stamped", 1, { "message.timestamp.type": "LogAppendTime" });
    expect(await client.produce("stamped", 0, batchOf(["a", "b"]))).toMatchObject({
      errorCode: 0,
      logAppendTimeMs: 1_800_000_000_000,
    });
    const fetched = await client.fetch("stamped", 0, 0);
    const decoded = decodeRecordBatch(fetched?.records ?? new Uint8Array());
    expect(decoded.header.timestampType).toBe("log-append-time");
    expect(decoded.records.map((record) => record.timestamp)).toEqual([1_800_000_000_000, 1_800_000_000_000]);
  });
});
