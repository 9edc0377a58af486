import { describe, expect, test } from "vitest";
import { type AclBindingFilter, filterMatches, filterProblem } from "./acl-binding-filter.js";
import { type AclBinding, AclOperation, AclPermission, PatternType, ResourceType } from "./acl-types.js";

const binding = (name: string, patternType: PatternType, operation = AclOperation.READ): AclBinding => ({
  pattern: { resourceType: ResourceType.TOPIC, patternType, name },
  entry: { principal: "User:alice", host: "*", operation, permission: AclPermission.ALLOW },
});
const ALL: AclBindingFilter = {
  resourceType: ResourceType.ANY,
  name: null,
  patternType: PatternType.ANY,
  principal: null,
  host: null,
  operation: AclOperation.ANY,
  permission: AclPermission.ANY,
};

describe("filterMatches", () => {
  const stored = [
    binding("orders", PatternType.LITERAL),
    binding("*", PatternType.LITERAL),
    binding("ord", PatternType.PREFIXED),
    binding("pay", PatternType.PREFIXED),
  ];
  const names = (filter: AclBindingFilter): string[] =>
    stored.filter((candidate) => filterMatches(filter, candidate)).map((candidate) => candidate.pattern.name);

  test("the ANY filter with null strings selects everything", () => {
    expect(names(ALL)).toEqual(["orders", "*", "ord", "pay"]);
  });

  test("LITERAL and PREFIXED filters select their pattern type and exact name", () => {
    expect(names({ ...ALL, patternType: PatternType.LITERAL, name: "orders" })).toEqual(["orders"]);
    expect(names({ ...ALL, patternType: PatternType.PREFIXED, name: "orders" })).toEqual([]);
    expect(names({ ...ALL, patternType: PatternType.PREFIXED })).toEqual(["ord", "pay"]);
    expect(names({ ...ALL, name: "ord" })).toEqual(["ord"]);
  });

  test("MATCH selects every binding that applies to the named resource", () => {
    expect(names({ ...ALL, patternType: PatternType.MATCH, name: "orders" })).toEqual(["orders", "*", "ord"]);
    expect(names({ ...ALL, patternType: PatternType.MATCH, name: "payments" })).toEqual(["*", "pay"]);
  });

  test("entry fields: principal, host, operation and permission must be equal unless null or ANY", () => {
    expect(names({ ...ALL, principal: "User:bob" })).toEqual([]);
    expect(names({ ...ALL, principal: "User:alice", host: "*" })).toHaveLength(4);
    expect(names({ ...ALL, operation: AclOperation.WRITE })).toEqual([]);
    expect(names({ ...ALL, permission: AclPermission.DENY })).toEqual([]);
    expect(names({ ...ALL, resourceType: ResourceType.GROUP })).toEqual([]);
  });
});

describe("filterProblem", () => {
  test("refuses UNKNOWN and out-of-range codes", () => {
    expect(filterProblem(ALL)).toBeUndefined();
    expect(filterProblem({ ...ALL, resourceType: ResourceType.UNKNOWN })).toMatch(/resource type/);
    expect(filterProblem({ ...ALL, patternType: 9 })).toMatch(/pattern type/);
    expect(filterProblem({ ...ALL, operation: AclOperation.UNKNOWN })).toMatch(/operation/);
    expect(filterProblem({ ...ALL, permission: 7 })).toMatch(/permission/);
  });
});
