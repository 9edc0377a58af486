import { InMemoryMetadataStore } from "@nereus/core/testing";
import { afterEach, describe, expect, test } from "vitest";
import { SILENT_LOGGER } from "../../logging/broker-logger.js";
import type { AclBindingFilter } from "./acl-binding-filter.js";
import {
  type AclBinding,
  AclOperation,
  AclPermission,
  CLUSTER_RESOURCE,
  PatternType,
  ResourceType,
  topicResource,
} from "./acl-types.js";
import { type AuthorizationRequest, createKafkaAuthorizer, type KafkaAuthorizer } from "./kafka-authorizer.js";

const ALICE: AuthorizationRequest = { principal: { type: "User", name: "alice" }, peer: "10.0.0.1:4000", apiKey: 0 };
const ADMIN: AuthorizationRequest = { principal: { type: "User", name: "admin" }, peer: "10.0.0.9:4000", apiKey: 30 };
const readOrders: AclBinding = {
  pattern: { resourceType: ResourceType.TOPIC, patternType: PatternType.LITERAL, name: "orders" },
  entry: { principal: "User:alice", host: "*", operation: AclOperation.READ, permission: AclPermission.ALLOW },
};
const writePrefix: AclBinding = {
  pattern: { resourceType: ResourceType.TOPIC, patternType: PatternType.PREFIXED, name: "ord" },
  entry: { principal: "User:alice", host: "10.0.0.1", operation: AclOperation.WRITE, permission: AclPermission.ALLOW },
};
const EVERYTHING: AclBindingFilter = {
  resourceType: ResourceType.ANY,
  name: null,
  patternType: PatternType.ANY,
  principal: null,
  host: null,
  operation: AclOperation.ANY,
  permission: AclPermission.ANY,
};

const opened: KafkaAuthorizer[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((authorizer) => authorizer.close()));
});

function authorizerOn(metadata: InMemoryMetadataStore, denied: string[] = [], refreshIntervalMs = 0): KafkaAuthorizer {
  const authorizer = createKafkaAuthorizer(
    { enabled: true, superUsers: ["User:admin"], refreshIntervalMs },
    { metadata, cluster: "c1", logger: SILENT_LOGGER, clock: Date.now, onDenied: (api) => denied.push(api) },
  );
  authorizer.start();
  opened.push(authorizer);
  return authorizer;
}

describe("KafkaAuthorizer", () => {
  test("disabled: allows everything and has no ACL administration", async () => {
    const authorizer = createKafkaAuthorizer(undefined, {
      metadata: new InMemoryMetadataStore(),
      cluster: "c1",
      logger: SILENT_LOGGER,
      clock: Date.now,
      onDenied: () => undefined,
    });
    expect(authorizer.enabled).toBe(false);
    expect(authorizer.admin).toBeUndefined();
    expect(await authorizer.authorize(ALICE, AclOperation.ALTER, CLUSTER_RESOURCE)).toBe(true);
  });

  test("refuses a super user that is not a principal and a negative refresh interval", () => {
    const dependencies = {
      metadata: new InMemoryMetadataStore(),
      cluster: "c1",
      logger: SILENT_LOGGER,
      clock: Date.now,
      onDenied: () => undefined,
    };
    expect(() => createKafkaAuthorizer({ enabled: true, superUsers: ["admin"] }, dependencies)).toThrow(
      /super user "admin" is not "User:name"/,
    );
    expect(() => createKafkaAuthorizer({ enabled: true, refreshIntervalMs: -1 }, dependencies)).toThrow(
      /refreshIntervalMs/,
    );
  });

  test("created ACLs are enforced at once, counted per API when denied, described by filter and deleted", async () => {
    const denied: string[] = [];
    const authorizer = authorizerOn(new InMemoryMetadataStore(), denied);
    expect(await authorizer.authorize(ALICE, AclOperation.READ, topicResource("orders"))).toBe(false);
    expect(denied).toEqual(["Produce"]);
    expect(await authorizer.authorize(ADMIN, AclOperation.ALTER, CLUSTER_RESOURCE)).toBe(true);

    const admin = authorizer.admin!;
    const invalid: AclBinding = { ...readOrders, entry: { ...readOrders.entry, principal: "alice" } };
    const outcomes = await admin.create([readOrders, writePrefix, invalid, readOrders]);
    expect(outcomes[0]).toBeUndefined();
    expect(outcomes[1]).toBeUndefined();
    expect(outcomes[2]).toEqual({ invalid: expect.stringMatching(/User:name/) });
    expect(outcomes[3]).toBeUndefined();

    const access = await authorizer.access(ALICE);
    expect(access.allows(AclOperation.READ, topicResource("orders"))).toBe(true);
    expect(access.allows(AclOperation.WRITE, topicResource("orders"))).toBe(true);
    expect(access.allows(AclOperation.DESCRIBE, topicResource("ordinal"))).toBe(true);
    expect(access.allows(AclOperation.READ, topicResource("ordinal"))).toBe(false);
    expect(access.permits(AclOperation.READ, topicResource("payments"))).toBe(false);
    expect(denied).toEqual(["Produce", "Produce"]);
    const elsewhere = await authorizer.access({ ...ALICE, peer: "10.0.0.2:4000" });
    expect(elsewhere.allows(AclOperation.WRITE, topicResource("orders"))).toBe(false);

    expect(await admin.describe(EVERYTHING)).toHaveLength(2);
    expect(await admin.describe({ ...EVERYTHING, patternType: PatternType.MATCH, name: "orders" })).toEqual(
      expect.arrayContaining([readOrders, writePrefix]),
    );
    expect(await admin.describe({ ...EVERYTHING, patternType: PatternType.PREFIXED })).toEqual([writePrefix]);

    const deleted = await admin.delete([
      { ...EVERYTHING, operation: AclOperation.WRITE },
      { ...EVERYTHING, name: "nothing" },
    ]);
    expect(deleted).toEqual([[writePrefix], []]);
    expect(await admin.describe(EVERYTHING)).toEqual([readOrders]);
    expect((await authorizer.access(ALICE)).allows(AclOperation.WRITE, topicResource("orders"))).toBe(false);
  });

  test("another broker on the same metadata store follows the changes through its watch", async () => {
    const metadata = new InMemoryMetadataStore();
    const writer = authorizerOn(metadata);
    const reader = authorizerOn(metadata);
    expect(await reader.authorize(ALICE, AclOperation.READ, topicResource("orders"))).toBe(false);
    await writer.admin!.create([readOrders]);
    await expect
      .poll(() => reader.authorize(ALICE, AclOperation.READ, topicResource("orders")), { timeout: 5_000 })
      .toBe(true);
    await writer.admin!.delete([EVERYTHING]);
    await expect
      .poll(() => reader.authorize(ALICE, AclOperation.READ, topicResource("orders")), { timeout: 5_000 })
      .toBe(false);
  });

  test("when the watch cannot start, the periodic reload picks up another broker's change", async () => {
    const metadata = new InMemoryMetadataStore();
    const writer = authorizerOn(metadata);
    const unwatchable = new Proxy(metadata, {
      get: (target, property) => {
        if (property === "watch") return () => Promise.reject(new Error("watch unavailable"));
        const value = Reflect.get(target, property) as unknown;
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const reader = authorizerOn(unwatchable, [], 50);
    expect(await reader.authorize(ALICE, AclOperation.READ, topicResource("orders"))).toBe(false);
    await writer.admin!.create([readOrders]);
    await expect
      .poll(() => reader.authorize(ALICE, AclOperation.READ, topicResource("orders")), { timeout: 5_000 })
      .toBe(true);
  });

  test("the records survive a restart: a new authorizer loads them", async () => {
    const metadata = new InMemoryMetadataStore();
    await authorizerOn(metadata).admin!.create([readOrders, writePrefix]);
    const restarted = authorizerOn(metadata);
    expect(await restarted.admin!.describe(EVERYTHING)).toHaveLength(2);
    expect(await restarted.authorize(ALICE, AclOperation.READ, topicResource("orders"))).toBe(true);
  });
});
