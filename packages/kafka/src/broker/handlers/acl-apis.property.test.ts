// The ACL APIs against a model: random CreateAcls creations (valid and invalid codes, names, principals) are each
// stored or refused with INVALID_REQUEST exactly as the creation rules say, DescribeAcls with the match-everything
// filter returns the stored set, and DeleteAcls with random filters removes exactly what the filter matching rule
// selects. The client is a super user (User:ANONYMOUS on a plain connection).
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { BrokerHarness } from "../../../test/broker-harness.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import type { RequestBody } from "../../protocol/supported-apis.js";
import { bindingProblem } from "../../security/acl/acl-binding-check.js";
import { filterMatches } from "../../security/acl/acl-binding-filter.js";
import {
  type AclBinding,
  AclOperation,
  AclPermission,
  PatternType,
  ResourceType,
} from "../../security/acl/acl-types.js";
import { bindingFilterOf, bindingOf } from "./acl-request-filter.js";

type Creation = RequestBody<30>["creations"][number];
type Filter = RequestBody<31>["filters"][number];

const creation: fc.Arbitrary<Creation> = fc.record({
  resourceType: fc.integer({ min: 0, max: 8 }),
  resourceName: fc.constantFrom("", "orders", "ord", "kafka-cluster", "*"),
  resourcePatternType: fc.integer({ min: 0, max: 5 }),
  principal: fc.constantFrom("User:alice", "User:*", "alice", "Group:x"),
  host: fc.constantFrom("*", "10.0.0.1", ""),
  operation: fc.integer({ min: 0, max: 15 }),
  permissionType: fc.integer({ min: 0, max: 4 }),
});
const filter: fc.Arbitrary<Filter> = fc.record({
  resourceTypeFilter: fc.integer({ min: 1, max: 7 }),
  resourceNameFilter: fc.constantFrom(null, "orders", "ord", "kafka-cluster", "*"),
  patternTypeFilter: fc.integer({ min: 1, max: 4 }),
  principalFilter: fc.constantFrom(null, "User:alice", "User:*"),
  hostFilter: fc.constantFrom(null, "*", "10.0.0.1"),
  operation: fc.integer({ min: 1, max: 14 }),
  permissionType: fc.integer({ min: 1, max: 3 }),
});
const EVERYTHING = {
  resourceTypeFilter: ResourceType.ANY,
  resourceNameFilter: null,
  patternTypeFilter: PatternType.ANY,
  principalFilter: null,
  hostFilter: null,
  operation: AclOperation.ANY,
  permissionType: AclPermission.ANY,
};

const key = (binding: AclBinding): string => JSON.stringify([binding.pattern, binding.entry]);

describe("ACL APIs against the model", () => {
  test("creations are stored or refused as the rules say; deletions remove exactly what the filter selects", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(creation, { maxLength: 12 }),
        fc.array(filter, { minLength: 1, maxLength: 2 }),
        async (creations, filters) => {
          const harness = new BrokerHarness({
            authorization: { enabled: true, superUsers: ["User:ANONYMOUS"], refreshIntervalMs: 0 },
          });
          try {
            const client = harness.connect();
            const created = await client.request(30, 3, { creations });
            const model = new Map<string, AclBinding>();
            creations.forEach((wire, index) => {
              const binding = bindingOf(wire);
              const valid = bindingProblem(binding) === undefined;
              expect(created.results[index]?.errorCode).toBe(
                valid ? KafkaErrorCode.NONE : KafkaErrorCode.INVALID_REQUEST,
              );
              if (valid) model.set(key(binding), binding);
            });
            const stored = async (): Promise<string[]> => {
              const described = await client.request(29, 3, EVERYTHING);
              expect(described.errorCode).toBe(0);
              return described.resources
                .flatMap((resource) =>
                  resource.acls.map((acl) =>
                    key(
                      bindingOf({
                        resourceType: resource.resourceType,
                        resourceName: resource.resourceName,
                        resourcePatternType: resource.patternType,
                        principal: acl.principal,
                        host: acl.host,
                        operation: acl.operation,
                        permissionType: acl.permissionType,
                      }),
                    ),
                  ),
                )
                .sort();
            };
            expect(await stored()).toEqual([...model.keys()].sort());

            const deleted = await client.request(31, 3, { filters });
            const remaining = new Map(model);
            filters.forEach((wire, index) => {
              const selected = [...model.values()].filter((binding) => filterMatches(bindingFilterOf(wire), binding));
              expect(deleted.filterResults[index]?.matchingAcls.length).toBe(selected.length);
              for (const binding of selected) remaining.delete(key(binding));
            });
            expect(await stored()).toEqual([...remaining.keys()].sort());
          } finally {
            await harness.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
