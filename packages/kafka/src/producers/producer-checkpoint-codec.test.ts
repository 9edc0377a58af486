import { fromHex, toHex } from "@nereus/core";
import { describe, expect, test } from "vitest";
import { expectCorruptionRejected, violation } from "../../test/record-codec-checks.js";
import { KafkaKeyspace } from "../topics/kafka-keys.js";
import { type ProducerCheckpoint, producerCheckpointCodec } from "./producer-checkpoint-codec.js";
import { producerIdBlockCodec } from "./producer-id-block-codec.js";

const keyspace = new KafkaKeyspace("test");
const codec = producerCheckpointCodec(keyspace);
const STREAM = `s-${"a".repeat(52)}`;
const KEY = keyspace.producerStateKey(STREAM);

const FIXTURE: ProducerCheckpoint = {
  streamId: STREAM,
  endOffset: 120,
  producers: [
    {
      producerId: 7n,
      epoch: 3,
      batches: [
        { firstSequence: 0, lastSequence: 4, baseOffset: 100, recordCount: 5, maxTimestamp: 1_700_000_000_001 },
        { firstSequence: 5, lastSequence: 5, baseOffset: 110, recordCount: 1, maxTimestamp: 1_700_000_000_002 },
      ],
    },
    {
      producerId: 2n ** 40n,
      epoch: 0,
      batches: [{ firstSequence: 0x7fff_ffff, lastSequence: 9, baseOffset: 111, recordCount: 11, maxTimestamp: -5 }],
    },
  ],
};

// Composed independently (a Python script following the documented layouts), frozen here.
const GOLDEN_CHECKPOINT = [
  "4e524d31000000124b61666b6150726f647563657253746174650001000101000000b0413481e8",
  `00000036732d${"61".repeat(52)}`, // streamId
  "0000000000000078", // endOffset 120
  "00000002", // producers
  "0000000000000007" + "0003" + "02", // id 7, epoch 3, 2 batches
  "00000000" + "00000004" + "0000000000000064" + "00000005" + "0000018bcfe56801",
  "00000005" + "00000005" + "000000000000006e" + "00000001" + "0000018bcfe56802",
  "0000010000000000" + "0000" + "01",
  "7fffffff" + "00000009" + "000000000000006f" + "0000000b" + "fffffffffffffffb",
].join("");
const GOLDEN_BLOCK =
  "4e524d31000000144b61666b6150726f64756365724964426c6f636b0001000101000000081d17f3ad0000000000000bb8";

describe("producerCheckpointCodec", () => {
  test("golden bytes", () => {
    expect(toHex(codec.encode(FIXTURE))).toBe(GOLDEN_CHECKPOINT);
    expect(codec.decode(fromHex(GOLDEN_CHECKPOINT), KEY)).toEqual(FIXTURE);
  });

  test("every truncation and bit flip is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN_CHECKPOINT), (bytes) => codec.decode(bytes, KEY));
  });

  test("refuses another stream's key, unsorted producers, batches at or above the end, and bad sequences", () => {
    expect(
      violation(() => codec.decode(fromHex(GOLDEN_CHECKPOINT), keyspace.producerStateKey(`s-${"c".repeat(52)}`)))
        .message,
    ).toContain("does not match the key's stream");
    const [first, second] = FIXTURE.producers;
    if (first === undefined || second === undefined) throw new Error("fixture");
    violation(() => codec.encode({ ...FIXTURE, producers: [second, first] }));
    violation(() => codec.encode({ ...FIXTURE, endOffset: 111 }));
    violation(() => codec.encode({ ...FIXTURE, producers: [{ ...first, epoch: -1 }] }));
    violation(() => codec.encode({ ...FIXTURE, producers: [{ ...first, batches: [] }] }));
    violation(() =>
      codec.encode({
        ...FIXTURE,
        producers: [{ ...first, batches: [...first.batches, ...first.batches, ...first.batches] }],
      }),
    );
    violation(() =>
      codec.encode({ ...FIXTURE, producers: [{ ...first, batches: [{ ...first.batches[0]!, lastSequence: -1 }] }] }),
    );
  });
});

describe("producerIdBlockCodec", () => {
  const blockCodec = producerIdBlockCodec(keyspace.producerIdsKey());
  test("golden bytes; decoding is bound to its key", () => {
    expect(toHex(blockCodec.encode({ nextProducerId: 3000 }))).toBe(GOLDEN_BLOCK);
    expect(blockCodec.decode(fromHex(GOLDEN_BLOCK), keyspace.producerIdsKey())).toEqual({ nextProducerId: 3000 });
    violation(() => blockCodec.decode(fromHex(GOLDEN_BLOCK), keyspace.topicKey("x")));
    violation(() => blockCodec.encode({ nextProducerId: -1 }));
  });
});
