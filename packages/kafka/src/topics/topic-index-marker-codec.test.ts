import { fromHex, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { expectCorruptionRejected, violation } from "../../test/record-codec-checks.js";
import { KafkaKeyspace } from "./kafka-keys.js";
import { topicIndexMarkerCodec } from "./topic-index-marker-codec.js";

const keyspace = new KafkaKeyspace("test");
const codec = topicIndexMarkerCodec(keyspace);

// Composed independently (a Python script following the documented layout), frozen here.
const GOLDEN = [
  "4e524d31", // "NRM1"
  "0000000f4b61666b61546f706963496e646578", // recordType "KafkaTopicIndex"
  "0001", // schemaVersion
  "0001", // minReaderSchemaVersion
  "01", // canonical binary v1
  "00000008", // payload length 8
  "1dbd260a", // payload CRC32C
  "0000018bcfe56800", // completedAtMillis 1,700,000,000,000
].join("");

describe("topicIndexMarkerCodec", () => {
  test("golden bytes", () => {
    expect(toHex(codec.encode({ completedAtMillis: 1_700_000_000_000 }))).toBe(GOLDEN);
    expect(codec.decode(fromHex(GOLDEN), keyspace.topicIndexKey())).toEqual({ completedAtMillis: 1_700_000_000_000 });
  });

  test("round-trips every time; rejects another key and a negative time", () => {
    fc.assert(
      fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), (completedAtMillis) => {
        expect(codec.decode(codec.encode({ completedAtMillis }), keyspace.topicIndexKey())).toEqual({
          completedAtMillis,
        });
      }),
    );
    violation(() => codec.decode(fromHex(GOLDEN), new KafkaKeyspace("other").topicIndexKey()));
    violation(() => codec.decode(fromHex(GOLDEN), keyspace.topicsPrefix()));
    violation(() => codec.encode({ completedAtMillis: -1 }));
  });

  test("every truncation and bit flip is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN), (bytes) => codec.decode(bytes, keyspace.topicIndexKey()));
  });
});
