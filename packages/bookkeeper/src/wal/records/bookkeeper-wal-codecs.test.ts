import { fromHex, toHex } from "@nereus/core";
import { isWellFormedString } from "@nereus/core/internal";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { expectCorruptionRejected, invariantViolation } from "@nereus/core/testing";
import {
  ledgerHash,
  ledgerRootKey,
  parseLedgerRootKey,
  parseRangeProtectionKey,
  parseWriterStateKey,
  rangeProtectionKey,
  writerStateKey,
} from "./bookkeeper-wal-keys.js";
import type {
  BookKeeperLedgerRoot,
  BookKeeperRangeProtection,
  BookKeeperWriterState,
} from "./bookkeeper-wal-records.js";
import { ledgerRootCodec } from "./ledger-root-codec.js";
import { rangeProtectionCodec } from "./range-protection-codec.js";
import { writerStateCodec } from "./writer-state-codec.js";

const LEDGER_ID = 4_294_967_301n; // 2^32 + 5: exercises both u32 halves
const HASH = "85db5a1bc2ac2fac88ca123dc056abe470e7b2f6d005e352c0fd2de8a1fb6ddf";
const HASH_TEXT = `00000040${toHex(new TextEncoder().encode(HASH))}`;

const FIXTURE_STATE: BookKeeperWriterState = {
  streamId: "s-abc",
  stateEpoch: 3,
  lifecycle: "ACTIVE",
  owner: { writerId: "broker-1", writerEpoch: 2 },
  nextSegmentSequence: 5,
  ledger: { ledgerId: LEDGER_ID, segmentSequence: 4, createdAtMillis: 1_700_000_000_000 },
  allocationId: "",
  updatedAtMillis: 1_700_000_000_123,
};

const FIXTURE_ROOT: BookKeeperLedgerRoot = {
  clusterAlias: "bk-main",
  ledgerId: LEDGER_ID,
  ledgerHash: HASH,
  streamId: "s-abc",
  segmentSequence: 4,
  allocationId: "a1b2",
  owner: { writerId: "broker-1", writerEpoch: 2 },
  ensembleSize: 3,
  writeQuorumSize: 2,
  ackQuorumSize: 2,
  digestType: "CRC32C",
  lifecycle: "SEALED",
  lifecycleEpoch: 2,
  createdAtMillis: 1_700_000_000_000,
  sealedEntryCount: 10,
  sealedLength: 1234,
};

const FIXTURE_PROTECTION: BookKeeperRangeProtection = {
  ledgerHash: HASH,
  clusterAlias: "bk-main",
  ledgerId: LEDGER_ID,
  firstEntryId: 7,
  entryCount: 3,
  rangeChecksum: 0xdeadbeef,
  type: "REACHABLE_APPEND",
  streamId: "s-abc",
  ownerKey: "/nereus/clusters/c1/streams/s-abc/commit-log/abc",
  rootLifecycleEpoch: 0,
};

// Frozen golden fixtures of the documented layouts (see each codec's module comment).
const GOLDEN_STATE = [
  "4e524d31", // magic
  "00000015426f6f6b4b65657065725772697465725374617465", // recordType "BookKeeperWriterState"
  "0001000101", // schemaVersion 1, minReaderSchemaVersion 1, payloadEncoding 1
  "00000053", // payloadLength 83
  "b44a129f", // payloadCrc32c
  "00000005732d616263", // streamId
  "0000000000000003", // stateEpoch 3
  "03", // lifecycle ACTIVE
  "0000000862726f6b65722d31", // ownerWriterId
  "0000000000000002", // ownerWriterEpoch 2
  "0000000000000005", // nextSegmentSequence 5
  "01", // hasLedger
  "0000000100000005", // ledgerId 2^32+5
  "0000000000000004", // segmentSequence 4
  "0000018bcfe56800", // createdAtMillis
  "00000000", // allocationId ""
  "0000018bcfe5687b", // updatedAtMillis
].join("");

const GOLDEN_ROOT = [
  "4e524d31", // magic
  "00000014426f6f6b4b65657065724c6564676572526f6f74", // recordType "BookKeeperLedgerRoot"
  "0001000101", // schemaVersion 1, minReaderSchemaVersion 1, payloadEncoding 1
  "000000a9", // payloadLength 169
  "e7d77039", // payloadCrc32c
  "00000007626b2d6d61696e", // clusterAlias
  "0000000100000005", // ledgerId
  HASH_TEXT, // ledgerHash
  "00000005732d616263", // streamId
  "0000000000000004", // segmentSequence
  "0000000461316232", // allocationId
  "0000000862726f6b65722d31", // ownerWriterId
  "0000000000000002", // ownerWriterEpoch
  "030202", // ensemble 3, write quorum 2, ack quorum 2
  "03", // digestType CRC32C
  "03", // lifecycle SEALED
  "0000000000000002", // lifecycleEpoch
  "0000018bcfe56800", // createdAtMillis
  "000000000000000a", // sealedEntryCount 10
  "00000000000004d2", // sealedLength 1234
].join("");

const GOLDEN_PROTECTION = [
  "4e524d31", // magic
  "00000019426f6f6b4b656570657252616e676550726f74656374696f6e", // recordType "BookKeeperRangeProtection"
  "0001000101", // schemaVersion 1, minReaderSchemaVersion 1, payloadEncoding 1
  "000000ad", // payloadLength 173
  "5728e49a", // payloadCrc32c
  HASH_TEXT, // ledgerHash
  "00000007626b2d6d61696e", // clusterAlias
  "0000000100000005", // ledgerId
  "0000000000000007", // firstEntryId 7
  "00000003", // entryCount 3
  "deadbeef", // rangeChecksum
  "01", // type REACHABLE_APPEND
  "00000005732d616263", // streamId
  "000000302f6e65726575732f636c7573746572732f63312f73747265616d732f732d6162632f636f6d6d69742d6c6f672f616263", // ownerKey
  "0000000000000000", // rootLifecycleEpoch
].join("");

const STATE_KEY = writerStateKey("c1", "s-abc");
const ROOT_KEY = ledgerRootKey("c1", HASH);
const PROTECTION_KEY = rangeProtectionKey("c1", HASH, 7, 1);

describe("BookKeeper WAL keys", () => {
  test("layout, sharding by the first hash byte, and strict parsing", () => {
    expect(ledgerHash("bk-main", LEDGER_ID)).toBe(HASH);
    expect(ledgerHash("bk-other", LEDGER_ID)).not.toBe(HASH);
    expect(ledgerHash("bk-main", LEDGER_ID + 1n)).not.toBe(HASH);
    expect(STATE_KEY).toBe("/nereus/clusters/c1/streams/s-abc/bookkeeper/v1/writer-state");
    expect(ROOT_KEY).toBe(`/nereus/clusters/c1/physical-bookkeeper/v1/133/roots/${HASH}`);
    expect(PROTECTION_KEY).toBe(
      `/nereus/clusters/c1/physical-bookkeeper/v1/133/ledgers/${HASH}/ranges/0000000000000000007/protections/01`,
    );
    expect(parseWriterStateKey(STATE_KEY)).toEqual({ cluster: "c1", streamId: "s-abc" });
    expect(parseLedgerRootKey(ROOT_KEY)).toEqual({ cluster: "c1", ledgerHash: HASH });
    expect(parseRangeProtectionKey(PROTECTION_KEY)).toEqual({
      cluster: "c1",
      ledgerHash: HASH,
      firstEntryId: 7,
      typeId: 1,
    });
    expect(() => parseLedgerRootKey(ROOT_KEY.replace("/133/", "/134/"))).toThrow(/not a BookKeeper ledger root key/);
    expect(() => parseRangeProtectionKey(PROTECTION_KEY.replace("/0000000000000000007/", "/7/"))).toThrow(
      /not a BookKeeper range protection key/,
    );
    expect(() => parseWriterStateKey(`${STATE_KEY}/x`)).toThrow(/not a BookKeeper writer state key/);
    expect(() => ledgerHash("bk", -1n)).toThrow(/outside/);
    expect(() => ledgerHash("bk", 1n << 63n)).toThrow(/outside/);
  });
});

describe("writerStateCodec", () => {
  test("golden bytes", () => {
    expect(toHex(writerStateCodec.encode(FIXTURE_STATE))).toBe(GOLDEN_STATE);
    expect(writerStateCodec.decode(fromHex(GOLDEN_STATE), STATE_KEY)).toEqual(FIXTURE_STATE);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN_STATE), (bytes) => writerStateCodec.decode(bytes, STATE_KEY));
  });

  test("a foreign key or record type is rejected", () => {
    expect(
      invariantViolation(() => writerStateCodec.decode(fromHex(GOLDEN_STATE), writerStateKey("c1", "s-other"))).message,
    ).toContain("does not match the key's");
    expect(invariantViolation(() => writerStateCodec.decode(fromHex(GOLDEN_ROOT), STATE_KEY)).message).toContain(
      'expected "BookKeeperWriterState"',
    );
  });

  test("encode refuses states that break the lifecycle invariants", () => {
    const bad: Array<Partial<BookKeeperWriterState>> = [
      { streamId: "" },
      { lifecycle: "IDLE" }, // names a ledger
      { lifecycle: "ALLOCATING", ledger: undefined }, // no allocation id
      { lifecycle: "ACTIVE", ledger: undefined },
      { allocationId: "x" }, // allocation id outside ALLOCATING
      { nextSegmentSequence: 4 }, // not above the current ledger's segment
      { ledger: { ledgerId: -1n, segmentSequence: 0, createdAtMillis: 0 } },
      { owner: { writerId: "", writerEpoch: 1 } },
      { lifecycle: "GONE" as BookKeeperWriterState["lifecycle"] },
    ];
    for (const change of bad) invariantViolation(() => writerStateCodec.encode({ ...FIXTURE_STATE, ...change }));
  });

  test("property: round trip over every lifecycle", () => {
    const text = fc.string({ minLength: 1, maxLength: 24 }).filter((value) => isWellFormedString(value));
    const arbitrary = fc
      .record({
        lifecycle: fc.constantFrom("IDLE", "ALLOCATING", "ACTIVE", "SEALING") as fc.Arbitrary<
          BookKeeperWriterState["lifecycle"]
        >,
        stateEpoch: fc.nat(),
        writerId: text,
        writerEpoch: fc.nat(),
        segment: fc.nat({ max: 1_000_000 }),
        ledgerId: fc.bigInt({ min: 0n, max: (1n << 63n) - 1n }),
        allocationId: text,
        createdAtMillis: fc.nat(),
      })
      .map((fields): BookKeeperWriterState => {
        const holds = fields.lifecycle === "ACTIVE" || fields.lifecycle === "SEALING";
        return {
          streamId: "s-abc",
          stateEpoch: fields.stateEpoch,
          lifecycle: fields.lifecycle,
          owner: { writerId: fields.writerId, writerEpoch: fields.writerEpoch },
          nextSegmentSequence: fields.segment + 1,
          ledger: holds
            ? { ledgerId: fields.ledgerId, segmentSequence: fields.segment, createdAtMillis: fields.createdAtMillis }
            : undefined,
          allocationId: fields.lifecycle === "ALLOCATING" ? fields.allocationId : "",
          updatedAtMillis: fields.createdAtMillis,
        };
      });
    fc.assert(
      fc.property(arbitrary, (state) => {
        expect(writerStateCodec.decode(writerStateCodec.encode(state), STATE_KEY)).toEqual(state);
      }),
    );
  });
});

describe("ledgerRootCodec", () => {
  test("golden bytes", () => {
    expect(toHex(ledgerRootCodec.encode(FIXTURE_ROOT))).toBe(GOLDEN_ROOT);
    expect(ledgerRootCodec.decode(fromHex(GOLDEN_ROOT), ROOT_KEY)).toEqual(FIXTURE_ROOT);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN_ROOT), (bytes) => ledgerRootCodec.decode(bytes, ROOT_KEY));
  });

  test("a foreign key or record type is rejected", () => {
    const other = ledgerRootKey("c1", ledgerHash("bk-main", 1n));
    expect(invariantViolation(() => ledgerRootCodec.decode(fromHex(GOLDEN_ROOT), other)).message).toContain(
      "does not match the key's",
    );
    expect(invariantViolation(() => ledgerRootCodec.decode(fromHex(GOLDEN_PROTECTION), ROOT_KEY)).message).toContain(
      'expected "BookKeeperLedgerRoot"',
    );
  });

  test("encode refuses roots that break invariants", () => {
    const bad: Array<Partial<BookKeeperLedgerRoot>> = [
      { clusterAlias: "" },
      { ledgerHash: ledgerHash("bk-main", 1n) },
      { ledgerId: 1n << 63n },
      { ensembleSize: 1 },
      { ackQuorumSize: 3 },
      { writeQuorumSize: 0 },
      { digestType: "MD5" as BookKeeperLedgerRoot["digestType"] },
      { lifecycle: "ACTIVE" }, // an ACTIVE root has no sealed end
      { allocationId: "" },
      { sealedLength: -1 },
    ];
    for (const change of bad) invariantViolation(() => ledgerRootCodec.encode({ ...FIXTURE_ROOT, ...change }));
  });

  test("property: round trip", () => {
    const arbitrary = fc
      .record({
        clusterAlias: fc.string({ minLength: 1, maxLength: 16 }).filter((value) => isWellFormedString(value)),
        ledgerId: fc.bigInt({ min: 0n, max: (1n << 63n) - 1n }),
        lifecycle: fc.constantFrom(
          "ACTIVE",
          "SEALING",
          "SEALED",
          "MARKED",
          "DELETING",
          "DELETED",
          "QUARANTINED",
        ) as fc.Arbitrary<BookKeeperLedgerRoot["lifecycle"]>,
        digestType: fc.constantFrom("CRC32", "HMAC", "CRC32C", "DUMMY") as fc.Arbitrary<
          BookKeeperLedgerRoot["digestType"]
        >,
        quorums: fc
          .tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 }))
          .map((values) => values.sort((a, b) => b - a)),
        lifecycleEpoch: fc.nat(),
        sealedEntryCount: fc.nat(),
        sealedLength: fc.nat(),
      })
      .map((fields): BookKeeperLedgerRoot => {
        const unsealed = fields.lifecycle === "ACTIVE" || fields.lifecycle === "SEALING";
        return {
          ...FIXTURE_ROOT,
          clusterAlias: fields.clusterAlias,
          ledgerId: fields.ledgerId,
          ledgerHash: ledgerHash(fields.clusterAlias, fields.ledgerId),
          lifecycle: fields.lifecycle,
          digestType: fields.digestType,
          ensembleSize: fields.quorums[0] ?? 1,
          writeQuorumSize: fields.quorums[1] ?? 1,
          ackQuorumSize: fields.quorums[2] ?? 1,
          lifecycleEpoch: fields.lifecycleEpoch,
          sealedEntryCount: unsealed ? 0 : fields.sealedEntryCount,
          sealedLength: unsealed ? 0 : fields.sealedLength,
        };
      });
    fc.assert(
      fc.property(arbitrary, (root) => {
        expect(ledgerRootCodec.decode(ledgerRootCodec.encode(root), ledgerRootKey("c", root.ledgerHash))).toEqual(root);
      }),
    );
  });
});

describe("rangeProtectionCodec", () => {
  test("golden bytes", () => {
    expect(toHex(rangeProtectionCodec.encode(FIXTURE_PROTECTION))).toBe(GOLDEN_PROTECTION);
    expect(rangeProtectionCodec.decode(fromHex(GOLDEN_PROTECTION), PROTECTION_KEY)).toEqual(FIXTURE_PROTECTION);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN_PROTECTION), (bytes) => rangeProtectionCodec.decode(bytes, PROTECTION_KEY));
  });

  test("the key's ledger, first entry id and type must be the record's", () => {
    for (const key of [
      rangeProtectionKey("c1", HASH, 8, 1),
      rangeProtectionKey("c1", HASH, 7, 2),
      rangeProtectionKey("c1", ledgerHash("bk-main", 9n), 7, 1),
    ]) {
      invariantViolation(() => rangeProtectionCodec.decode(fromHex(GOLDEN_PROTECTION), key));
    }
    for (const change of [
      { ownerKey: "" },
      { entryCount: 0 },
      { rangeChecksum: 2 ** 32 },
      { ledgerHash: ledgerHash("bk-main", 9n) },
    ]) {
      invariantViolation(() => rangeProtectionCodec.encode({ ...FIXTURE_PROTECTION, ...change }));
    }
  });

  test("property: round trip", () => {
    const arbitrary = fc
      .record({
        ledgerId: fc.bigInt({ min: 0n, max: (1n << 63n) - 1n }),
        firstEntryId: fc.nat({ max: 2 ** 40 }),
        entryCount: fc.integer({ min: 1, max: 100_000 }),
        rangeChecksum: fc.nat({ max: 0xffff_ffff }),
        type: fc.constantFrom(
          "REACHABLE_APPEND",
          "VISIBLE_GENERATION",
          "APPEND_RECOVERY",
          "MATERIALIZATION_SOURCE",
        ) as fc.Arbitrary<BookKeeperRangeProtection["type"]>,
        rootLifecycleEpoch: fc.nat(),
      })
      .map((fields): BookKeeperRangeProtection => ({
        ...FIXTURE_PROTECTION,
        ...fields,
        ledgerHash: ledgerHash(FIXTURE_PROTECTION.clusterAlias, fields.ledgerId),
      }));
    const typeIds = {
      REACHABLE_APPEND: 1,
      VISIBLE_GENERATION: 2,
      APPEND_RECOVERY: 3,
      MATERIALIZATION_SOURCE: 4,
    } as const;
    fc.assert(
      fc.property(arbitrary, (protection) => {
        const key = rangeProtectionKey("c", protection.ledgerHash, protection.firstEntryId, typeIds[protection.type]);
        expect(rangeProtectionCodec.decode(rangeProtectionCodec.encode(protection), key)).toEqual(protection);
      }),
    );
  });
});
