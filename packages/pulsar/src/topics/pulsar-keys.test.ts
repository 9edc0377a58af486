import { ErrorCode } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { thrownError } from "../../test/thrown-error.js";
import { PulsarKeyspace } from "./pulsar-keys.js";
import { parseTopicName } from "./topic-name.js";

const keyspace = new PulsarKeyspace("c1");

describe("PulsarKeyspace", () => {
  test("the documented layout", () => {
    const topic = parseTopicName("persistent://acme/billing/orders-partition-2");
    expect(keyspace.topicKey(topic)).toBe("/nereus/clusters/c1/pulsar/topics/acme/billing/orders-partition-2");
    expect(keyspace.partitionedTopicKey(parseTopicName("acme/billing/orders"))).toBe(
      "/nereus/clusters/c1/pulsar/partitioned-topics/acme/billing/orders",
    );
    expect(keyspace.namespaceTopicsPrefix("acme", "billing")).toBe("/nereus/clusters/c1/pulsar/topics/acme/billing/");
    expect(keyspace.ledgerIdsKey()).toBe("/nereus/clusters/c1/pulsar/ledger-ids");
    expect(keyspace.dedupKey("s-abc")).toBe("/nereus/clusters/c1/pulsar/dedup/s-abc");
    expect(keyspace.namespacePoliciesKey("acme", "billing")).toBe(
      "/nereus/clusters/c1/pulsar/policies/namespaces/acme/billing",
    );
    expect(keyspace.topicPoliciesKey(parseTopicName("acme/billing/orders"))).toBe(
      "/nereus/clusters/c1/pulsar/policies/topics/acme/billing/orders",
    );
    expect(keyspace.schemaKey(parseTopicName("acme/billing/orders"), 12n)).toBe(
      "/nereus/clusters/c1/pulsar/schemas/acme/billing/orders/0000000000000000012",
    );
    expect(keyspace.schemaVersionsPrefix(parseTopicName("acme/billing/orders"))).toBe(
      "/nereus/clusters/c1/pulsar/schemas/acme/billing/orders/",
    );
  });

  test("policy and schema keys parse back; schema keys sort by version", () => {
    const topic = parseTopicName("acme/billing/orders");
    expect(keyspace.parseNamespacePoliciesKey(keyspace.namespacePoliciesKey("acme", "billing"))).toBe("acme/billing");
    expect(keyspace.parseTopicPoliciesKey(keyspace.topicPoliciesKey(topic))).toBe(topic.fullName);
    const versions = [0n, 9n, 10n, 2n ** 63n - 1n];
    const keys = versions.map((version) => keyspace.schemaKey(topic, version));
    expect([...keys].sort()).toEqual(keys);
    expect(keys.map((key) => keyspace.parseSchemaKey(key))).toEqual(
      versions.map((version) => ({ topic: topic.fullName, version })),
    );
    for (const key of [
      `${keyspace.namespacePoliciesKey("acme", "billing")}/x`,
      keyspace.topicPoliciesKey(topic),
      keyspace.topicKey(topic),
    ]) {
      thrownError(() => keyspace.parseNamespacePoliciesKey(key), ErrorCode.DECODE_ERROR);
    }
    for (const key of [
      keyspace.schemaVersionsPrefix(topic) + "12",
      keyspace.schemaVersionsPrefix(topic) + "9".repeat(19),
      keyspace.topicKey(topic) + "/0000000000000000001",
    ]) {
      thrownError(() => keyspace.parseSchemaKey(key), ErrorCode.DECODE_ERROR);
    }
    thrownError(() => keyspace.schemaKey(topic, -1n), ErrorCode.INVALID_ARGUMENT);
  });

  test("topic keys parse back to the full name, and a namespace's topics share its scan prefix", () => {
    const component = fc.stringMatching(/^[-=:.\w]{1,12}$/);
    const local = fc
      .string({ minLength: 1, maxLength: 30 })
      .filter((value) => !value.includes("/") && !value.includes("://"));
    fc.assert(
      fc.property(component, component, local, (tenant, namespace, localName) => {
        const topic = parseTopicName(`${tenant}/${namespace}/${localName}`);
        const key = keyspace.topicKey(topic);
        expect(keyspace.parseTopicKey(key)).toBe(topic.fullName);
        expect(keyspace.parsePartitionedTopicKey(keyspace.partitionedTopicKey(topic))).toBe(topic.fullName);
        expect(key.startsWith(keyspace.namespaceTopicsPrefix(tenant, namespace))).toBe(true);
        expect(key.slice(keyspace.namespaceTopicsPrefix(tenant, namespace).length)).not.toContain("/");
      }),
    );
  });

  test("parsers accept only what the builders produce", () => {
    const topicKey = keyspace.topicKey(parseTopicName("orders"));
    for (const key of [
      `${topicKey}/extra`,
      "/nereus/clusters/c1/pulsar/topics/public/orders",
      "/nereus/clusters/c2/pulsar/topics/public/default/orders",
      "/nereus/clusters/c1/pulsar/topics/public/default/b32-mfzg",
      "/nereus/clusters/c1/pulsar/topics/pub%lic/default/orders",
      keyspace.partitionedTopicKey(parseTopicName("orders")),
    ]) {
      thrownError(() => keyspace.parseTopicKey(key), ErrorCode.DECODE_ERROR);
    }
    expect(keyspace.parseDedupKey(keyspace.dedupKey("s-1"))).toBe("s-1");
    thrownError(() => keyspace.parseDedupKey(`${keyspace.dedupKey("s-1")}/x`), ErrorCode.DECODE_ERROR);
    thrownError(() => keyspace.parseDedupKey(keyspace.ledgerIdsKey()), ErrorCode.DECODE_ERROR);
  });
});
