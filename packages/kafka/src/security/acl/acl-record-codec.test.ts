import { fromHex, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { expectCorruptionRejected, violation } from "../../../test/record-codec-checks.js";
import type { PatternAcls } from "./acl-index.js";
import { AclKeyspace } from "./acl-keys.js";
import { aclRecordCodec, compareEntries } from "./acl-record-codec.js";
import { AclOperation, AclPermission, PatternType, ResourceType, type AclEntry } from "./acl-types.js";

const keyspace = new AclKeyspace("test");
const codec = aclRecordCodec(keyspace);

const SAMPLE: PatternAcls = {
  pattern: { resourceType: ResourceType.TOPIC, patternType: PatternType.PREFIXED, name: "orders-" },
  entries: [
    { principal: "User:alice", host: "*", operation: AclOperation.READ, permission: AclPermission.ALLOW },
    { principal: "User:bob", host: "10.0.0.7", operation: AclOperation.ALL, permission: AclPermission.DENY },
  ],
};
const KEY = keyspace.key(SAMPLE.pattern);

// Composed independently (a Python script following the documented layout), frozen here.
const GOLDEN = [
  "4e524d31", // "NRM1"
  "00000009", // recordType length 9
  "4b61666b6141636c73", // "KafkaAcls"
  "0001", // schemaVersion
  "0001", // minReaderSchemaVersion
  "01", // canonical binary v1
  "00000040", // payload length 64
  "94d2d17d", // payload CRC32C
  "02", // resourceType TOPIC
  "04", // patternType PREFIXED
  "000000076f72646572732d", // name "orders-"
  "00000002", // two entries
  "0000000a557365723a616c696365", // "User:alice"
  "000000012a", // host "*"
  "03", // READ
  "03", // ALLOW
  "00000008557365723a626f62", // "User:bob"
  "0000000831302e302e302e37", // host "10.0.0.7"
  "02", // ALL
  "02", // DENY
].join("");

const entryArbitrary: fc.Arbitrary<AclEntry> = fc.record({
  principal: fc.oneof(
    fc.constant("User:*"),
    fc.string({ minLength: 1, maxLength: 8 }).map((name) => `User:${name}`),
  ),
  host: fc.constantFrom("*", "127.0.0.1", "::1"),
  operation: fc.integer({ min: AclOperation.ALL, max: AclOperation.DESCRIBE_TOKENS }),
  permission: fc.constantFrom(AclPermission.ALLOW, AclPermission.DENY),
}) as fc.Arbitrary<AclEntry>;

describe("aclRecordCodec", () => {
  test("golden bytes; the key names the pattern", () => {
    expect(KEY).toBe("/nereus/clusters/test/kafka/acls/topic/prefixed/orders-");
    expect(toHex(codec.encode(SAMPLE))).toBe(GOLDEN);
    expect(codec.decode(fromHex(GOLDEN), KEY)).toEqual(SAMPLE);
  });

  test("round-trips canonical entry lists of every pattern", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(ResourceType.TOPIC, ResourceType.GROUP, ResourceType.TRANSACTIONAL_ID, ResourceType.USER),
        fc.constantFrom(PatternType.LITERAL, PatternType.PREFIXED),
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.uniqueArray(entryArbitrary, {
          minLength: 1,
          maxLength: 6,
          comparator: (a, b) => compareEntries(a, b) === 0,
        }),
        (resourceType, patternType, name, entries) => {
          const acls = { pattern: { resourceType, patternType, name }, entries: [...entries].sort(compareEntries) };
          expect(codec.decode(codec.encode(acls), keyspace.key(acls.pattern))).toEqual(acls);
        },
      ),
    );
  });

  test("rejects another key, unordered or duplicate entries, no entries and invalid entries", () => {
    violation(() => codec.decode(fromHex(GOLDEN), keyspace.key({ ...SAMPLE.pattern, name: "orders" })));
    violation(() => codec.decode(fromHex(GOLDEN), new AclKeyspace("other").key(SAMPLE.pattern)));
    violation(() =>
      codec.decode(fromHex(GOLDEN), keyspace.key({ ...SAMPLE.pattern, patternType: PatternType.LITERAL })),
    );
    violation(() => codec.encode({ ...SAMPLE, entries: [...SAMPLE.entries].reverse() }));
    violation(() => codec.encode({ ...SAMPLE, entries: [SAMPLE.entries[0]!, SAMPLE.entries[0]!] }));
    violation(() => codec.encode({ ...SAMPLE, entries: [] }));
    violation(() => codec.encode({ ...SAMPLE, entries: [{ ...SAMPLE.entries[0]!, principal: "alice" }] }));
    violation(() => codec.encode({ ...SAMPLE, entries: [{ ...SAMPLE.entries[0]!, operation: AclOperation.ANY }] }));
    violation(() =>
      codec.encode({
        pattern: { resourceType: ResourceType.CLUSTER, patternType: PatternType.LITERAL, name: "other" },
        entries: SAMPLE.entries,
      }),
    );
  });

  test("every truncation and bit flip is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN), (bytes) => codec.decode(bytes, KEY));
  });
});
