import { fromHex, toHex } from "@nereus/core";
import { isWellFormedString } from "@nereus/core/internal";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { expectCorruptionRejected, invariantViolation } from "@nereus/core/testing";
import { objectProtectionCodec } from "./object-protection-codec.js";
import {
  objectKeyHash,
  objectProtectionKey,
  parsePhysicalObjectRootKey,
  physicalObjectRootKey,
} from "./physical-object-keys.js";
import type { ObjectProtection, PhysicalObjectRoot } from "./physical-object-records.js";
import { physicalObjectRootCodec } from "./physical-object-root-codec.js";
import { protectionReferenceId } from "./physical-object-roots.js";

const OBJECT_KEY = "unit/wal/v1/2026/11/30/abc/run/0000000000000000001.nrs";
const HASH = "17a0052f2686469adee8cc077db3fa055e7f045a9b0459c6b762b304fcbe8a4e";

const FIXTURE_ROOT: PhysicalObjectRoot = {
  objectKey: OBJECT_KEY,
  objectKeyHash: HASH,
  objectId: "wo-run-0000000000000000001",
  kind: "OBJECT_WAL",
  lifecycle: "ACTIVE",
  lifecycleEpoch: 0,
  writerId: "broker-1",
  processRunId: "run",
  createdAtMillis: 1_764_504_000_000,
  orphanNotBeforeMillis: 1_764_590_400_000,
  objectLength: 4096,
  storageChecksum: 0xe3069283,
  formatMajor: 1,
  formatMinor: 0,
  sliceCount: 3,
  manifestOffset: 3900,
  manifestLength: 172,
  manifestChecksum: 0x12345678,
};

const FIXTURE_PROTECTION: ObjectProtection = {
  objectKeyHash: HASH,
  type: "REACHABLE_APPEND",
  referenceId: "ra1-abc",
  ownerKey: "/nereus/clusters/unit/streams/s-x/commit-log/c1",
  streamId: "s-x",
  rootLifecycleEpoch: 0,
};

// Frozen golden fixtures, produced once by an independent encoder of the documented layouts.
const GOLDEN_ROOT = [
  "4e524d31", // magic
  "00000012506879736963616c4f626a656374526f6f74", // recordType "PhysicalObjectRoot"
  "0001000101", // schemaVersion 1, minReaderSchemaVersion 1, payloadEncoding 1
  "000000ed", // payloadLength 237
  "9fc0bd4f", // payloadCrc32c
  "00000036756e69742f77616c2f76312f323032362f31312f33302f6162632f72756e2f303030303030303030303030303030303030312e6e7273", // objectKey
  "0000004031376130303532663236383634363961646565386363303737646233666130353565376630343561396230343539633662373632623330346663626538613465", // objectKeyHash
  "0000001a776f2d72756e2d30303030303030303030303030303030303031", // objectId
  "0101", // kind OBJECT_WAL, lifecycle ACTIVE
  "0000000000000000", // lifecycleEpoch 0
  "0000000862726f6b65722d31", // writerId
  "0000000372756e", // processRunId
  "0000019ad4a25600", // createdAtMillis
  "0000019ad9c8b200", // orphanNotBeforeMillis
  "0000000000001000", // objectLength 4096
  "e3069283", // storageChecksum
  "00010000", // formatMajor 1, formatMinor 0
  "00000003", // sliceCount 3
  "0000000000000f3c", // manifestOffset 3900
  "000000ac", // manifestLength 172
  "12345678", // manifestChecksum
].join("");

const GOLDEN_PROTECTION = [
  "4e524d31", // magic
  "000000104f626a65637450726f74656374696f6e", // recordType "ObjectProtection"
  "0001000101", // schemaVersion 1, minReaderSchemaVersion 1, payloadEncoding 1
  "00000092", // payloadLength 146
  "b736e85f", // payloadCrc32c
  "0000004031376130303532663236383634363961646565386363303737646233666130353565376630343561396230343539633662373632623330346663626538613465", // objectKeyHash
  "01", // type REACHABLE_APPEND
  "000000077261312d616263", // referenceId
  "0000002f2f6e65726575732f636c7573746572732f756e69742f73747265616d732f732d782f636f6d6d69742d6c6f672f6331", // ownerKey
  "00000003732d78", // streamId
  "0000000000000000", // rootLifecycleEpoch 0
].join("");

const ROOT_KEY = physicalObjectRootKey("unit", HASH);
const PROTECTION_KEY = objectProtectionKey("unit", HASH, 1, "ra1-abc");

describe("physical-object keys", () => {
  test("layout, sharding by the first hash byte, and strict parsing", () => {
    expect(objectKeyHash(OBJECT_KEY)).toBe(HASH);
    expect(ROOT_KEY).toBe(`/nereus/clusters/unit/physical-objects/v1/023/roots/${HASH}`);
    expect(PROTECTION_KEY).toBe(`/nereus/clusters/unit/physical-objects/v1/023/objects/${HASH}/protections/01/ra1-abc`);
    expect(parsePhysicalObjectRootKey(ROOT_KEY)).toEqual({ cluster: "unit", objectKeyHash: HASH });
    expect(() => parsePhysicalObjectRootKey(ROOT_KEY.replace("/023/", "/024/"))).toThrow(
      /not a physical-object root key/,
    );
    expect(() => parsePhysicalObjectRootKey(`${ROOT_KEY}/x`)).toThrow(/not a physical-object root key/);
  });

  test("reference ids are deterministic per owner and differ by type", () => {
    const owner = FIXTURE_PROTECTION.ownerKey;
    expect(protectionReferenceId("REACHABLE_APPEND", "s-x", owner, HASH)).toBe(
      protectionReferenceId("REACHABLE_APPEND", "s-x", owner, HASH),
    );
    expect(protectionReferenceId("REACHABLE_APPEND", "s-x", owner, HASH)).toMatch(/^ra1-[a-z2-7]{52}$/);
    expect(protectionReferenceId("VISIBLE_GENERATION", "s-x", owner, HASH)).toMatch(/^vg1-/);
    expect(protectionReferenceId("REACHABLE_APPEND", "s-x", `${owner}x`, HASH)).not.toBe(
      protectionReferenceId("REACHABLE_APPEND", "s-x", owner, HASH),
    );
  });
});

describe("physicalObjectRootCodec", () => {
  test("golden bytes", () => {
    expect(toHex(physicalObjectRootCodec.encode(FIXTURE_ROOT))).toBe(GOLDEN_ROOT);
    expect(physicalObjectRootCodec.decode(fromHex(GOLDEN_ROOT), ROOT_KEY)).toEqual(FIXTURE_ROOT);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN_ROOT), (bytes) => physicalObjectRootCodec.decode(bytes, ROOT_KEY));
  });

  test("a foreign key or record type is rejected", () => {
    const other = physicalObjectRootKey("unit", objectKeyHash("other"));
    expect(invariantViolation(() => physicalObjectRootCodec.decode(fromHex(GOLDEN_ROOT), other)).message).toContain(
      "does not match the key's",
    );
    expect(
      invariantViolation(() => physicalObjectRootCodec.decode(fromHex(GOLDEN_PROTECTION), ROOT_KEY)).message,
    ).toContain('expected "PhysicalObjectRoot"');
  });

  test("encode refuses roots that break invariants", () => {
    const bad: Array<Partial<PhysicalObjectRoot>> = [
      { objectKey: "" },
      { objectKeyHash: objectKeyHash("another key") },
      { objectId: "" },
      { kind: "NOPE" as PhysicalObjectRoot["kind"] },
      { lifecycle: "GONE" as PhysicalObjectRoot["lifecycle"] },
      { objectLength: 0 },
      { storageChecksum: 2 ** 32 },
      { sliceCount: 0 },
      { manifestOffset: 4000 },
      { formatMajor: 0 },
    ];
    for (const change of bad) invariantViolation(() => physicalObjectRootCodec.encode({ ...FIXTURE_ROOT, ...change }));
  });

  test("property: round trip", () => {
    const arbitrary = fc
      .record({
        objectKey: fc.string({ minLength: 1, maxLength: 40 }).filter((text) => isWellFormedString(text)),
        objectId: fc.string({ minLength: 1, maxLength: 20 }).filter((text) => isWellFormedString(text)),
        kind: fc.constantFrom("OBJECT_WAL", "STREAM_GENERATION") as fc.Arbitrary<PhysicalObjectRoot["kind"]>,
        lifecycle: fc.constantFrom("ACTIVE", "MARKED", "DELETING", "DELETED", "QUARANTINED") as fc.Arbitrary<
          PhysicalObjectRoot["lifecycle"]
        >,
        lifecycleEpoch: fc.nat(),
        createdAtMillis: fc.nat(),
        objectLength: fc.integer({ min: 100, max: 2 ** 40 }),
        storageChecksum: fc.nat({ max: 0xffff_ffff }),
        sliceCount: fc.integer({ min: 1, max: 5000 }),
      })
      .map((fields): PhysicalObjectRoot => ({
        ...FIXTURE_ROOT,
        ...fields,
        objectKeyHash: objectKeyHash(fields.objectKey),
        manifestOffset: fields.objectLength - 50,
        manifestLength: 26,
      }));
    fc.assert(
      fc.property(arbitrary, (root) => {
        expect(
          physicalObjectRootCodec.decode(
            physicalObjectRootCodec.encode(root),
            physicalObjectRootKey("c", root.objectKeyHash),
          ),
        ).toEqual(root);
      }),
    );
  });
});

describe("objectProtectionCodec", () => {
  test("golden bytes", () => {
    expect(toHex(objectProtectionCodec.encode(FIXTURE_PROTECTION))).toBe(GOLDEN_PROTECTION);
    expect(objectProtectionCodec.decode(fromHex(GOLDEN_PROTECTION), PROTECTION_KEY)).toEqual(FIXTURE_PROTECTION);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN_PROTECTION), (bytes) =>
      objectProtectionCodec.decode(bytes, PROTECTION_KEY),
    );
  });

  test("the key's hash, type and reference id must match", () => {
    for (const key of [
      objectProtectionKey("unit", HASH, 2, "ra1-abc"),
      objectProtectionKey("unit", HASH, 1, "ra1-abd"),
    ]) {
      invariantViolation(() => objectProtectionCodec.decode(fromHex(GOLDEN_PROTECTION), key));
    }
    invariantViolation(() => objectProtectionCodec.encode({ ...FIXTURE_PROTECTION, ownerKey: "" }));
  });
});
