import { ErrorCode, NereusError, fromHex, streamIdFromName, toHex } from "@nereus/core";
import { decodeRecordEnvelope, encodeRecordEnvelope } from "@nereus/core/internal";
import { expectCorruptionRejected, invariantViolation } from "@nereus/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { AckRange, PartialAck } from "../domain/ack-types.js";
import type { CursorStateRecord } from "../domain/cursor-records.js";
import { cursorNameHash, cursorRootKey, snapshotObjectKey } from "../keys/cursor-keys.js";
import { cursorStateCodec } from "./cursor-state-codec.js";

const STREAM = streamIdFromName("orders");
const NAME = "orders-sub";
const HASH = cursorNameHash(NAME);
const SESSION = "00112233445566778899aabbccddeeff";
const SNAPSHOT_ID = "0123456789abcdef0123456789abcdef";
const KEY = cursorRootKey("c1", STREAM, HASH);

const FIXTURE: CursorStateRecord = {
  streamId: STREAM,
  cursorName: NAME,
  cursorNameHash: HASH,
  ownerSessionId: SESSION,
  cursorGeneration: 2,
  lifecycle: "ACTIVE",
  mutationSequence: 17,
  ackStateEpoch: 3,
  lastProtectionAttemptId: "ffeeddccbbaa99887766554433221100",
  markDeleteOffset: 100,
  snapshot: {
    objectKey: snapshotObjectKey("c1", STREAM, HASH, 2, SNAPSHOT_ID),
    snapshotId: SNAPSHOT_ID,
    sizeBytes: 4321,
    crc32c: 0xdeadbeef,
    sourceMutationSequence: 12,
    baseMarkDeleteOffset: 90,
  },
  inlineRanges: [
    { start: 105, end: 110 },
    { start: 120, end: 121 },
  ],
  inlinePartials: [
    { offset: 100, batchSize: 10, remaining: [0x3f0n] },
    { offset: 130, batchSize: 70, remaining: [2n ** 64n - 1n, 1n] },
  ],
  positionProperties: new Map([
    ["neg", -5n],
    ["ledger", 7n],
    ["é", 2n ** 63n - 1n],
  ]),
  cursorProperties: new Map([
    ["ü", "x"],
    ["b", "2"],
    ["a", "1"],
  ]),
  createdAtMillis: 1_700_000_000_000,
  updatedAtMillis: 1_700_000_100_000,
  deletedAtMillis: undefined,
};

const DELETED: CursorStateRecord = {
  ...FIXTURE,
  lifecycle: "DELETED",
  mutationSequence: 18,
  lastProtectionAttemptId: "",
  markDeleteOffset: 140,
  snapshot: undefined,
  inlineRanges: [],
  inlinePartials: [],
  positionProperties: new Map(),
  cursorProperties: new Map(),
  updatedAtMillis: 1_700_000_200_000,
  deletedAtMillis: 1_700_000_200_000,
};

// Frozen golden fixtures, composed once from the documented layout by an independent encoder (Python struct and a
// bitwise CRC32C), never regenerated from the TypeScript codec.
const GOLDEN_ACTIVE = [
  "4e524d31", // magic "NRM1"
  "0000000b437572736f725374617465", // recordType 'CursorState'
  "0001000101", // schema 1/1, encoding 1
  "00000288", // payloadLength 648
  "b9651a45", // payloadCrc32c
  "00000036732d64716c69767779613269656f696c34746766637374347032747163637032", // streamId
  "3364656d366f336b6b326c7732737734617375346d71",
  "0000000a6f72646572732d737562", // cursorName "orders-sub"
  "000000203562326162333438313965653064336337613239306564316632373561363535", // cursorNameHash
  "000000203030313132323333343435353636373738383939616162626363646465656666", // ownerSessionId
  "0000000000000002", // cursorGeneration 2
  "01", // lifecycle ACTIVE
  "0000000000000011", // mutationSequence 17
  "0000000000000003", // ackStateEpoch 3
  "000000206666656564646363626261613939383837373636353534343333323231313030", // lastProtectionAttemptId
  "0000000000000064", // markDeleteOffset 100
  "01", // snapshot present
  "000000a7637572736f722d736e617073686f74732f76312f63312f732d64716c69767779", // snapshot.objectKey
  "613269656f696c347467666373743470327471636370323364656d366f336b6b326c7732",
  "737734617375346d712f3562326162333438313965653064336337613239306564316632",
  "3735613635352f303030303030303030303030303030303030322f303132333435363738",
  "39616263646566303132333435363738396162636465662e6e6373",
  "000000203031323334353637383961626364656630313233343536373839616263646566", // snapshot.snapshotId
  "00000000000010e1deadbeef", // sizeBytes 4321, crc32c 0xdeadbeef
  "000000000000000c000000000000005a", // sourceMutationSequence 12, baseMarkDeleteOffset 90
  "000000020000000000000069000000000000006e00000000000000780000000000000079", // inlineRanges [105,110) [120,121)
  "0000000200000000000000640000000a0000000100000000000003f0", // inlinePartials: 100 (10 bits, 0x3f0)
  "00000000000000820000004600000002ffffffffffffffff0000000000000001", // 130 (70 bits, [2^64-1, 1])
  "00000003000000066c65646765720000000000000007000000036e6567ffffffffffffff", // positionProperties
  "fb00000002c3a97fffffffffffffff",
  "00000003000000016100000001310000000162000000013200000002c3bc0000000178", // cursorProperties a=1 b=2 ü=x
  "0000018bcfe568000000018bcfe6eea0", // createdAtMillis, updatedAtMillis
  "00", // deletedAtMillis absent
].join("");
const GOLDEN_DELETED = [
  "4e524d31", // magic "NRM1"
  "0000000b437572736f725374617465", // recordType 'CursorState'
  "0001000101", // schema 1/1, encoding 1
  "000000df", // payloadLength 223
  "1eaa81a1", // payloadCrc32c
  "00000036732d64716c69767779613269656f696c34746766637374347032747163637032", // streamId, cursorName, cursorNameHash
  "3364656d366f336b6b326c7732737734617375346d710000000a6f72646572732d737562",
  "000000203562326162333438313965653064336337613239306564316632373561363535",
  "000000203030313132323333343435353636373738383939616162626363646465656666", // ownerSessionId
  "00000000000000020200000000000000120000000000000003", // generation 2, DELETED, sequence 18, epoch 3
  "00000000000000000000008c00", // no protection attempt, markDelete 140, no snapshot
  "00000000000000000000000000000000", // no ranges, partials or properties
  "0000018bcfe568000000018bcfe87540", // createdAt, updatedAt
  "010000018bcfe87540", // deletedAtMillis
].join("");

/** Re-wraps `bytes` with a payload `patch` edited (a well-formed envelope around a payload the encoder refuses). */
function patched(bytes: Uint8Array, patch: (payload: Uint8Array) => Uint8Array): Uint8Array {
  const payload = decodeRecordEnvelope(bytes, "CursorState", 1).payload.slice();
  return encodeRecordEnvelope(
    { recordType: "CursorState", schemaVersion: 1, minReaderSchemaVersion: 1 },
    patch(payload),
  );
}

/** Replaces the first occurrence of `from` (hex) in `payload` with `to` (hex, same length). */
function replaceHex(payload: Uint8Array, from: string, to: string): Uint8Array {
  const hex = toHex(payload);
  expect(hex).toContain(from);
  return fromHex(hex.replace(from, to));
}

function encodeFails(change: Partial<Record<keyof CursorStateRecord, unknown>>, base = FIXTURE): string {
  return invariantViolation(() => cursorStateCodec.encode({ ...base, ...change } as CursorStateRecord)).message;
}

describe("CursorState record", () => {
  test("golden bytes", () => {
    expect(toHex(cursorStateCodec.encode(FIXTURE))).toBe(GOLDEN_ACTIVE);
    expect(cursorStateCodec.decode(fromHex(GOLDEN_ACTIVE), KEY)).toEqual(FIXTURE);
    expect(toHex(cursorStateCodec.encode(DELETED))).toBe(GOLDEN_DELETED);
    expect(cursorStateCodec.decode(fromHex(GOLDEN_DELETED), KEY)).toEqual(DELETED);
  });

  test("every truncation, bit flip and trailing byte is rejected, naming the record", () => {
    expectCorruptionRejected(fromHex(GOLDEN_ACTIVE), (bytes) => cursorStateCodec.decode(bytes, KEY));
    expectCorruptionRejected(fromHex(GOLDEN_DELETED), (bytes) => cursorStateCodec.decode(bytes, KEY));
    const truncated = fromHex(GOLDEN_ACTIVE).subarray(0, 40);
    expect(invariantViolation(() => cursorStateCodec.decode(truncated, KEY)).message).toContain(
      `CursorState at ${KEY}`,
    );
  });

  test("a record read from another stream's, cursor's or cluster's key is rejected", () => {
    const golden = fromHex(GOLDEN_ACTIVE);
    const otherStream = cursorRootKey("c1", streamIdFromName("other"), HASH);
    expect(invariantViolation(() => cursorStateCodec.decode(golden, otherStream)).message).toContain("streamId");
    const otherCursor = cursorRootKey("c1", STREAM, cursorNameHash("other"));
    expect(invariantViolation(() => cursorStateCodec.decode(golden, otherCursor)).message).toContain("cursorNameHash");
    const otherCluster = cursorRootKey("c2", STREAM, HASH);
    expect(invariantViolation(() => cursorStateCodec.decode(golden, otherCluster)).message).toContain("cluster");
    const notARoot = `${KEY}/x`;
    expect(invariantViolation(() => cursorStateCodec.decode(golden, notARoot)).message).toContain("not a cursor root");
  });

  test("decode re-checks the invariants of a well-formed payload", () => {
    const golden = fromHex(GOLDEN_ACTIVE);
    // markDelete 100 -> 106: the inline range [105, 110) no longer starts above it.
    const markDeleteUp = patched(golden, (payload) =>
      replaceHex(payload, "00000000000000640100", "00000000000000760100"),
    );
    expect(invariantViolation(() => cursorStateCodec.decode(markDeleteUp, KEY)).message).toContain("markDeleteOffset");
    // cursorProperties keys a, b -> b, a: not ascending.
    const unsorted = patched(golden, (payload) =>
      replaceHex(payload, "000000016100000001310000000162", "000000016200000001310000000161"),
    );
    expect(invariantViolation(() => cursorStateCodec.decode(unsorted, KEY)).message).toContain("ascending");
    // lifecycle wire id 1 -> 9.
    const unknownLifecycle = patched(golden, (payload) =>
      replaceHex(payload, "000000000000000201000000000000001100", "000000000000000209000000000000001100"),
    );
    expect(invariantViolation(() => cursorStateCodec.decode(unknownLifecycle, KEY)).message).toContain(
      "unknown lifecycle wire id 9",
    );
  });

  test("encode refuses records that break the invariants", () => {
    const partial = (offset: number, batchSize: number, remaining: bigint[]): PartialAck => ({
      offset,
      batchSize,
      remaining,
    });
    const range = (start: number, end: number): AckRange => ({ start, end });
    const cases: Array<[Partial<Record<keyof CursorStateRecord, unknown>>, string]> = [
      [{ streamId: "" }, "streamId"],
      [{ cursorName: "" }, "cursor name"],
      [{ cursorName: "x".repeat(1025) }, "cursor name"],
      [{ cursorNameHash: cursorNameHash("other") }, "cursorNameHash"],
      [{ ownerSessionId: "ABC" }, "ownerSessionId"],
      [{ cursorGeneration: 0 }, "cursorGeneration"],
      [{ lifecycle: "GONE" }, "lifecycle"],
      [{ mutationSequence: 0 }, "mutationSequence"],
      [{ ackStateEpoch: 0 }, "ackStateEpoch"],
      [{ lastProtectionAttemptId: "abc" }, "lastProtectionAttemptId"],
      [{ markDeleteOffset: -1 }, "markDeleteOffset"],
      [{ markDeleteOffset: 2 ** 53 }, "markDeleteOffset"],
      [{ inlineRanges: [range(100, 104)] }, "above markDeleteOffset"],
      [{ inlineRanges: [range(105, 110), range(110, 111)] }, "non-adjacent"],
      [{ inlineRanges: [range(105, 110), range(108, 112)] }, "non-adjacent"],
      [{ inlineRanges: [range(120, 121), range(105, 110)] }, "sorted"],
      [{ inlineRanges: [range(105, 105)] }, "non-empty"],
      [{ inlineRanges: [range(105, 2 ** 53)] }, "safe-integer"],
      [{ inlinePartials: [partial(99, 10, [1n])] }, "below markDeleteOffset"],
      [{ inlinePartials: [partial(107, 10, [1n])] }, "inside inline range"],
      [{ inlinePartials: [partial(130, 10, [1n]), partial(101, 10, [1n])] }, "ascending"],
      [{ inlinePartials: [partial(101, 10, [1n]), partial(101, 10, [2n])] }, "ascending"],
      [{ inlinePartials: [partial(101, 10, [])] }, "no bit set"],
      [{ inlinePartials: [partial(101, 10, [0x3ffn])] }, "every bit"],
      [{ inlinePartials: [partial(101, 10, [0x400n])] }, "at or above batchSize"],
      [{ inlinePartials: [partial(101, 70, [1n, 0n])] }, "trailing zero"],
      [{ inlinePartials: [partial(101, 10, [1n, 1n])] }, "words"],
      [{ inlinePartials: [partial(101, 0, [1n])] }, "batchSize"],
      [{ inlinePartials: [partial(101, 2 ** 20 + 1, [1n])] }, "batchSize"],
      [{ inlinePartials: [partial(101, 70, [-1n])] }, "u64"],
      [{ positionProperties: new Map([["x", 2n ** 63n]]) }, "positionProperties"],
      [{ positionProperties: new Map([["x", -(2n ** 63n) - 1n]]) }, "positionProperties"],
      [{ positionProperties: new Map([["x", 1]]) }, "positionProperties"],
      [{ positionProperties: new Map([["\uD800", 1n]]) }, "positionProperties key"],
      [{ positionProperties: { x: 1n } }, "must be a Map"],
      [{ cursorProperties: new Map([["x", 1]]) }, "cursorProperties"],
      [{ cursorProperties: new Map([["x", "\uDC00"]]) }, "cursorProperties"],
      [{ createdAtMillis: -1 }, "createdAtMillis"],
      [{ deletedAtMillis: 5 }, "deletedAtMillis"],
    ];
    for (const [change, message] of cases) expect(encodeFails(change), message).toContain(message);
  });

  test("a snapshot reference must name this cursor generation's object and lie below the root", () => {
    const snapshot = FIXTURE.snapshot!;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ objectKey: snapshotObjectKey("c1", STREAM, HASH, 3, SNAPSHOT_ID) }, "objectKey"],
      [{ objectKey: snapshotObjectKey("c1", STREAM, HASH, 2, "f".repeat(32)) }, "objectKey"],
      [{ objectKey: snapshotObjectKey("c1", "other", HASH, 2, SNAPSHOT_ID) }, "objectKey"],
      [{ objectKey: "cursor-snapshots/v1/nope" }, "not a cursor snapshot key"],
      [{ snapshotId: "nope" }, "snapshotId"],
      [{ sizeBytes: 0 }, "sizeBytes"],
      [{ crc32c: 2 ** 32 }, "crc32c"],
      [{ sourceMutationSequence: 18 }, "sourceMutationSequence"],
      [{ sourceMutationSequence: 0 }, "sourceMutationSequence"],
      [{ baseMarkDeleteOffset: 101 }, "baseMarkDeleteOffset"],
    ];
    for (const [change, message] of cases) {
      expect(encodeFails({ snapshot: { ...snapshot, ...change } }), JSON.stringify(change)).toContain(message);
    }
  });

  test("a DELETED record carries no state, and has deletedAtMillis", () => {
    for (const change of [
      { snapshot: FIXTURE.snapshot, markDeleteOffset: 100 },
      { inlineRanges: [{ start: 150, end: 151 }] },
      { inlinePartials: [{ offset: 150, batchSize: 2, remaining: [1n] }] },
      { positionProperties: new Map([["a", 1n]]) },
      { cursorProperties: new Map([["a", "1"]]) },
    ]) {
      expect(encodeFails(change, DELETED)).toContain("a DELETED cursor has no snapshot");
    }
    expect(encodeFails({ deletedAtMillis: undefined }, DELETED)).toContain("deletedAtMillis");
  });

  test("equal records encode to equal bytes whatever the map insertion order", () => {
    const reordered = {
      ...FIXTURE,
      positionProperties: new Map([...FIXTURE.positionProperties].reverse()),
      cursorProperties: new Map([...FIXTURE.cursorProperties].reverse()),
    };
    expect(toHex(cursorStateCodec.encode(reordered))).toBe(GOLDEN_ACTIVE);
  });

  test("round trip of any valid record through its key", () => {
    fc.assert(
      fc.property(cursorStateArbitrary, (record) => {
        const key = cursorRootKey("c1", record.streamId, record.cursorNameHash);
        const bytes = cursorStateCodec.encode(record);
        const decoded = cursorStateCodec.decode(bytes, key);
        expect(decoded).toEqual(record);
        expect(cursorStateCodec.encode(decoded)).toEqual(bytes);
      }),
      { numRuns: 200 },
    );
  });

  test("huge counts in a corrupt payload fail without looping", () => {
    const golden = fromHex(GOLDEN_DELETED);
    const hugeRanges = patched(golden, (payload) =>
      replaceHex(payload, "000000000000008c0000000000", "000000000000008c007fffffff"),
    );
    const error = invariantViolation(() => cursorStateCodec.decode(hugeRanges, KEY));
    expect(NereusError.hasCode(error.cause, ErrorCode.DECODE_ERROR)).toBe(true);
    expect(error.message).toContain("cannot fit");
  });
});

/** A canonical partial ack at `offset`: at least one bit acked and one remaining. */
const partialArbitrary = (offset: number): fc.Arbitrary<PartialAck> =>
  fc
    .record({
      batchSize: fc.integer({ min: 2, max: 300 }),
      words: fc.array(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), { minLength: 5, maxLength: 5 }),
      acked: fc.nat(),
      left: fc.nat(),
    })
    .map(({ batchSize, words, acked, left }) => {
      const ackedBit = acked % batchSize;
      const leftBit = (ackedBit + 1 + (left % (batchSize - 1))) % batchSize;
      const remaining = words.slice(0, Math.ceil(batchSize / 64)).map((word, index) => {
        const bits = Math.min(64, batchSize - index * 64);
        let masked = word & ((1n << BigInt(bits)) - 1n);
        if (Math.floor(ackedBit / 64) === index) masked &= ~(1n << BigInt(ackedBit % 64));
        if (Math.floor(leftBit / 64) === index) masked |= 1n << BigInt(leftBit % 64);
        return masked;
      });
      while (remaining[remaining.length - 1] === 0n) remaining.pop();
      return { offset, batchSize, remaining };
    });

/** Inline items above markDelete, generated as gaps so every invariant holds. */
const inlineStateArbitrary = (markDelete: number): fc.Arbitrary<{ ranges: AckRange[]; partials: PartialAck[] }> =>
  fc
    .array(fc.record({ gap: fc.nat({ max: 1000 }), length: fc.integer({ min: 1, max: 50 }), isRange: fc.boolean() }), {
      maxLength: 12,
    })
    .chain((steps) => {
      const ranges: AckRange[] = [];
      const partialOffsets: number[] = [];
      let next = markDelete + 1;
      for (const step of steps) {
        const start = next + step.gap;
        if (step.isRange) {
          ranges.push({ start, end: start + step.length });
          next = start + step.length + 1;
        } else {
          partialOffsets.push(start);
          next = start + 1;
        }
      }
      return fc
        .tuple(...partialOffsets.map((offset) => partialArbitrary(offset)))
        .map((partials) => ({ ranges, partials }));
    });

const hex128 = fc.uint8Array({ minLength: 16, maxLength: 16 }).map((bytes) => Buffer.from(bytes).toString("hex"));
const text = fc.string({ unit: "grapheme", maxLength: 12 });

const cursorStateArbitrary: fc.Arbitrary<CursorStateRecord> = fc
  .record({
    streamId: fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }),
    cursorName: fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }),
    ownerSessionId: hex128,
    lastProtectionAttemptId: fc.oneof(fc.constant(""), hex128),
    cursorGeneration: fc.integer({ min: 1, max: 2 ** 40 }),
    mutationSequence: fc.integer({ min: 1, max: 2 ** 40 }),
    ackStateEpoch: fc.integer({ min: 1, max: 2 ** 40 }),
    markDeleteOffset: fc.nat({ max: 2 ** 50 }),
    deleted: fc.boolean(),
    snapshot: fc.option(
      fc.record({
        snapshotId: hex128,
        sizeBytes: fc.integer({ min: 1, max: 2 ** 32 }),
        crc32c: fc.nat({ max: 0xffff_ffff }),
        sequenceFraction: fc.double({ min: 0, max: 1, noNaN: true }),
        baseFraction: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
      { nil: undefined },
    ),
    positionProperties: fc.array(fc.tuple(text, fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })), {
      maxLength: 5,
    }),
    cursorProperties: fc.array(fc.tuple(text, text), { maxLength: 5 }),
    createdAtMillis: fc.maxSafeNat(),
    updatedAtMillis: fc.maxSafeNat(),
  })
  .chain((value) =>
    inlineStateArbitrary(value.markDeleteOffset).map(({ ranges, partials }): CursorStateRecord => {
      const nameHash = cursorNameHash(value.cursorName);
      const snapshot =
        value.snapshot === undefined || value.deleted
          ? undefined
          : {
              objectKey: snapshotObjectKey(
                "c1",
                value.streamId,
                nameHash,
                value.cursorGeneration,
                value.snapshot.snapshotId,
              ),
              snapshotId: value.snapshot.snapshotId,
              sizeBytes: value.snapshot.sizeBytes,
              crc32c: value.snapshot.crc32c,
              sourceMutationSequence: Math.max(1, Math.floor(value.mutationSequence * value.snapshot.sequenceFraction)),
              baseMarkDeleteOffset: Math.floor(value.markDeleteOffset * value.snapshot.baseFraction),
            };
      return {
        streamId: value.streamId,
        cursorName: value.cursorName,
        cursorNameHash: nameHash,
        ownerSessionId: value.ownerSessionId,
        cursorGeneration: value.cursorGeneration,
        lifecycle: value.deleted ? "DELETED" : "ACTIVE",
        mutationSequence: value.mutationSequence,
        ackStateEpoch: value.ackStateEpoch,
        lastProtectionAttemptId: value.lastProtectionAttemptId,
        markDeleteOffset: value.markDeleteOffset,
        snapshot,
        inlineRanges: value.deleted ? [] : ranges,
        inlinePartials: value.deleted ? [] : partials,
        positionProperties: new Map(value.deleted ? [] : value.positionProperties),
        cursorProperties: new Map(value.deleted ? [] : value.cursorProperties),
        createdAtMillis: value.createdAtMillis,
        updatedAtMillis: value.updatedAtMillis,
        deletedAtMillis: value.deleted ? value.updatedAtMillis : undefined,
      };
    }),
  );
