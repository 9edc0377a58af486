import { fromHex, toHex } from "@nereus/core";
import { expectCorruptionRejected, invariantViolation } from "@nereus/core/testing";
import { describe, expect, test } from "vitest";
import { type PulsarPartitionedTopic, partitionedTopicCodec } from "./partitioned-topic.js";
import { PulsarKeyspace } from "./pulsar-keys.js";
import { parseTopicName } from "./topic-name.js";

const keyspace = new PulsarKeyspace("c1");
const codec = partitionedTopicCodec(keyspace);
const NAME = "persistent://tenant-a/ns1/events";
const KEY = keyspace.partitionedTopicKey(parseTopicName(NAME));
const FIXTURE: PulsarPartitionedTopic = { name: NAME, partitionCount: 4, createdAtMillis: 1_700_000_000_000 };

// Frozen golden fixture, composed once from the documented layout by an independent encoder (Python struct and a
// bitwise CRC32C), never regenerated from the TypeScript codec.
const GOLDEN = [
  "4e524d31", // NRM1
  "0000001650756c736172506172746974696f6e6564546f706963", // recordType "PulsarPartitionedTopic"
  "0001000101", // schema 1/1, encoding 1
  "00000030", // payload length 48
  "c316e112", // payload CRC32C
  "0000002070657273697374656e743a2f2f74656e616e742d612f6e73312f6576656e7473", // name
  "00000004", // partitionCount 4
  "0000018bcfe56800", // createdAtMillis
].join("");

describe("PulsarPartitionedTopic record", () => {
  test("golden bytes", () => {
    expect(toHex(codec.encode(FIXTURE))).toBe(GOLDEN);
    expect(codec.decode(fromHex(GOLDEN), KEY)).toEqual(FIXTURE);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN), (bytes) => codec.decode(bytes, KEY));
  });

  test("a record read from another key is rejected", () => {
    const golden = fromHex(GOLDEN);
    const other = keyspace.partitionedTopicKey(parseTopicName("persistent://tenant-a/ns1/other"));
    expect(invariantViolation(() => codec.decode(golden, other)).message).toContain("does not match the key's topic");
    expect(invariantViolation(() => codec.decode(golden, keyspace.topicKey(parseTopicName(NAME)))).message).toContain(
      "is not a Pulsar partitioned-topic key",
    );
  });

  test("encode refuses records that break the invariants", () => {
    const cases: Array<[Partial<Record<keyof PulsarPartitionedTopic, unknown>>, string]> = [
      [{ name: "events" }, "not canonical"],
      [{ name: "persistent://tenant-a/ns1/events-partition-3" }, "is a partition"],
      [{ partitionCount: 0 }, "partitionCount"],
      [{ partitionCount: 2 ** 31 }, "partitionCount"],
      [{ createdAtMillis: 1.5 }, "createdAtMillis"],
    ];
    for (const [change, message] of cases) {
      const record = { ...FIXTURE, ...change } as PulsarPartitionedTopic;
      expect(invariantViolation(() => codec.encode(record)).message, message).toContain(message);
    }
  });
});
