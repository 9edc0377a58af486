import { describe, expect, test } from "vitest";
import { type AccessPolicy, isAllowed, isAllowedOnAny, type Requester } from "./access-decision.js";
import { AclIndex, type PatternAcls } from "./acl-index.js";
import {
  type AclEntry,
  AclOperation,
  AclPermission,
  CLUSTER_RESOURCE,
  PatternType,
  type ResourcePattern,
  ResourceType,
  topicResource,
} from "./acl-types.js";

const ALICE: Requester = { principal: "User:alice", host: "10.0.0.1" };
const BOB: Requester = { principal: "User:bob", host: "10.0.0.2" };
const STRICT: AccessPolicy = { superUsers: new Set(), allowEveryoneIfNoAclFound: false };

const literal = (name: string): ResourcePattern => ({
  resourceType: ResourceType.TOPIC,
  patternType: PatternType.LITERAL,
  name,
});
const prefixed = (name: string): ResourcePattern => ({
  resourceType: ResourceType.TOPIC,
  patternType: PatternType.PREFIXED,
  name,
});
const entry = (
  principal: string,
  operation: AclOperation,
  permission: AclPermission = AclPermission.ALLOW,
  host = "*",
): AclEntry => ({ principal, host, operation, permission });
const index = (...patterns: Array<[ResourcePattern, ...AclEntry[]]>): AclIndex =>
  new AclIndex(patterns.map(([pattern, ...entries]): PatternAcls => ({ pattern, entries })));

describe("isAllowed", () => {
  test("a LITERAL ALLOW grants its operation on that name only, to that principal only", () => {
    const acls = index([literal("orders"), entry("User:alice", AclOperation.READ)]);
    expect(isAllowed(acls, STRICT, ALICE, AclOperation.READ, topicResource("orders"))).toBe(true);
    expect(isAllowed(acls, STRICT, ALICE, AclOperation.WRITE, topicResource("orders"))).toBe(false);
    expect(isAllowed(acls, STRICT, ALICE, AclOperation.READ, topicResource("orders2"))).toBe(false);
    expect(isAllowed(acls, STRICT, BOB, AclOperation.READ, topicResource("orders"))).toBe(false);
  });

  test("DENY wins over any ALLOW, including ALL, wildcard and prefixed grants", () => {
    const acls = index(
      [literal("*"), entry("User:*", AclOperation.ALL)],
      [prefixed("ord"), entry("User:alice", AclOperation.WRITE, AclPermission.DENY)],
    );
    expect(isAllowed(acls, STRICT, ALICE, AclOperation.WRITE, topicResource("orders"))).toBe(false);
    expect(isAllowed(acls, STRICT, ALICE, AclOperation.READ, topicResource("orders"))).toBe(true);
    expect(isAllowed(acls, STRICT, ALICE, AclOperation.WRITE, topicResource("payments"))).toBe(true);
    expect(isAllowed(acls, STRICT, BOB, AclOperation.WRITE, topicResource("orders"))).toBe(true);
  });

  test("a DENY of ALL denies every operation; a DENY of DESCRIBE does not deny READ (no implication for DENY)", () => {
    const all = index([
      literal("t"),
      entry("User:alice", AclOperation.READ),
      entry("User:alice", AclOperation.ALL, AclPermission.DENY),
    ]);
    expect(isAllowed(all, STRICT, ALICE, AclOperation.READ, topicResource("t"))).toBe(false);
    const describe = index([
      literal("t"),
      entry("User:alice", AclOperation.READ),
      entry("User:alice", AclOperation.DESCRIBE, AclPermission.DENY),
    ]);
    expect(isAllowed(describe, STRICT, ALICE, AclOperation.READ, topicResource("t"))).toBe(true);
    expect(isAllowed(describe, STRICT, ALICE, AclOperation.DESCRIBE, topicResource("t"))).toBe(false);
  });

  test("PREFIXED patterns match names that start with them; LITERAL '*' matches every name", () => {
    const acls = index(
      [prefixed("billing-"), entry("User:alice", AclOperation.READ)],
      [literal("*"), entry("User:bob", AclOperation.WRITE)],
    );
    expect(isAllowed(acls, STRICT, ALICE, AclOperation.READ, topicResource("billing-eu"))).toBe(true);
    expect(isAllowed(acls, STRICT, ALICE, AclOperation.READ, topicResource("billing-"))).toBe(true);
    expect(isAllowed(acls, STRICT, ALICE, AclOperation.READ, topicResource("billing"))).toBe(false);
    expect(isAllowed(acls, STRICT, BOB, AclOperation.WRITE, topicResource("anything"))).toBe(true);
  });

  test("the wildcard principal and host match everyone; a host entry matches only that address", () => {
    const acls = index([
      literal("t"),
      entry("User:*", AclOperation.READ),
      entry("User:alice", AclOperation.WRITE, AclPermission.ALLOW, "10.0.0.1"),
    ]);
    expect(isAllowed(acls, STRICT, BOB, AclOperation.READ, topicResource("t"))).toBe(true);
    expect(isAllowed(acls, STRICT, ALICE, AclOperation.WRITE, topicResource("t"))).toBe(true);
    expect(isAllowed(acls, STRICT, { ...ALICE, host: "10.0.0.9" }, AclOperation.WRITE, topicResource("t"))).toBe(false);
  });

  test("READ, WRITE, DELETE and ALTER imply DESCRIBE; ALTER_CONFIGS implies DESCRIBE_CONFIGS; nothing else", () => {
    for (const operation of [AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE, AclOperation.ALTER]) {
      const acls = index([literal("t"), entry("User:alice", operation)]);
      expect(isAllowed(acls, STRICT, ALICE, AclOperation.DESCRIBE, topicResource("t"))).toBe(true);
      expect(isAllowed(acls, STRICT, ALICE, AclOperation.DESCRIBE_CONFIGS, topicResource("t"))).toBe(false);
    }
    const configs = index([literal("t"), entry("User:alice", AclOperation.ALTER_CONFIGS)]);
    expect(isAllowed(configs, STRICT, ALICE, AclOperation.DESCRIBE_CONFIGS, topicResource("t"))).toBe(true);
    expect(isAllowed(configs, STRICT, ALICE, AclOperation.DESCRIBE, topicResource("t"))).toBe(false);
    const create = index([literal("t"), entry("User:alice", AclOperation.CREATE)]);
    expect(isAllowed(create, STRICT, ALICE, AclOperation.DESCRIBE, topicResource("t"))).toBe(false);
    const describe = index([literal("t"), entry("User:alice", AclOperation.DESCRIBE)]);
    expect(isAllowed(describe, STRICT, ALICE, AclOperation.READ, topicResource("t"))).toBe(false);
  });

  test("super users may do anything, even against a DENY", () => {
    const acls = index([literal("t"), entry("User:*", AclOperation.ALL, AclPermission.DENY)]);
    const policy: AccessPolicy = { superUsers: new Set(["User:alice"]), allowEveryoneIfNoAclFound: false };
    expect(isAllowed(acls, policy, ALICE, AclOperation.WRITE, topicResource("t"))).toBe(true);
    expect(isAllowed(acls, policy, ALICE, AclOperation.ALTER, CLUSTER_RESOURCE)).toBe(true);
    expect(isAllowed(acls, policy, BOB, AclOperation.WRITE, topicResource("t"))).toBe(false);
  });

  test("a resource without ACLs is closed unless allowEveryoneIfNoAclFound; with any ACL the ACLs decide", () => {
    const acls = index([literal("guarded"), entry("User:bob", AclOperation.READ)]);
    const open: AccessPolicy = { superUsers: new Set(), allowEveryoneIfNoAclFound: true };
    expect(isAllowed(acls, STRICT, ALICE, AclOperation.READ, topicResource("free"))).toBe(false);
    expect(isAllowed(acls, open, ALICE, AclOperation.READ, topicResource("free"))).toBe(true);
    expect(isAllowed(acls, open, ALICE, AclOperation.READ, topicResource("guarded"))).toBe(false);
  });

  test("resource types are separate: a TOPIC grant says nothing about a GROUP of the same name", () => {
    const acls = index([literal("shared"), entry("User:alice", AclOperation.ALL)]);
    expect(
      isAllowed(acls, STRICT, ALICE, AclOperation.READ, { resourceType: ResourceType.GROUP, name: "shared" }),
    ).toBe(false);
  });
});

describe("isAllowedOnAny", () => {
  test("WRITE on some topic (literal or prefixed) grants it; a covering DENY takes it back", () => {
    const granted = index([prefixed("orders-"), entry("User:alice", AclOperation.WRITE)]);
    expect(isAllowedOnAny(granted, STRICT, ALICE, AclOperation.WRITE, ResourceType.TOPIC)).toBe(true);
    expect(isAllowedOnAny(granted, STRICT, BOB, AclOperation.WRITE, ResourceType.TOPIC)).toBe(false);
    expect(isAllowedOnAny(granted, STRICT, ALICE, AclOperation.WRITE, ResourceType.GROUP)).toBe(false);
    const wildcardDeny = index(
      [prefixed("orders-"), entry("User:alice", AclOperation.WRITE)],
      [literal("*"), entry("User:alice", AclOperation.WRITE, AclPermission.DENY)],
    );
    expect(isAllowedOnAny(wildcardDeny, STRICT, ALICE, AclOperation.WRITE, ResourceType.TOPIC)).toBe(false);
    const prefixDeny = index(
      [prefixed("orders-eu"), entry("User:alice", AclOperation.WRITE)],
      [prefixed("orders-"), entry("User:alice", AclOperation.ALL, AclPermission.DENY)],
    );
    expect(isAllowedOnAny(prefixDeny, STRICT, ALICE, AclOperation.WRITE, ResourceType.TOPIC)).toBe(false);
    const partialDeny = index(
      [prefixed("orders-"), entry("User:alice", AclOperation.WRITE)],
      [literal("orders-eu"), entry("User:alice", AclOperation.WRITE, AclPermission.DENY)],
    );
    expect(isAllowedOnAny(partialDeny, STRICT, ALICE, AclOperation.WRITE, ResourceType.TOPIC)).toBe(true);
  });
});
