import { fromHex, streamIdFromName, toHex } from "@nereus/core";
import { expectCorruptionRejected, invariantViolation } from "@nereus/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { PulsarKeyspace } from "./pulsar-keys.js";
import { type PulsarTopic, topicStreamName } from "./pulsar-topic.js";
import { topicRecordCodec } from "./topic-record-codec.js";
import { parseTopicName } from "./topic-name.js";

const keyspace = new PulsarKeyspace("c1");
const codec = topicRecordCodec(keyspace);
const NAME = "persistent://public/default/orders";
const KEY = keyspace.topicKey(parseTopicName(NAME));

const FIXTURE: PulsarTopic = {
  name: NAME,
  incarnation: 2,
  state: "ACTIVE",
  streamName: topicStreamName(NAME, 2),
  streamId: streamIdFromName(topicStreamName(NAME, 2)),
  ledgerId: 2n ** 62n + 5n,
  profile: "OBJECT_WAL_ASYNC_OBJECT",
  createdAtMillis: 1_700_000_000_000,
};

// Frozen golden fixture, composed once from the documented layout by an independent encoder (Python struct,
// hashlib and a bitwise CRC32C), never regenerated from the TypeScript codec.
const GOLDEN = [
  "4e524d31", // NRM1
  "0000000b50756c736172546f706963", // recordType "PulsarTopic"
  "0001000101", // schema 1/1, encoding 1
  "000000a9", // payload length 169
  "910e1911", // payload CRC32C
  "0000002270657273697374656e743a2f2f7075626c69632f64656661756c742f6f7264657273", // name
  "0000000000000002", // incarnation 2
  "02", // state ACTIVE
  "0000002b70756c7361722f322f70657273697374656e743a2f2f7075626c69632f64656661756c742f6f7264657273", // streamName
  "00000036732d36683274327a7a76636f327637747a34736e74656d377a6f74747a646d6c3576777366646d356a6a326677776562687672627961", // streamId
  "4000000000000005", // ledgerId 2^62 + 5
  "02", // profile OBJECT_WAL_ASYNC_OBJECT
  "0000018bcfe56800", // createdAtMillis
].join("");

describe("PulsarTopic record", () => {
  test("golden bytes", () => {
    expect(toHex(codec.encode(FIXTURE))).toBe(GOLDEN);
    expect(codec.decode(fromHex(GOLDEN), KEY)).toEqual(FIXTURE);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN), (bytes) => codec.decode(bytes, KEY));
  });

  test("round-trips every valid incarnation", () => {
    const topic = fc
      .record({
        local: fc.stringMatching(/^[a-zA-Z0-9._:-]{1,30}$/),
        incarnation: fc.integer({ min: 1, max: 1_000_000 }),
        state: fc.constantFrom("CREATING", "ACTIVE", "DELETING", "DELETED"),
        ledgerId: fc.bigInt({ min: 2n ** 62n, max: 2n ** 63n - 2n }),
        profile: fc.constantFrom(
          "OBJECT_WAL_SYNC_OBJECT",
          "OBJECT_WAL_ASYNC_OBJECT",
          "BOOKKEEPER_WAL_ONLY",
          "BOOKKEEPER_WAL_ASYNC_OBJECT",
          "BOOKKEEPER_WAL_SYNC_OBJECT",
        ),
        createdAtMillis: fc.nat({ max: Number.MAX_SAFE_INTEGER }),
      })
      .map(({ local, incarnation, ...rest }): PulsarTopic => {
        const name = `persistent://t/ns/${local}`;
        const streamName = topicStreamName(name, incarnation);
        return { name, incarnation, streamName, streamId: streamIdFromName(streamName), ...rest } as PulsarTopic;
      });
    fc.assert(
      fc.property(topic, (value) => {
        expect(codec.decode(codec.encode(value), keyspace.topicKey(parseTopicName(value.name)))).toEqual(value);
      }),
    );
  });

  test("a record read from another topic's key, or from a partitioned-topic key, is rejected", () => {
    const golden = fromHex(GOLDEN);
    const other = keyspace.topicKey(parseTopicName("persistent://public/default/payments"));
    expect(invariantViolation(() => codec.decode(golden, other)).message).toContain("does not match the key's topic");
    const partitioned = keyspace.partitionedTopicKey(parseTopicName(NAME));
    expect(invariantViolation(() => codec.decode(golden, partitioned)).message).toContain("is not a Pulsar topic key");
  });

  test("encode refuses records that break the invariants", () => {
    const cases: Array<[Partial<Record<keyof PulsarTopic, unknown>>, string]> = [
      [{ name: "orders" }, "not a canonical topic name"],
      [{ incarnation: 0 }, "incarnation"],
      [{ incarnation: 3 }, "streamName"],
      [{ streamId: streamIdFromName("other") }, "streamId"],
      [{ ledgerId: 2n ** 62n - 1n }, "ledgerId"],
      [{ ledgerId: 2n ** 63n - 1n }, "ledgerId"],
      [{ ledgerId: 5 }, "ledgerId"],
      [{ profile: "OBJECT_WAL" }, "profile"],
      [{ state: "TERMINATED" }, "state"],
      [{ createdAtMillis: -1 }, "createdAtMillis"],
    ];
    for (const [change, message] of cases) {
      const record = { ...FIXTURE, ...change } as PulsarTopic;
      expect(invariantViolation(() => codec.encode(record)).message, message).toContain(message);
    }
  });
});
