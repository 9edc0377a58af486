import { fromHex, toHex } from "@nereus/core";
import { expectCorruptionRejected, invariantViolation } from "@nereus/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { PulsarKeyspace } from "../topics/pulsar-keys.js";
import { parseNamespaceName, parseTopicName } from "../topics/topic-name.js";
import { AUTH_ACTIONS, actionBits, actionsOf } from "./auth-actions.js";
import { PermissionKeyspace } from "./permission-keys.js";
import { type StoredPermissions, namespacePermissionsCodec, topicPermissionsCodec } from "./permission-record-codec.js";

const keyspace = new PermissionKeyspace(new PulsarKeyspace("c1").root);
const namespaceCodec = namespacePermissionsCodec(keyspace);
const topicCodec = topicPermissionsCodec(keyspace);
const NAMESPACE_KEY = keyspace.namespaceKey(parseNamespaceName("acme/billing"));
const TOPIC = "persistent://acme/billing/orders";
const TOPIC_KEY = keyspace.topicKey(parseTopicName(TOPIC));

const NAMESPACE_RECORD: StoredPermissions = {
  name: "acme/billing",
  grants: [
    { role: "alice", actions: ["produce", "consume"] },
    { role: "ops", actions: ["functions", "packages"] },
  ],
  subscriptionAuthMode: "Prefix",
};

// Frozen golden fixtures, composed once from the documented layout by an independent encoder (Python struct and a
// bitwise CRC32C), never regenerated from the TypeScript codec.
const GOLDEN_NAMESPACE = [
  "4e524d31", // NRM1
  "0000001a50756c7361724e616d6573706163655065726d697373696f6e73", // recordType "PulsarNamespacePermissions"
  "0001000101", // schema 1/1, encoding 1
  "00000027", // payload length 39
  "ac2ed65c", // payload CRC32C
  "0000000c61636d652f62696c6c696e67", // name "acme/billing"
  "01", // subscription auth mode Prefix
  "00000002", // 2 grants
  "00000005616c696365", // role "alice"
  "03", // produce | consume
  "000000036f7073", // role "ops"
  "24", // functions | packages
].join("");

const GOLDEN_TOPIC = [
  "4e524d31",
  "0000001650756c736172546f7069635065726d697373696f6e73", // recordType "PulsarTopicPermissions"
  "0001000101",
  "00000030", // payload length 48
  "21e07dfb", // payload CRC32C
  "0000002070657273697374656e743a2f2f61636d652f62696c6c696e672f6f7264657273", // name
  "00000001", // 1 grant
  "00000003626f62", // role "bob"
  "02", // consume
].join("");

describe("permission records", () => {
  test("golden bytes of a namespace and a topic record", () => {
    expect(toHex(namespaceCodec.encode(NAMESPACE_RECORD))).toBe(GOLDEN_NAMESPACE);
    expect(namespaceCodec.decode(fromHex(GOLDEN_NAMESPACE), NAMESPACE_KEY)).toEqual(NAMESPACE_RECORD);
    const topic = { name: TOPIC, grants: [{ role: "bob", actions: ["consume" as const] }] };
    expect(toHex(topicCodec.encode(topic))).toBe(GOLDEN_TOPIC);
    expect(topicCodec.decode(fromHex(GOLDEN_TOPIC), TOPIC_KEY)).toEqual(topic);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN_NAMESPACE), (bytes) => namespaceCodec.decode(bytes, NAMESPACE_KEY));
    expectCorruptionRejected(fromHex(GOLDEN_TOPIC), (bytes) => topicCodec.decode(bytes, TOPIC_KEY));
  });

  test("a record under another key, unsorted or empty grants, and a partition's name are refused", () => {
    const other = keyspace.namespaceKey(parseNamespaceName("acme/other"));
    expect(invariantViolation(() => namespaceCodec.decode(fromHex(GOLDEN_NAMESPACE), other)).message).toContain(
      "does not match",
    );
    const invalid: StoredPermissions[] = [
      { name: "acme/billing", grants: [...NAMESPACE_RECORD.grants].reverse() },
      { name: "acme/billing", grants: [{ role: "alice", actions: [] }] },
      { name: "acme/billing", grants: [{ role: "", actions: ["produce"] }] },
      { name: "acme/billing", grants: [{ role: "alice", actions: ["consume", "produce"] }] },
      { name: "acme/billing", grants: [{ role: "alice", actions: ["admin" as never] }] },
      { name: "acme", grants: [] },
    ];
    for (const record of invalid) invariantViolation(() => namespaceCodec.encode(record));
    invariantViolation(() => topicCodec.encode({ name: TOPIC, grants: [], subscriptionAuthMode: "Prefix" }));
    invariantViolation(() =>
      namespaceCodec.encode({ name: "acme/billing", grants: [], subscriptionAuthMode: "Suffix" as never }),
    );
    invariantViolation(() => topicCodec.encode({ name: `${TOPIC}-partition-0`, grants: [] }));
    invariantViolation(() => topicCodec.encode({ name: "orders", grants: [] }));
  });

  test("a namespace record without a subscription auth mode reads back without one", () => {
    const record = { name: "acme/billing", grants: [{ role: "bob", actions: ["consume" as const] }] };
    expect(namespaceCodec.decode(namespaceCodec.encode(record), NAMESPACE_KEY)).toEqual(record);
  });

  test("round trip of arbitrary grants", () => {
    const grants = fc
      .uniqueArray(
        fc.record({
          role: fc.string({ minLength: 1, maxLength: 20 }),
          actions: fc.subarray([...AUTH_ACTIONS], { minLength: 1 }),
        }),
        { selector: (grant) => grant.role, maxLength: 20 },
      )
      .map((list) =>
        list
          .map((grant) => ({ role: grant.role, actions: actionsOf(actionBits(grant.actions)) }))
          .sort((a, b) => (a.role < b.role ? -1 : 1)),
      );
    fc.assert(
      fc.property(grants, (list) => {
        const record = { name: TOPIC, grants: list };
        expect(topicCodec.decode(topicCodec.encode(record), TOPIC_KEY)).toEqual(record);
      }),
    );
  });
});

describe("PermissionKeyspace", () => {
  test("keys round-trip and a partition's key is its partitioned topic's", () => {
    expect(keyspace.parseNamespaceKey(NAMESPACE_KEY)).toBe("acme/billing");
    expect(keyspace.parseTopicKey(TOPIC_KEY)).toBe(TOPIC);
    expect(keyspace.topicKey(parseTopicName(`${TOPIC}-partition-3`))).toBe(TOPIC_KEY);
    expect(NAMESPACE_KEY).toBe("/nereus/clusters/c1/pulsar/permissions/namespaces/acme/billing");
  });

  test("other keys are refused", () => {
    for (const key of [
      `${NAMESPACE_KEY}/x`,
      TOPIC_KEY.replace("/topics/", "/namespaces/"),
      "/nereus/clusters/c1/pulsar/policies/namespaces/acme/billing",
      `${TOPIC_KEY}/`,
    ]) {
      expect(() => (key.includes("/topics/") ? keyspace.parseTopicKey(key) : keyspace.parseNamespaceKey(key))).toThrow(
        /is not a Pulsar/,
      );
    }
  });
});
