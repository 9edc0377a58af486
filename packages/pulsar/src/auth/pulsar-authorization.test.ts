// The permission store and the authorization checks over an in-memory metadata store: grants replace a role's
// actions, revokes report whether there was anything to revoke, a partition shares its partitioned topic's grants,
// and the checks follow Pulsar's default provider (super users, tenant admins, produce / consume / lookup).
import { InMemoryMetadataStore } from "@nereus/core/testing";
import { describe, expect, test } from "vitest";
import { NamespaceRegistry } from "../admin/namespace-registry.js";
import { PulsarKeyspace } from "../topics/pulsar-keys.js";
import { parseNamespaceName, parseTopicName } from "../topics/topic-name.js";
import { PermissionStore } from "./permission-store.js";
import { PulsarAuthorization } from "./pulsar-authorization.js";
import { TenantAdmins } from "./tenant-admins.js";

const ROOT = new PulsarKeyspace("c1").root;
const NAMESPACE = parseNamespaceName("acme/billing");
const TOPIC = parseTopicName("persistent://acme/billing/orders");
const PARTITION = parseTopicName("persistent://acme/billing/orders-partition-2");
const OTHER_TOPIC = parseTopicName("persistent://acme/billing/invoices");

function setup(): { metadata: InMemoryMetadataStore; store: PermissionStore; authorization: PulsarAuthorization } {
  const metadata = new InMemoryMetadataStore();
  const store = new PermissionStore(metadata, ROOT);
  const authorization = new PulsarAuthorization({
    superUserRoles: ["admin"],
    permissions: store,
    tenantAdmins: new TenantAdmins(metadata, ROOT),
    cacheMs: 0,
  });
  return { metadata, store, authorization };
}

describe("PermissionStore", () => {
  test("a grant replaces the role's actions; revoke removes them and the last revoke deletes the record", async () => {
    const { metadata, store } = setup();
    await store.grantOnNamespace(NAMESPACE, "bob", ["consume"]);
    await store.grantOnNamespace(NAMESPACE, "alice", ["consume", "produce"]);
    expect(await store.namespacePermissions(NAMESPACE)).toEqual([
      { role: "alice", actions: ["produce", "consume"] },
      { role: "bob", actions: ["consume"] },
    ]);
    await store.grantOnNamespace(NAMESPACE, "alice", ["functions"]);
    expect((await store.namespacePermissions(NAMESPACE))[0]).toEqual({ role: "alice", actions: ["functions"] });
    expect(await store.revokeOnNamespace(NAMESPACE, "alice")).toBe(true);
    expect(await store.revokeOnNamespace(NAMESPACE, "alice")).toBe(false);
    expect(await store.revokeOnNamespace(NAMESPACE, "bob")).toBe(true);
    expect(await store.namespacePermissions(NAMESPACE)).toEqual([]);
    expect((await metadata.scan(`${ROOT}/permissions/`, { limit: 10 })).items).toEqual([]);
  });

  test("a partition reads and writes its partitioned topic's grants; a new store reads them back", async () => {
    const { metadata, store } = setup();
    await store.grantOnTopic(PARTITION, "carol", ["produce"]);
    expect(await store.topicPermissions(TOPIC)).toEqual([{ role: "carol", actions: ["produce"] }]);
    expect(await new PermissionStore(metadata, ROOT).topicPermissions(PARTITION)).toEqual([
      { role: "carol", actions: ["produce"] },
    ]);
    await store.removeTopic(TOPIC);
    expect(await store.topicPermissions(PARTITION)).toEqual([]);
  });

  test("the subscription auth mode is kept next to the grants; the record goes once neither is left", async () => {
    const { metadata, store } = setup();
    expect(await store.subscriptionAuthMode(NAMESPACE)).toBe("None");
    await store.setSubscriptionAuthMode(NAMESPACE, "Prefix");
    await store.grantOnNamespace(NAMESPACE, "bob", ["consume"]);
    expect(await store.revokeOnNamespace(NAMESPACE, "bob")).toBe(true);
    expect(await new PermissionStore(metadata, ROOT).subscriptionAuthMode(NAMESPACE)).toBe("Prefix");
    await store.setSubscriptionAuthMode(NAMESPACE, "None");
    expect((await metadata.scan(`${ROOT}/permissions/`, { limit: 10 })).items).toEqual([]);
  });

  test("a grant without actions or role is refused before any write", async () => {
    const { store } = setup();
    await expect(store.grantOnNamespace(NAMESPACE, "bob", [])).rejects.toThrow(/at least one action/);
    await expect(store.grantOnTopic(TOPIC, "", ["produce"])).rejects.toThrow(/non-empty role/);
    await expect(store.grantOnTopic(TOPIC, "\uD800", ["produce"])).rejects.toThrow(/well-formed/);
  });
});

describe("PulsarAuthorization", () => {
  test("produce and consume need that action on the namespace or the topic; lookup needs either", async () => {
    const { store, authorization } = setup();
    const allowed = (role: string, topic = TOPIC) =>
      Promise.all(
        (["produce", "consume", "lookup"] as const).map((operation) =>
          authorization.allowTopicOperation(role, topic, operation),
        ),
      );
    expect(await allowed("alice")).toEqual([false, false, false]);
    await store.grantOnNamespace(NAMESPACE, "alice", ["produce"]);
    expect(await allowed("alice")).toEqual([true, false, true]);
    await store.grantOnTopic(TOPIC, "bob", ["consume"]);
    expect(await allowed("bob")).toEqual([false, true, true]);
    expect(await allowed("bob", PARTITION)).toEqual([false, true, true]);
    expect(await allowed("bob", OTHER_TOPIC)).toEqual([false, false, false]);
    await store.grantOnNamespace(NAMESPACE, "dan", ["functions"]);
    expect(await allowed("dan")).toEqual([false, false, false]);
    expect(await authorization.allowNamespaceLookup("alice", NAMESPACE)).toBe(true);
    expect(await authorization.allowNamespaceLookup("bob", NAMESPACE)).toBe(false);
  });

  test("with the Prefix subscription auth mode, subscriptions must start with the role (super users excepted)", async () => {
    const { store, authorization } = setup();
    expect(await authorization.subscriptionRefusal("alice", TOPIC, "audit")).toBeUndefined();
    await store.setSubscriptionAuthMode(NAMESPACE, "Prefix");
    expect(await authorization.subscriptionRefusal("alice", TOPIC, "audit")).toContain(
      "prefixed by the authentication role",
    );
    expect(await authorization.subscriptionRefusal("alice", PARTITION, "alice-audit")).toBeUndefined();
    expect(await authorization.subscriptionRefusal("admin", TOPIC, "audit")).toBeUndefined();
  });

  test("super users and the tenant's admin roles may do anything in it", async () => {
    const { metadata, authorization } = setup();
    expect(await authorization.allowTopicOperation("admin", TOPIC, "consume")).toBe(true);
    expect(authorization.isSuperUser("admin")).toBe(true);
    expect(await authorization.isTenantAdmin("ops", "acme")).toBe(false);
    await new NamespaceRegistry(metadata, ROOT, "c1").createTenant("acme", ["ops"], ["c1"]);
    expect(await authorization.isTenantAdmin("ops", "acme")).toBe(true);
    expect(await authorization.isTenantAdmin("ops", "public")).toBe(false);
    expect(await authorization.allowTopicOperation("ops", TOPIC, "produce")).toBe(true);
    expect(await authorization.allowNamespaceLookup("ops", NAMESPACE)).toBe(true);
    expect(await authorization.allowTopicOperation("ops", parseTopicName("persistent://other/ns/t"), "produce")).toBe(
      false,
    );
  });

  test("reads are cached for cacheMs: a grant made through another store is seen once the cache is stale", async () => {
    const metadata = new InMemoryMetadataStore();
    let now = 0;
    const clock = (): number => now;
    const store = new PermissionStore(metadata, ROOT, clock);
    const authorization = new PulsarAuthorization({
      superUserRoles: [],
      permissions: store,
      tenantAdmins: new TenantAdmins(metadata, ROOT, clock),
      cacheMs: 1_000,
    });
    expect(await authorization.allowTopicOperation("alice", TOPIC, "produce")).toBe(false);
    await new PermissionStore(metadata, ROOT).grantOnNamespace(NAMESPACE, "alice", ["produce"]);
    expect(await authorization.allowTopicOperation("alice", TOPIC, "produce")).toBe(false);
    now = 1_000;
    expect(await authorization.allowTopicOperation("alice", TOPIC, "produce")).toBe(true);
  });
});
