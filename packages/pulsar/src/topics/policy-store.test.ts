import { ErrorCode } from "@nereus/core";
import { InMemoryMetadataStore, expectNereusError } from "@nereus/core/testing";
import { describe, expect, test } from "vitest";
import { PolicyResolver } from "./policy-resolver.js";
import { PolicyStore } from "./policy-store.js";
import { PulsarKeyspace } from "./pulsar-keys.js";
import { parseNamespaceName, parseTopicName } from "./topic-name.js";
import { DEFAULT_AUTO_TOPIC_CREATION, type EffectivePolicies } from "./topic-policies.js";

const keyspace = new PulsarKeyspace("c1");
const BILLING = parseNamespaceName("acme/billing");
const ORDERS = parseTopicName("persistent://acme/billing/orders");
const DEFAULTS: EffectivePolicies = {
  deduplicationEnabled: false,
  storageProfile: "OBJECT_WAL_SYNC_OBJECT",
  autoTopicCreation: DEFAULT_AUTO_TOPIC_CREATION,
};

function fixture(): { metadata: InMemoryMetadataStore; store: PolicyStore } {
  const metadata = new InMemoryMetadataStore();
  return { metadata, store: new PolicyStore(metadata, keyspace) };
}

describe("PolicyStore", () => {
  test("namespace policies: set one at a time, read back by another store, removed field by field and all at once", async () => {
    const { metadata, store } = fixture();
    expect(await store.namespacePolicies(BILLING)).toEqual({});
    await store.updateNamespacePolicies(BILLING, { deduplicationEnabled: true });
    const auto = { allowed: true, type: "partitioned" as const, defaultPartitions: 3 };
    expect(
      await store.updateNamespacePolicies(BILLING, { autoTopicCreation: auto, storageProfile: "OBJECT_WAL" }),
    ).toEqual({
      deduplicationEnabled: true,
      storageProfile: "OBJECT_WAL_SYNC_OBJECT",
      autoTopicCreation: auto,
    });
    const other = new PolicyStore(metadata, keyspace);
    expect(await other.namespacePolicies(BILLING)).toEqual({
      deduplicationEnabled: true,
      storageProfile: "OBJECT_WAL_SYNC_OBJECT",
      autoTopicCreation: auto,
    });
    expect(await store.updateNamespacePolicies(BILLING, { deduplicationEnabled: null })).toEqual({
      storageProfile: "OBJECT_WAL_SYNC_OBJECT",
      autoTopicCreation: auto,
    });
    await store.removeNamespacePolicies(BILLING);
    expect(await other.namespacePolicies(BILLING)).toEqual({});
    expect(await metadata.get(keyspace.namespacePoliciesKey("acme", "billing"))).toBeUndefined();
  });

  test("a partition's topic policies are its partitioned topic's; a change removing the last policy deletes the record", async () => {
    const { metadata, store } = fixture();
    await store.updateTopicPolicies(parseTopicName(`${ORDERS.fullName}-partition-2`), {
      storageProfile: "OBJECT_WAL_ASYNC_OBJECT",
    });
    expect(await store.topicPolicies(ORDERS)).toEqual({ storageProfile: "OBJECT_WAL_ASYNC_OBJECT" });
    expect(await store.topicPolicies(parseTopicName(`${ORDERS.fullName}-partition-0`))).toEqual({
      storageProfile: "OBJECT_WAL_ASYNC_OBJECT",
    });
    await store.updateTopicPolicies(ORDERS, { storageProfile: null });
    expect(await metadata.get(keyspace.topicPoliciesKey(ORDERS))).toBeUndefined();
  });

  test("bad values and namespace-only policies on a topic are refused before any write", async () => {
    const { metadata, store } = fixture();
    await expectNereusError(
      store.updateNamespacePolicies(BILLING, {
        autoTopicCreation: { allowed: true, type: "partitioned", defaultPartitions: 0 },
      }),
      ErrorCode.INVALID_ARGUMENT,
    );
    await expectNereusError(
      store.updateNamespacePolicies(BILLING, { deduplicationEnabled: "yes" as never }),
      ErrorCode.INVALID_ARGUMENT,
    );
    await expectNereusError(
      store.updateNamespacePolicies(BILLING, { storageProfile: "FAST" as never }),
      ErrorCode.UNSUPPORTED_STORAGE_PROFILE,
    );
    await expectNereusError(
      store.updateTopicPolicies(ORDERS, { autoTopicCreation: DEFAULT_AUTO_TOPIC_CREATION } as never),
      ErrorCode.INVALID_ARGUMENT,
    );
    expect((await metadata.scan(`${keyspace.root}/`, { limit: 10 })).items).toEqual([]);
  });

  test("a lost CAS response is resolved by reading again", async () => {
    const { metadata, store } = fixture();
    metadata.faults.add({ op: "txn", mode: "apply-then-lose-response" });
    expect(await store.updateNamespacePolicies(BILLING, { deduplicationEnabled: true })).toEqual({
      deduplicationEnabled: true,
    });
    expect(await new PolicyStore(metadata, keyspace).namespacePolicies(BILLING)).toEqual({
      deduplicationEnabled: true,
    });
  });

  test("a read allowed to be old is served from the cache; writes through the store refresh it", async () => {
    const { metadata, store } = fixture();
    const writer = new PolicyStore(metadata, keyspace);
    expect(await store.namespacePolicies(BILLING, { maxAgeMs: 60_000 })).toEqual({});
    await writer.updateNamespacePolicies(BILLING, { deduplicationEnabled: true });
    expect(await store.namespacePolicies(BILLING, { maxAgeMs: 60_000 })).toEqual({});
    expect(await store.namespacePolicies(BILLING)).toEqual({ deduplicationEnabled: true });
    await store.updateNamespacePolicies(BILLING, { deduplicationEnabled: false });
    expect(await store.namespacePolicies(BILLING, { maxAgeMs: 60_000 })).toEqual({ deduplicationEnabled: false });
  });
});

describe("PolicyResolver", () => {
  test("effective policies: the topic's own, else the namespace's, else the broker's defaults", async () => {
    const { store } = fixture();
    const resolver = new PolicyResolver(store, DEFAULTS, 0);
    expect(await resolver.effective(ORDERS)).toEqual(DEFAULTS);
    expect(await resolver.deduplicationEnabled(ORDERS)).toBe(false);
    await store.updateNamespacePolicies(BILLING, {
      deduplicationEnabled: true,
      storageProfile: "OBJECT_WAL_ASYNC_OBJECT",
      autoTopicCreation: { allowed: false, type: "non-partitioned", defaultPartitions: 1 },
    });
    expect(await resolver.deduplicationEnabled(ORDERS)).toBe(true);
    expect((await resolver.effective(ORDERS)).storageProfile).toBe("OBJECT_WAL_ASYNC_OBJECT");
    expect((await resolver.autoTopicCreation(BILLING)).allowed).toBe(false);
    await store.updateTopicPolicies(ORDERS, { deduplicationEnabled: false, storageProfile: "OBJECT_WAL_SYNC_OBJECT" });
    const partition = parseTopicName(`${ORDERS.fullName}-partition-1`);
    expect(await resolver.effective(partition)).toEqual({
      deduplicationEnabled: false,
      storageProfile: "OBJECT_WAL_SYNC_OBJECT",
      autoTopicCreation: { allowed: false, type: "non-partitioned", defaultPartitions: 1 },
    });
    expect(await resolver.deduplicationEnabled(parseTopicName("persistent://acme/billing/other"))).toBe(true);
    expect(await resolver.deduplicationEnabled(parseTopicName("persistent://acme/other/orders"))).toBe(false);
  });
});
