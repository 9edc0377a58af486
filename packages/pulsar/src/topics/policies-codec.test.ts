import { fromHex, toHex } from "@nereus/core";
import { expectCorruptionRejected, invariantViolation } from "@nereus/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { type StoredNamespacePolicies, namespacePoliciesCodec, topicPoliciesCodec } from "./policies-codec.js";
import { PulsarKeyspace } from "./pulsar-keys.js";
import { parseTopicName } from "./topic-name.js";

const keyspace = new PulsarKeyspace("c1");
const namespaceCodec = namespacePoliciesCodec(keyspace);
const topicCodec = topicPoliciesCodec(keyspace);
const NAMESPACE_KEY = keyspace.namespacePoliciesKey("acme", "billing");
const TOPIC = "persistent://acme/billing/orders";
const TOPIC_KEY = keyspace.topicPoliciesKey(parseTopicName(TOPIC));

const FULL_NAMESPACE: StoredNamespacePolicies = {
  name: "acme/billing",
  policies: {
    deduplicationEnabled: true,
    storageProfile: "OBJECT_WAL_ASYNC_OBJECT",
    autoTopicCreation: { allowed: true, type: "partitioned", defaultPartitions: 4 },
  },
};

// Frozen golden fixtures, composed once from the documented layout by an independent encoder (Python struct and a
// bitwise CRC32C), never regenerated from the TypeScript codec.
const GOLDEN_NAMESPACE = [
  "4e524d31", // NRM1
  "0000001750756c7361724e616d657370616365506f6c6963696573", // recordType "PulsarNamespacePolicies"
  "0001000101", // schema 1/1, encoding 1
  "00000019", // payload length 25
  "9205f828", // payload CRC32C
  "0000000c61636d652f62696c6c696e67", // name "acme/billing"
  "02", // deduplication enabled
  "02", // storageProfile OBJECT_WAL_ASYNC_OBJECT
  "01", // autoTopicCreation set
  "01", // allowed
  "02", // type partitioned
  "00000004", // defaultPartitions 4
].join("");

const GOLDEN_NAMESPACE_SPARSE = [
  "4e524d31",
  "0000001750756c7361724e616d657370616365506f6c6963696573",
  "0001000101",
  "00000013", // payload length 19
  "5112330f", // payload CRC32C
  "0000000c61636d652f62696c6c696e67", // name "acme/billing"
  "01", // deduplication disabled
  "00", // storageProfile unset
  "00", // autoTopicCreation unset
].join("");

const GOLDEN_TOPIC = [
  "4e524d31",
  "0000001350756c736172546f706963506f6c6963696573", // recordType "PulsarTopicPolicies"
  "0001000101",
  "00000026", // payload length 38
  "a7a3d125", // payload CRC32C
  "0000002070657273697374656e743a2f2f61636d652f62696c6c696e672f6f7264657273", // name
  "01", // deduplication disabled
  "01", // storageProfile OBJECT_WAL_SYNC_OBJECT
].join("");

describe("PulsarNamespacePolicies record", () => {
  test("golden bytes, every policy set and few set", () => {
    expect(toHex(namespaceCodec.encode(FULL_NAMESPACE))).toBe(GOLDEN_NAMESPACE);
    expect(namespaceCodec.decode(fromHex(GOLDEN_NAMESPACE), NAMESPACE_KEY)).toEqual(FULL_NAMESPACE);
    const sparse = { name: "acme/billing", policies: { deduplicationEnabled: false } };
    expect(toHex(namespaceCodec.encode(sparse))).toBe(GOLDEN_NAMESPACE_SPARSE);
    expect(namespaceCodec.decode(fromHex(GOLDEN_NAMESPACE_SPARSE), NAMESPACE_KEY)).toEqual(sparse);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN_NAMESPACE), (bytes) => namespaceCodec.decode(bytes, NAMESPACE_KEY));
  });

  test("a record read from another namespace's key is rejected; invalid policies are refused on encode", () => {
    const other = keyspace.namespacePoliciesKey("acme", "other");
    expect(invariantViolation(() => namespaceCodec.decode(fromHex(GOLDEN_NAMESPACE), other)).message).toContain(
      "does not match the key's namespace",
    );
    invariantViolation(() => namespaceCodec.encode({ name: "acme", policies: {} }));
    invariantViolation(() =>
      namespaceCodec.encode({
        name: "acme/billing",
        policies: { autoTopicCreation: { allowed: true, type: "partitioned", defaultPartitions: 0 } },
      }),
    );
    invariantViolation(() =>
      namespaceCodec.encode({ name: "acme/billing", policies: { storageProfile: "OBJECT_WAL" as never } }),
    );
  });

  test("round trip of arbitrary policies", () => {
    const policies = fc.record(
      {
        deduplicationEnabled: fc.boolean(),
        storageProfile: fc.constantFrom(
          "OBJECT_WAL_SYNC_OBJECT" as const,
          "OBJECT_WAL_ASYNC_OBJECT" as const,
          "BOOKKEEPER_WAL_ONLY" as const,
          "BOOKKEEPER_WAL_ASYNC_OBJECT" as const,
          "BOOKKEEPER_WAL_SYNC_OBJECT" as const,
        ),
        autoTopicCreation: fc.record({
          allowed: fc.boolean(),
          type: fc.constantFrom("partitioned" as const, "non-partitioned" as const),
          defaultPartitions: fc.integer({ min: 1, max: 0x7fff_ffff }),
        }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(policies, (value) => {
        const record = { name: "acme/billing", policies: value };
        expect(namespaceCodec.decode(namespaceCodec.encode(record), NAMESPACE_KEY)).toEqual(record);
      }),
    );
  });
});

describe("PulsarTopicPolicies record", () => {
  test("golden bytes", () => {
    const record = {
      name: TOPIC,
      policies: { deduplicationEnabled: false, storageProfile: "OBJECT_WAL_SYNC_OBJECT" as const },
    };
    expect(toHex(topicCodec.encode(record))).toBe(GOLDEN_TOPIC);
    expect(topicCodec.decode(fromHex(GOLDEN_TOPIC), TOPIC_KEY)).toEqual(record);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN_TOPIC), (bytes) => topicCodec.decode(bytes, TOPIC_KEY));
  });

  test("a partition's name, another key, or a namespace-only policy is rejected", () => {
    const other = keyspace.topicPoliciesKey(parseTopicName("persistent://acme/billing/other"));
    expect(invariantViolation(() => topicCodec.decode(fromHex(GOLDEN_TOPIC), other)).message).toContain(
      "does not match the key's topic",
    );
    expect(
      invariantViolation(() => topicCodec.encode({ name: `${TOPIC}-partition-1`, policies: {} })).message,
    ).toContain("is a partition");
    invariantViolation(() =>
      topicCodec.encode({
        name: TOPIC,
        policies: { autoTopicCreation: { allowed: true, type: "partitioned", defaultPartitions: 1 } } as never,
      }),
    );
  });
});
