import { fromHex, toHex } from "@nereus/core";
import { expectCorruptionRejected, invariantViolation } from "@nereus/core/testing";
import { describe, expect, test } from "vitest";
import { PulsarKeyspace } from "../topics/pulsar-keys.js";
import { parseTopicName } from "../topics/topic-name.js";
import { schemaRecordCodec } from "./schema-record-codec.js";
import type { StoredSchema } from "./stored-schema.js";

const keyspace = new PulsarKeyspace("c1");
const codec = schemaRecordCodec(keyspace);
const ORDERS = parseTopicName("persistent://acme/billing/orders");
const KEY = keyspace.schemaKey(ORDERS, 3n);
const FIXTURE: StoredSchema = {
  topic: ORDERS.fullName,
  version: 3n,
  type: 2,
  data: new TextEncoder().encode('{"type":"string"}'),
  properties: [{ key: "__alwaysAllowNull", value: "true" }],
  createdAtMillis: 1_700_000_000_000,
};

// Frozen golden fixture, composed once from the documented layout by an independent encoder (Python struct and a
// bitwise CRC32C), never regenerated from the TypeScript codec.
const GOLDEN = [
  "4e524d31", // NRM1
  "0000000c50756c736172536368656d61", // recordType "PulsarSchema"
  "0001000101", // schema 1/1, encoding 1
  "0000006e", // payload length 110
  "02f7f706", // payload CRC32C
  "0000002070657273697374656e743a2f2f61636d652f62696c6c696e672f6f7264657273", // topic
  "0000000000000003", // version 3
  "00000002", // type Json
  "000000117b2274797065223a22737472696e67227d", // data
  "00000001", // one property
  "000000115f5f616c77617973416c6c6f774e756c6c", // key "__alwaysAllowNull"
  "0000000474727565", // value "true"
  "0000018bcfe56800", // createdAtMillis
].join("");

describe("PulsarSchema record", () => {
  test("golden bytes", () => {
    expect(toHex(codec.encode(FIXTURE))).toBe(GOLDEN);
    expect(codec.decode(fromHex(GOLDEN), KEY)).toEqual(FIXTURE);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN), (bytes) => codec.decode(bytes, KEY));
  });

  test("a record read under another topic's or version's key is rejected", () => {
    for (const key of [keyspace.schemaKey(ORDERS, 4n), keyspace.schemaKey(parseTopicName("acme/billing/other"), 3n)]) {
      expect(invariantViolation(() => codec.decode(fromHex(GOLDEN), key)).message).toContain("does not match the key");
    }
  });

  test("a partition's topic, an unregistrable type and an oversized definition are refused on encode", () => {
    invariantViolation(() => codec.encode({ ...FIXTURE, topic: `${ORDERS.fullName}-partition-0` }));
    invariantViolation(() => codec.encode({ ...FIXTURE, type: 0 }));
    invariantViolation(() => codec.encode({ ...FIXTURE, type: 21 }));
    invariantViolation(() => codec.encode({ ...FIXTURE, data: new Uint8Array(512 * 1024 + 1) }));
    invariantViolation(() => codec.encode({ ...FIXTURE, version: -1n }));
  });
});
