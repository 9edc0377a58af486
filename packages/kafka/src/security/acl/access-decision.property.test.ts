import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { type AccessPolicy, isAllowed } from "./access-decision.js";
import { AclIndex, type PatternAcls } from "./acl-index.js";
import {
  type AclEntry,
  AclOperation,
  AclPermission,
  type AclResource,
  PatternType,
  ResourceType,
} from "./acl-types.js";

const names = fc.constantFrom("a", "ab", "abc", "b", "ba", "*");
const principals = fc.constantFrom("User:alice", "User:bob", "User:*");
const operations = fc.constantFrom(
  AclOperation.ALL,
  AclOperation.READ,
  AclOperation.WRITE,
  AclOperation.DESCRIBE,
  AclOperation.ALTER_CONFIGS,
  AclOperation.DESCRIBE_CONFIGS,
);
const entryArbitrary: fc.Arbitrary<AclEntry> = fc.record({
  principal: principals,
  host: fc.constantFrom("*", "10.0.0.1", "10.0.0.2"),
  operation: operations,
  permission: fc.constantFrom(AclPermission.ALLOW, AclPermission.DENY),
}) as fc.Arbitrary<AclEntry>;
const patternAcls: fc.Arbitrary<PatternAcls> = fc.record({
  pattern: fc.record({
    resourceType: fc.constantFrom(ResourceType.TOPIC, ResourceType.GROUP),
    name: names,
    patternType: fc.constantFrom(PatternType.LITERAL, PatternType.PREFIXED),
  }),
  entries: fc.array(entryArbitrary, { minLength: 1, maxLength: 3 }),
}) as fc.Arbitrary<PatternAcls>;
const resource: fc.Arbitrary<AclResource> = fc.record({
  resourceType: fc.constantFrom(ResourceType.TOPIC, ResourceType.GROUP),
  name: fc.constantFrom("a", "ab", "abc", "abd", "b", "c"),
}) as fc.Arbitrary<AclResource>;
const request = fc.record({
  principal: fc.constantFrom("User:alice", "User:bob"),
  host: fc.constantFrom("10.0.0.1", "10.0.0.2"),
});
const policy = fc.record({
  superUsers: fc.constant(new Set<string>()),
  allowEveryoneIfNoAclFound: fc.boolean(),
}) as fc.Arbitrary<AccessPolicy>;

/** The patterns that apply to `target`, by a linear scan. */
function applying(patterns: readonly PatternAcls[], target: AclResource): AclEntry[] {
  return patterns
    .filter(
      ({ pattern }) =>
        pattern.resourceType === target.resourceType &&
        (pattern.patternType === PatternType.PREFIXED
          ? target.name.startsWith(pattern.name)
          : pattern.name === target.name || pattern.name === "*"),
    )
    .flatMap(({ entries }) => entries);
}

describe("authorization properties", () => {
  test("the index finds exactly the entries a linear scan finds", () => {
    fc.assert(
      fc.property(fc.array(patternAcls, { maxLength: 8 }), resource, (patterns, target) => {
        const found = new AclIndex(patterns).entriesFor(target);
        expect(found).toHaveLength(applying(patterns, target).length);
        expect(new Set(found)).toEqual(new Set(applying(patterns, target)));
      }),
    );
  });

  test("an added ALLOW never denies, an added DENY never allows, a super user is always allowed", () => {
    fc.assert(
      fc.property(
        fc.array(patternAcls, { maxLength: 6 }),
        patternAcls,
        resource,
        request,
        operations,
        policy,
        (patterns, added, target, requester, operation, rule) => {
          const before = isAllowed(new AclIndex(patterns), rule, requester, operation, target);
          const allows = {
            ...added,
            entries: added.entries.map((entry) => ({ ...entry, permission: AclPermission.ALLOW })),
          };
          const denies = {
            ...added,
            entries: added.entries.map((entry) => ({ ...entry, permission: AclPermission.DENY })),
          };
          const withAllow = isAllowed(new AclIndex([...patterns, allows]), rule, requester, operation, target);
          const withDeny = isAllowed(new AclIndex([...patterns, denies]), rule, requester, operation, target);
          // With allowEveryoneIfNoAclFound, the first ACL of a resource closes it to everyone else: skip that case.
          const hadAcls = applying(patterns, target).length > 0 || !rule.allowEveryoneIfNoAclFound;
          if (before && hadAcls) expect(withAllow).toBe(true);
          if (!before) expect(withDeny).toBe(false);
          const superRule = { ...rule, superUsers: new Set([requester.principal]) };
          expect(isAllowed(new AclIndex([...patterns, denies]), superRule, requester, operation, target)).toBe(true);
        },
      ),
    );
  });
});
