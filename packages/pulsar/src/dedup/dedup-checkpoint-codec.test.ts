import { fromHex, streamIdFromName, toHex } from "@nereus/core";
import { expectCorruptionRejected, invariantViolation } from "@nereus/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { PulsarKeyspace } from "../topics/pulsar-keys.js";
import { type DedupCheckpoint, dedupCheckpointCodec } from "./dedup-checkpoint-codec.js";
import { ProducerSequences } from "./producer-sequences.js";

const keyspace = new PulsarKeyspace("c1");
const codec = dedupCheckpointCodec(keyspace);
const STREAM = streamIdFromName("pulsar/1/persistent://public/default/orders");
const KEY = keyspace.dedupKey(STREAM);
const FIXTURE: DedupCheckpoint = {
  streamId: STREAM,
  endOffset: 42,
  producers: [
    { producerName: "producer-a", lastSequenceId: 17n },
    { producerName: "standalone-0-3", lastSequenceId: -1n },
  ],
};

// Frozen golden fixture, composed once from the documented layout by an independent encoder (Python struct,
// hashlib and a bitwise CRC32C), never regenerated from the TypeScript codec.
const GOLDEN = [
  "4e524d31", // NRM1
  "0000001550756c7361724465647570436865636b706f696e74", // recordType "PulsarDedupCheckpoint"
  "0001000101", // schema 1/1, encoding 1
  "00000076", // payload length 118
  "0b93a774", // payload CRC32C
  "00000036732d6163723365367337356f6c346f6e6f67727463677163666c76777875796f6a6f6368343363336a66646967686968747175756671", // streamId
  "000000000000002a", // endOffset 42
  "00000002", // producerCount 2
  "0000000a70726f64756365722d61", // producerName "producer-a"
  "0000000000000011", // lastSequenceId 17
  "0000000e7374616e64616c6f6e652d302d33", // producerName "standalone-0-3"
  "ffffffffffffffff", // lastSequenceId -1
].join("");

describe("PulsarDedupCheckpoint record", () => {
  test("golden bytes", () => {
    expect(toHex(codec.encode(FIXTURE))).toBe(GOLDEN);
    expect(codec.decode(fromHex(GOLDEN), KEY)).toEqual(FIXTURE);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN), (bytes) => codec.decode(bytes, KEY));
  });

  test("a table's checkpoint round-trips, producers in UTF-8 byte order", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ minLength: 1, maxLength: 12 }),
          fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        ),
        fc.nat({ max: 1_000_000 }),
        (table, offset) => {
          const sequences = new ProducerSequences();
          for (const [name, sequenceId] of Object.entries(table)) sequences.applyEntry(offset, name, sequenceId);
          const checkpoint = sequences.checkpoint(STREAM);
          const decoded = codec.decode(codec.encode(checkpoint), KEY);
          expect(decoded).toEqual(checkpoint);
          expect(ProducerSequences.fromCheckpoint(decoded).checkpoint(STREAM)).toEqual(checkpoint);
        },
      ),
    );
  });

  test("a checkpoint read from another stream's key, unsorted or duplicated producers are rejected", () => {
    const golden = fromHex(GOLDEN);
    expect(invariantViolation(() => codec.decode(golden, keyspace.dedupKey("s-other"))).message).toContain("streamId");
    const [first, second] = FIXTURE.producers;
    invariantViolation(() => codec.encode({ ...FIXTURE, producers: [second!, first!] }));
    invariantViolation(() => codec.encode({ ...FIXTURE, producers: [first!, first!] }));
    invariantViolation(() => codec.encode({ ...FIXTURE, producers: [{ producerName: "", lastSequenceId: 1n }] }));
    invariantViolation(() =>
      codec.encode({ ...FIXTURE, producers: [{ producerName: "p", lastSequenceId: 2n ** 63n }] }),
    );
    invariantViolation(() => codec.encode({ ...FIXTURE, endOffset: -1 }));
  });
});
