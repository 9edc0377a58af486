import { gzipSync } from "node:zlib";
import { compress as lz4Frame } from "lz4js";
import { compress as snappyBlock } from "snappyjs";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, batchOf, utf8 } from "../../../test/broker-harness.js";
import { forgeRecordBatch, sectionOf } from "../../../test/forge-record-batch.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { decodeRecordBatch } from "../../protocol/records/decode-record-batch.js";
import { type Compressor, encodeRecordBatch } from "../../protocol/records/encode-record-batch.js";
import { CompressionCodec } from "../../protocol/records/record-batch-header.js";
import { splitRecordBatches } from "../../protocol/records/split-record-batches.js";
import { createBatchDecompressor } from "../../compression/create-batch-decompressor.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A zstd frame of raw blocks holding `data` (valid zstd; the tool-made frames are covered in inflate-zstd.test.ts). */
function zstdRawFrame(data: Uint8Array): Uint8Array {
  const header = (data.length << 3) | 1;
  return new Uint8Array([
    0x28,
    0xb5,
    0x2f,
    0xfd,
    0x00,
    0x58,
    header & 0xff,
    (header >>> 8) & 0xff,
    (header >>> 16) & 0xff,
    ...data,
  ]);
}

const COMPRESSORS: ReadonlyArray<[string, number, Compressor]> = [
  ["gzip", CompressionCodec.gzip, (_codec, data) => gzipSync(data)],
  ["snappy", CompressionCodec.snappy, (_codec, data) => snappyBlock(data)],
  ["lz4", CompressionCodec.lz4, (_codec, data) => lz4Frame(data)],
  ["zstd", CompressionCodec.zstd, (_codec, data) => zstdRawFrame(data)],
];

const values = (batch: Uint8Array): string[] =>
  decodeRecordBatch(batch, { decompress: createBatchDecompressor() }).records.map((record) =>
    new TextDecoder().decode(record.value ?? new Uint8Array()),
  );

describe("Produce refuses batches whose records are malformed", () => {
  test("each malformed shape gets Kafka's error code, nothing is stored, and later batches get dense offsets", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("hostile");
    expect(await client.produce("hostile", 0, batchOf(["a", "b", "c", "d", "e", "f"]))).toMatchObject({
      errorCode: 0,
      baseOffset: 0,
    });
    const three = batchOf(["x".repeat(40), "y".repeat(40), "z".repeat(40)]);
    const one = batchOf(["w".repeat(40)]);
    const outOfOrder = encodeRecordBatch({
      baseTimestamp: 1,
      records: [{ value: utf8("p") }, { value: utf8("q"), offsetDelta: 2 }, { value: utf8("r"), offsetDelta: 1 }],
    });
    const overrun = sectionOf(one).slice();
    overrun[0] = (overrun[0] ?? 0) + 20;
    const cases: ReadonlyArray<[string, Uint8Array, number]> = [
      [
        "count says 5, holds 1",
        forgeRecordBatch(one, { recordCount: 5, lastOffsetDelta: 4 }),
        KafkaErrorCode.INVALID_RECORD,
      ],
      [
        "count says 1, holds 3",
        forgeRecordBatch(three, { recordCount: 1, lastOffsetDelta: 0 }),
        KafkaErrorCode.INVALID_RECORD,
      ],
      [
        "trailing bytes",
        forgeRecordBatch(one, { section: new Uint8Array([...sectionOf(one), 1, 2, 3]) }),
        KafkaErrorCode.INVALID_RECORD,
      ],
      ["out-of-order offset deltas", outOfOrder, KafkaErrorCode.INVALID_RECORD],
      ["record length overrun", forgeRecordBatch(one, { section: overrun }), KafkaErrorCode.INVALID_RECORD],
      ...COMPRESSORS.map(([name, codec]): [string, Uint8Array, number] => [
        `garbage ${name}`,
        forgeRecordBatch(one, { compression: codec, section: utf8("this payload was never compressed by anything") }),
        KafkaErrorCode.CORRUPT_MESSAGE,
      ]),
    ];
    for (const [name, batch, errorCode] of cases) {
      const response = await client.request(0, 9, {
        transactionalId: null,
        acks: -1,
        timeoutMs: 5000,
        topicData: [{ name: "hostile", partitionData: [{ index: 0, records: batch }] }],
      });
      const partition = response.responses[0]?.partitionResponses[0];
      expect({ name, errorCode: partition?.errorCode, baseOffset: partition?.baseOffset }).toEqual({
        name,
        errorCode,
        baseOffset: -1,
      });
      expect(partition?.errorMessage).toEqual(expect.any(String));
    }
    const outOfOrderResponse = await client.request(0, 9, {
      transactionalId: null,
      acks: -1,
      timeoutMs: 5000,
      topicData: [{ name: "hostile", partitionData: [{ index: 0, records: outOfOrder }] }],
    });
    expect(outOfOrderResponse.responses[0]?.partitionResponses[0]?.recordErrors).toEqual([
      { batchIndex: 1, batchIndexErrorMessage: expect.stringContaining("offset delta 2") },
    ]);
    expect(await client.produce("hostile", 0, batchOf(["g", "h"]))).toMatchObject({ errorCode: 0, baseOffset: 6 });
    expect(await client.produce("hostile", 0, batchOf(["i"]))).toMatchObject({ errorCode: 0, baseOffset: 8 });
    const fetched = await client.fetch("hostile", 0, 0);
    expect(fetched?.highWatermark).toBe(9);
    const batches = splitRecordBatches(fetched?.records ?? new Uint8Array()).batches;
    expect(batches.map((batch) => decodeRecordBatch(batch).header.baseOffset)).toEqual([0, 6, 8]);
    expect(batches.flatMap(values)).toEqual(["a", "b", "c", "d", "e", "f", "g", "h", "i"]);
  });

  test("a request with several partitions refuses only the malformed one", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("mixed", 3);
    const bad = forgeRecordBatch(batchOf(["only ".repeat(20)]), { recordCount: 3, lastOffsetDelta: 2 });
    const response = await client.request(0, 9, {
      transactionalId: null,
      acks: -1,
      timeoutMs: 5000,
      topicData: [
        {
          name: "mixed",
          partitionData: [
            { index: 0, records: batchOf(["a"]) },
            { index: 1, records: bad },
            { index: 2, records: batchOf(["c", "d"]) },
          ],
        },
      ],
    });
    expect(
      response.responses[0]?.partitionResponses.map((partition) => [
        partition.index,
        partition.errorCode,
        partition.baseOffset,
      ]),
    ).toEqual([
      [0, 0, 0],
      [1, KafkaErrorCode.INVALID_RECORD, -1],
      [2, 0, 0],
    ]);
    expect((await client.fetch("mixed", 1, 0))?.highWatermark).toBe(0);
    expect(await client.produce("mixed", 1, batchOf(["b"]))).toMatchObject({ errorCode: 0, baseOffset: 0 });
  });

  test.each(COMPRESSORS)("valid %s batches are accepted and stored byte-exact", async (_name, codec, compress) => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("packed");
    const batch = encodeRecordBatch({
      baseTimestamp: 1_700_000_000_000,
      compression: codec,
      compress,
      records: ["one", "two", "three"].map((value) => ({ key: utf8(value), value: utf8(value) })),
    });
    const sent = batch.slice();
    expect(await client.produce("packed", 0, batch)).toMatchObject({ errorCode: 0, baseOffset: 0 });
    const [stored] = splitRecordBatches((await client.fetch("packed", 0, 0))?.records ?? new Uint8Array()).batches;
    expect(Buffer.from(stored?.subarray(17) ?? []).equals(Buffer.from(sent.subarray(17)))).toBe(true);
    expect(values(stored ?? new Uint8Array())).toEqual(["one", "two", "three"]);
  });

  test("a gzip bomb is refused at the 64 MiB limit without being stored", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("bomb", 1, { "max.message.bytes": String(4 << 20) });
    const bomb = forgeRecordBatch(batchOf(["x"]), {
      compression: CompressionCodec.gzip,
      section: gzipSync(new Uint8Array(65 << 20)),
    });
    expect(bomb.length).toBeLessThan(1 << 20);
    const answer = await client.produce("bomb", 0, bomb);
    expect(answer).toMatchObject({ errorCode: KafkaErrorCode.CORRUPT_MESSAGE, baseOffset: -1 });
    expect(answer?.errorMessage).toContain("inflates past the limit");
    expect((await client.fetch("bomb", 0, 0))?.highWatermark).toBe(0);
  });
});
