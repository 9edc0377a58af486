import { fromHex, toHex } from "@nereus/core";
import { decodeRecordEnvelope, encodeRecordEnvelope } from "@nereus/core/internal";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { expectCorruptionRejected, violation } from "../../test/record-codec-checks.js";
import { KafkaKeyspace } from "./kafka-keys.js";
import type { KafkaTopic } from "./kafka-topic.js";
import { topicRecordCodec } from "./topic-record-codec.js";

const keyspace = new KafkaKeyspace("test");
const codec = topicRecordCodec(keyspace);

const FIXTURE: KafkaTopic = {
  name: "orders",
  topicId: "0f6b2c1e-3d4a-4b5c-8d9e-a0b1c2d3e4f5",
  state: "ACTIVE",
  partitionCount: 3,
  profile: "OBJECT_WAL_ASYNC_OBJECT",
  configs: { "retention.ms": "86400000", "cleanup.policy": "delete" },
  createdAtMillis: 1_700_000_000_000,
};

// Composed independently (a Python script following the documented layout), frozen here.
const GOLDEN = [
  "4e524d31", // "NRM1"
  "0000000a4b61666b61546f706963", // recordType "KafkaTopic"
  "0001", // schemaVersion
  "0001", // minReaderSchemaVersion
  "01", // canonical binary v1
  "00000064", // payload length 100
  "3dc35871", // payload CRC32C
  "000000066f7264657273", // name "orders"
  "0f6b2c1e3d4a4b5c8d9ea0b1c2d3e4f5", // topicId
  "02", // state ACTIVE
  "00000003", // partitionCount
  "02", // profile OBJECT_WAL_ASYNC_OBJECT
  "00000002", // configCount
  "0000000e636c65616e75702e706f6c696379", // "cleanup.policy"
  "0000000664656c657465", // "delete"
  "0000000c726574656e74696f6e2e6d73", // "retention.ms"
  "000000083836343030303030", // "86400000"
  "0000018bcfe56800", // createdAtMillis
].join("");

const key = keyspace.topicKey("orders");

function repackPayload(bytes: Uint8Array, patch: (payload: Uint8Array) => Uint8Array): Uint8Array {
  const envelope = decodeRecordEnvelope(bytes, "KafkaTopic", 1);
  return encodeRecordEnvelope(envelope, patch(envelope.payload.slice()));
}

describe("topicRecordCodec", () => {
  test("golden bytes", () => {
    expect(toHex(codec.encode(FIXTURE))).toBe(GOLDEN);
    expect(codec.decode(fromHex(GOLDEN), key)).toEqual({
      ...FIXTURE,
      configs: { "cleanup.policy": "delete", "retention.ms": "86400000" },
    });
  });

  test("equal topics encode to equal bytes whatever the config insertion order", () => {
    const reordered = { ...FIXTURE, configs: { "cleanup.policy": "delete", "retention.ms": "86400000" } };
    expect(toHex(codec.encode(reordered))).toBe(GOLDEN);
  });

  test("round-trips every valid topic", () => {
    const topic = fc.record({
      name: fc.stringMatching(/^[a-zA-Z0-9._-]{1,40}$/).filter((name) => name !== "." && name !== ".."),
      topicId: fc.uuid().filter((id) => id !== "00000000-0000-0000-0000-000000000000"),
      state: fc.constantFrom("CREATING", "ACTIVE", "DELETING"),
      partitionCount: fc.integer({ min: 1, max: 0x7fff_ffff }),
      profile: fc.constantFrom(
        "OBJECT_WAL_SYNC_OBJECT",
        "OBJECT_WAL_ASYNC_OBJECT",
        "BOOKKEEPER_WAL_ONLY",
        "BOOKKEEPER_WAL_ASYNC_OBJECT",
        "BOOKKEEPER_WAL_SYNC_OBJECT",
      ),
      configs: fc.dictionary(
        fc.stringMatching(/^[a-z.]{1,20}$/).filter((name) => name !== "__proto__"),
        fc.string({ maxLength: 20 }),
      ),
      createdAtMillis: fc.nat({ max: Number.MAX_SAFE_INTEGER }),
    }) as fc.Arbitrary<KafkaTopic>;
    fc.assert(
      fc.property(topic, (value) => {
        expect(codec.decode(codec.encode(value), keyspace.topicKey(value.name))).toEqual(value);
      }),
    );
  });

  test("every truncation and bit flip is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN), (bytes) => codec.decode(bytes, key));
  });

  test("a record read from another topic's key, or with unsorted configs or a bad state, is rejected", () => {
    const golden = fromHex(GOLDEN);
    expect(violation(() => codec.decode(golden, keyspace.topicKey("payments"))).message).toContain(
      "does not match the key's topic",
    );
    expect(violation(() => codec.decode(golden, keyspace.producerIdsKey())).message).toContain(
      "is not a Kafka topic key",
    );
    const badState = repackPayload(golden, (payload) => {
      payload[10 + 16] = 9;
      return payload;
    });
    expect(violation(() => codec.decode(badState, key)).message).toContain("unknown state id 9");
    const zeroPartitions = repackPayload(golden, (payload) => {
      new DataView(payload.buffer).setUint32(10 + 17, 0);
      return payload;
    });
    expect(violation(() => codec.decode(zeroPartitions, key)).message).toContain("partitionCount");
    const swapped = repackPayload(golden, (payload) => {
      // "cleanup.policy" becomes "zleanup.policy", which sorts after "retention.ms".
      payload[10 + 16 + 1 + 4 + 1 + 4 + 4] = "z".charCodeAt(0);
      return payload;
    });
    expect(violation(() => codec.decode(swapped, key)).message).toContain("not strictly ascending");
  });

  test("encode refuses topics that break invariants", () => {
    const bad: Array<Partial<KafkaTopic>> = [
      { name: "" },
      { topicId: "00000000-0000-0000-0000-000000000000" },
      { topicId: "0F6B2C1E-3D4A-4B5C-8D9E-A0B1C2D3E4F5" },
      { partitionCount: 0 },
      { profile: "OBJECT_WAL" as KafkaTopic["profile"] },
      { state: "DELETED" as KafkaTopic["state"] },
      { createdAtMillis: -1 },
    ];
    for (const patch of bad) violation(() => codec.encode({ ...FIXTURE, ...patch }));
  });
});
