// Golden bytes and strictness of the ObjectReclamation record, its key layout, and the root lifecycle table.
import { fromHex, toHex } from "@nereus/core";
import { expectCorruptionRejected, invariantViolation } from "@nereus/core/testing";
import { describe, expect, test } from "vitest";
import type { PhysicalObjectLifecycle, PhysicalObjectRoot } from "../roots/physical-object-records.js";
import { objectReclamationCodec } from "./object-reclamation-codec.js";
import { objectReclamationKey, parseObjectReclamationKey, reclamationJournalPrefix } from "./reclamation-keys.js";
import type { ObjectReclamation } from "./reclamation-records.js";
import { canMoveRoot, moveRoot } from "./root-lifecycle.js";

const OBJECT_KEY = "unit/wal/v1/2026/11/30/abc/run/0000000000000000001.nrs";
const HASH = "17a0052f2686469adee8cc077db3fa055e7f045a9b0459c6b762b304fcbe8a4e";
const KEY = objectReclamationKey("unit", "s-x", HASH);

const FIXTURE: ObjectReclamation = {
  streamId: "s-x",
  objectKey: OBJECT_KEY,
  objectKeyHash: HASH,
  kind: "OBJECT_WAL",
  state: "MARKED",
  releasedAtMillis: 1_764_504_000_000,
  markedAtMillis: 1_764_504_001_000,
  deleteNotBeforeMillis: 1_764_504_061_000,
  deletedAtMillis: 0,
  objectLength: 4096,
};

// Frozen golden fixture, produced once by an independent encoder of the documented layout.
const GOLDEN = [
  "4e524d31", // magic
  "000000114f626a6563745265636c616d6174696f6e", // recordType "ObjectReclamation"
  "0001000101", // schemaVersion 1, minReaderSchemaVersion 1, payloadEncoding 1
  "000000af", // payloadLength 175
  "6115f724", // payloadCrc32c
  "00000003732d78", // streamId
  "00000036756e69742f77616c2f76312f323032362f31312f33302f6162632f72756e2f303030303030303030303030303030303030312e6e7273", // objectKey
  "0000004031376130303532663236383634363961646565386363303737646233666130353565376630343561396230343539633662373632623330346663626538613465", // objectKeyHash
  "0102", // kind OBJECT_WAL, state MARKED
  "0000019ad4a25600", // releasedAtMillis
  "0000019ad4a259e8", // markedAtMillis
  "0000019ad4a34448", // deleteNotBeforeMillis
  "0000000000000000", // deletedAtMillis
  "0000000000001000", // objectLength 4096
].join("");

describe("ObjectReclamation", () => {
  test("key layout under the stream, strict parsing", () => {
    expect(KEY).toBe(`/nereus/clusters/unit/streams/s-x/reclamation/v1/objects/${HASH}`);
    expect(KEY.startsWith(reclamationJournalPrefix("unit", "s-x"))).toBe(true);
    expect(parseObjectReclamationKey(KEY)).toEqual({ cluster: "unit", streamId: "s-x", objectKeyHash: HASH });
    expect(() => parseObjectReclamationKey(KEY.replace(HASH, "xyz"))).toThrow(/bad object key hash/);
    expect(() => parseObjectReclamationKey(KEY.replace("/v1/", "/v2/"))).toThrow(/not an object reclamation key/);
  });

  test("golden bytes", () => {
    expect(toHex(objectReclamationCodec.encode(FIXTURE))).toBe(GOLDEN);
    expect(objectReclamationCodec.decode(fromHex(GOLDEN), KEY)).toEqual(FIXTURE);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN), (bytes) => objectReclamationCodec.decode(bytes, KEY));
  });

  test("a record of another stream or object is rejected", () => {
    invariantViolation(() => objectReclamationCodec.decode(fromHex(GOLDEN), objectReclamationKey("unit", "s-y", HASH)));
    invariantViolation(() =>
      objectReclamationCodec.decode(fromHex(GOLDEN), objectReclamationKey("unit", "s-x", "0".repeat(64))),
    );
  });

  test("encode refuses entries whose times do not fit their state", () => {
    const bad: Array<Partial<ObjectReclamation>> = [
      { objectKeyHash: "0".repeat(64) },
      { state: "RELEASED" },
      { state: "DELETED" },
      { deletedAtMillis: 5 },
      { objectLength: 0 },
      { deleteNotBeforeMillis: 1 },
    ];
    for (const change of bad) invariantViolation(() => objectReclamationCodec.encode({ ...FIXTURE, ...change }));
    const released = { ...FIXTURE, state: "RELEASED", markedAtMillis: 0, deleteNotBeforeMillis: 0, objectLength: 0 };
    expect(objectReclamationCodec.decode(objectReclamationCodec.encode(released as ObjectReclamation), KEY)).toEqual(
      released,
    );
  });
});

describe("root lifecycle", () => {
  const all: PhysicalObjectLifecycle[] = ["ACTIVE", "MARKED", "DELETING", "DELETED", "QUARANTINED"];
  const allowed = new Set(["ACTIVE→MARKED", "MARKED→ACTIVE", "MARKED→DELETING", "DELETING→DELETED"]);

  test("only ACTIVE → MARKED → DELETING → DELETED and a veto MARKED → ACTIVE; each move adds one epoch", () => {
    for (const from of all) {
      for (const to of all) expect(canMoveRoot(from, to), `${from}→${to}`).toBe(allowed.has(`${from}→${to}`));
    }
    const root = { objectKey: "k", lifecycle: "MARKED", lifecycleEpoch: 3 } as PhysicalObjectRoot;
    expect(moveRoot(root, "DELETING")).toMatchObject({ lifecycle: "DELETING", lifecycleEpoch: 4 });
    invariantViolation(() => moveRoot({ ...root, lifecycle: "DELETING" }, "ACTIVE"));
  });
});
