import { fromHex, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { expectCorruptionRejected, violation } from "../../test/record-codec-checks.js";
import { KafkaKeyspace } from "./kafka-keys.js";
import { topicReferenceCodec } from "./topic-reference-codec.js";

const keyspace = new KafkaKeyspace("test");
const codec = topicReferenceCodec(keyspace);
const FIXTURE = { name: "orders", topicId: "0f6b2c1e-3d4a-4b5c-8d9e-a0b1c2d3e4f5" };

// Composed independently (a Python script following the documented layout), frozen here.
const GOLDEN = [
  "4e524d31", // "NRM1"
  "0000000d4b61666b61546f706963526566", // recordType "KafkaTopicRef"
  "0001", // schemaVersion
  "0001", // minReaderSchemaVersion
  "01", // canonical binary v1
  "0000001a", // payload length 26
  "096ac9e9", // payload CRC32C
  "000000066f7264657273", // name "orders"
  "0f6b2c1e3d4a4b5c8d9ea0b1c2d3e4f5", // topicId
].join("");

describe("topicReferenceCodec", () => {
  test("golden bytes, read back from the claim key and from the id key", () => {
    expect(toHex(codec.encode(FIXTURE))).toBe(GOLDEN);
    expect(codec.decode(fromHex(GOLDEN), keyspace.topicClaimKey("orders"))).toEqual(FIXTURE);
    expect(codec.decode(fromHex(GOLDEN), keyspace.topicIdKey(FIXTURE.topicId))).toEqual(FIXTURE);
  });

  test("the claim key of a name is the claim key of every name that collides with it", () => {
    expect(keyspace.topicClaimKey("a.b")).toBe(keyspace.topicClaimKey("a_b"));
    expect(keyspace.topicClaimKey("a.b")).not.toBe(keyspace.topicClaimKey("a-b"));
    const reference = { name: "a.b", topicId: FIXTURE.topicId };
    expect(codec.decode(codec.encode(reference), keyspace.topicClaimKey("a_b"))).toEqual(reference);
  });

  test("a reference read from a key it does not hold is rejected", () => {
    violation(() => codec.decode(fromHex(GOLDEN), keyspace.topicClaimKey("payments")));
    violation(() => codec.decode(fromHex(GOLDEN), keyspace.topicIdKey("11111111-1111-4111-8111-111111111111")));
    violation(() => codec.decode(fromHex(GOLDEN), keyspace.topicKey("orders")));
    violation(() => codec.decode(fromHex(GOLDEN), new KafkaKeyspace("other").topicClaimKey("orders")));
  });

  test("refuses to encode an illegal name or a zero id", () => {
    violation(() => codec.encode({ name: "bad name", topicId: FIXTURE.topicId }));
    violation(() => codec.encode({ name: "orders", topicId: "00000000-0000-0000-0000-000000000000" }));
    violation(() => codec.encode({ name: "orders", topicId: "not-a-uuid" }));
  });

  test("round-trips every valid reference under both of its keys", () => {
    const reference = fc.record({
      name: fc.stringMatching(/^[a-zA-Z0-9._-]{1,249}$/).filter((name) => name !== "." && name !== ".."),
      topicId: fc.uuid().filter((id) => id !== "00000000-0000-0000-0000-000000000000"),
    });
    fc.assert(
      fc.property(reference, (value) => {
        const bytes = codec.encode(value);
        expect(codec.decode(bytes, keyspace.topicClaimKey(value.name))).toEqual(value);
        expect(codec.decode(bytes, keyspace.topicIdKey(value.topicId))).toEqual(value);
      }),
    );
  });

  test("every truncation and bit flip is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN), (bytes) => codec.decode(bytes, keyspace.topicClaimKey("orders")));
  });
});
