import { ErrorCode, NereusError, crc32c, fromHex, streamIdFromName, toHex } from "@nereus/core";
import { invariantViolation } from "@nereus/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { PartialAck } from "../domain/ack-types.js";
import type { CursorSnapshotContent } from "../domain/snapshot-content.js";
import { snapshotObjectKey } from "../keys/cursor-keys.js";
import {
  type SnapshotExpectation,
  decodeCursorSnapshot,
  encodeCursorSnapshot,
  snapshotExpectationOf,
} from "./snapshot-codec.js";

const STREAM = streamIdFromName("orders");
const HASH = "5b2ab34819ee0d3c7a290ed1f275a655";
const SNAPSHOT_ID = "0123456789abcdef0123456789abcdef";
const T40 = 2 ** 40;

const FIXTURE: CursorSnapshotContent = {
  snapshotId: SNAPSHOT_ID,
  streamId: STREAM,
  cursorNameHash: HASH,
  cursorGeneration: 2,
  sourceMutationSequence: 12,
  baseMarkDeleteOffset: 90,
  createdAtMillis: 1_700_000_050_000,
  rangeStarts: new Float64Array([91, 95, 300, T40]),
  rangeEnds: new Float64Array([92, 100, 301, T40 + 200]),
  partials: [
    { offset: 90, batchSize: 10, remaining: [0x3f0n] },
    { offset: 200, batchSize: 70, remaining: [2n ** 64n - 1n, 1n] },
    { offset: T40 + 1000, batchSize: 300, remaining: [0n, 0n, 0n, 0n, 1n << 43n] },
  ],
};

// Frozen golden fixture, composed once from the layout documented in snapshot-codec.ts by an independent encoder
// (Python struct and a bitwise CRC32C), never regenerated from the TypeScript codec.
const GOLDEN = [
  "4e43533100010000000000000000009c", // magic, major 1, minor 0, flags 0, headerLength
  "0000000000000122", // totalLength
  "0123456789abcdef0123456789abcdef", // snapshotId
  "5b2ab34819ee0d3c7a290ed1f275a655", // cursorNameHash
  "0000000000000002000000000000000c", // cursorGeneration 2, sourceMutationSequence 12
  "000000000000005a0000018bcfe62b50", // baseMarkDeleteOffset 90, createdAtMillis
  "0000000400000003", // rangeCount 4, partialCount 3
  "0036732d64716c69767779613269656f696c347467666373743470327471636370323364", // streamId
  "656d366f336b6b326c7732737734617375346d71",
  "6d6c685e", // headerCrc32c
  "4e4352310000000f", // NCR1, bodyLength
  "00000204c70100d2fdffffff1fc701", // [91,92) [95,100) [300,301) [2^40,2^40+200)
  "014e7e48", // range crc32c
  "4e4342310000004f", // NCB1, bodyLength
  "000a0100000000000003f06d4602ffffffffffffffff00000000000000019f8680808020", // 90: 10 bits 0x3f0; 200: 70 bits [2^64-1, 1]; 2^40+1000: 300 bits [0,0,0,0,2^43]
  "ac0205000000000000000000000000000000000000000000000000000000000000000000",
  "00080000000000",
  "9beb870f", // partial crc32c
  "4e43463100000000000001222f8d5741", // NCF1, totalLength, crc32c
].join("");
const GOLDEN_CRC = 0x01c58588;

/** Offsets of the golden object's parts. */
const HEADER_END = 0x9c;
const RANGE_SECTION = { start: HEADER_END, bodyStart: HEADER_END + 8, crc: HEADER_END + 8 + 15 };
const PARTIAL_SECTION = { start: RANGE_SECTION.crc + 4, bodyStart: RANGE_SECTION.crc + 12 };
const FOOTER = 290 - 16;

function expectationOf(bytes: Uint8Array, change: Partial<SnapshotExpectation> = {}): SnapshotExpectation {
  return {
    snapshotId: SNAPSHOT_ID,
    streamId: STREAM,
    cursorNameHash: HASH,
    cursorGeneration: 2,
    sizeBytes: bytes.length,
    crc32c: crc32c(bytes),
    sourceMutationSequence: 12,
    baseMarkDeleteOffset: 90,
    ...change,
  };
}

const EXPECTED = expectationOf(fromHex(GOLDEN));

/** Decoding must fail with METADATA_INVARIANT_VIOLATION; returns the message. */
function decodeFails(bytes: Uint8Array, expected: SnapshotExpectation = expectationOf(bytes)): string {
  return invariantViolation(() => decodeCursorSnapshot(bytes, expected)).message;
}

/** Recomputes the CRC32C stored at `at` over `[from, at)`. */
function refreshCrc(bytes: Uint8Array, from: number, at: number): Uint8Array {
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(at, crc32c(bytes.subarray(from, at)));
  return bytes;
}

interface RawSnapshot {
  readonly major?: number;
  readonly minor?: number;
  readonly flags?: number;
  readonly extension?: Uint8Array;
  readonly rangeCount: number;
  readonly partialCount: number;
  readonly rangeBody: number[];
  readonly partialBody: number[];
}

/** Frames raw section bodies as NCS1 with the golden's header fields (a test-side encoder for crafted bodies). */
function frame(raw: RawSnapshot): Uint8Array {
  const header = fromHex(GOLDEN).slice(0, HEADER_END - 4);
  const extension = raw.extension ?? new Uint8Array();
  const headerLength = HEADER_END + extension.length;
  const total = headerLength + 24 + raw.rangeBody.length + raw.partialBody.length + 16;
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  bytes.set(header);
  bytes.set(extension, header.length);
  view.setUint16(4, raw.major ?? 1);
  view.setUint16(6, raw.minor ?? 0);
  view.setUint32(8, raw.flags ?? 0);
  view.setUint32(12, headerLength);
  view.setBigUint64(16, BigInt(total));
  view.setUint32(88, raw.rangeCount);
  view.setUint32(92, raw.partialCount);
  refreshCrc(bytes, 0, headerLength - 4);
  let at = headerLength;
  for (const [magic, body] of [
    ["NCR1", raw.rangeBody],
    ["NCB1", raw.partialBody],
  ] as const) {
    bytes.set(new TextEncoder().encode(magic), at);
    view.setUint32(at + 4, body.length);
    bytes.set(body, at + 8);
    refreshCrc(bytes, at, at + 8 + body.length);
    at += 12 + body.length;
  }
  bytes.set(new TextEncoder().encode("NCF1"), at);
  view.setBigUint64(at + 4, BigInt(total));
  return refreshCrc(bytes, 0, at + 12);
}

const word = (value: bigint): number[] => [...fromHex(value.toString(16).padStart(16, "0"))];

describe("NCS1 snapshot format", () => {
  test("golden bytes", () => {
    const bytes = encodeCursorSnapshot(FIXTURE);
    expect(toHex(bytes)).toBe(GOLDEN);
    expect(crc32c(bytes)).toBe(GOLDEN_CRC);
    expect(decodeCursorSnapshot(fromHex(GOLDEN), EXPECTED)).toEqual(FIXTURE);
  });

  test("the expectation of a root's reference pins the object", () => {
    const reference = {
      objectKey: snapshotObjectKey("c1", STREAM, HASH, 2, SNAPSHOT_ID),
      snapshotId: SNAPSHOT_ID,
      sizeBytes: 290,
      crc32c: GOLDEN_CRC,
      sourceMutationSequence: 12,
      baseMarkDeleteOffset: 90,
    };
    const expected = snapshotExpectationOf(reference, { streamId: STREAM, cursorNameHash: HASH, cursorGeneration: 2 });
    expect(decodeCursorSnapshot(fromHex(GOLDEN), expected)).toEqual(FIXTURE);
    const wrongGeneration = { ...expected, cursorGeneration: 3 };
    expect(decodeFails(fromHex(GOLDEN), wrongGeneration)).toContain(`cursor snapshot ${reference.objectKey} (decode)`);
  });

  test("every field of the expectation is checked, and named", () => {
    const golden = fromHex(GOLDEN);
    const cases: Array<[Partial<SnapshotExpectation>, string]> = [
      [{ snapshotId: "f".repeat(32) }, "snapshotId"],
      [{ streamId: streamIdFromName("other") }, "streamId"],
      [{ cursorNameHash: "0".repeat(32) }, "cursorNameHash"],
      [{ cursorGeneration: 1 }, "cursorGeneration"],
      [{ sourceMutationSequence: 13 }, "sourceMutationSequence"],
      [{ baseMarkDeleteOffset: 91 }, "baseMarkDeleteOffset"],
      [{ sizeBytes: 291 }, "sizeBytes"],
      [{ crc32c: GOLDEN_CRC ^ 1 }, "crc32c"],
    ];
    for (const [change, field] of cases) {
      const message = decodeFails(golden, { ...EXPECTED, ...change });
      expect(message, field).toContain(`: ${field}: `);
      const error = invariantViolation(() => decodeCursorSnapshot(golden, { ...EXPECTED, ...change }));
      expect(error.details).toMatchObject({ field });
    }
  });

  test("every bit flip and every truncation is rejected, whatever the expectation says", () => {
    const golden = fromHex(GOLDEN);
    for (let index = 0; index < golden.length; index += 1) {
      for (let bit = 0; bit < 8; bit += 1) {
        const flipped = golden.slice();
        flipped[index] = (flipped[index] ?? 0) ^ (1 << bit);
        decodeFails(flipped, EXPECTED);
        decodeFails(flipped); // size and CRC recomputed: the format's own checks catch it
      }
    }
    for (let length = 0; length < golden.length; length += 1) {
      decodeFails(golden.subarray(0, length), EXPECTED);
      decodeFails(golden.subarray(0, length));
    }
    const extended = new Uint8Array(golden.length + 1);
    extended.set(golden);
    expect(decodeFails(extended, EXPECTED)).toContain("sizeBytes");
    expect(decodeFails(extended)).toContain("totalLength");
  });

  test("a corrupt byte is caught by the CRC of its own part first", () => {
    const flip = (at: number): Uint8Array => {
      const bytes = fromHex(GOLDEN);
      bytes[at] = (bytes[at] ?? 0) ^ 0x01;
      return bytes;
    };
    expect(decodeFails(flip(60))).toContain("headerCrc32c");
    expect(decodeFails(flip(RANGE_SECTION.bodyStart + 2))).toContain("range section crc32c");
    expect(decodeFails(flip(PARTIAL_SECTION.bodyStart + 5))).toContain("partial section crc32c");
    expect(decodeFails(flip(FOOTER - 1))).toContain("partial section crc32c");
    expect(decodeFails(flip(FOOTER + 9))).toContain("footer totalLength");
    expect(decodeFails(flip(FOOTER + 14))).toContain("footer crc32c");
    // A section edited with its own CRC recomputed is still caught by the footer, then by the object CRC.
    const resealed = refreshCrc(flip(RANGE_SECTION.bodyStart + 2), RANGE_SECTION.start, RANGE_SECTION.crc);
    expect(decodeFails(resealed)).toContain("footer crc32c");
    expect(decodeFails(refreshCrc(resealed, 0, FOOTER + 12), EXPECTED)).toContain(": crc32c: ");
  });

  test("only major version 1 and no flags are read; a newer minor's header extension is skipped", () => {
    const rangeBody = [0x00, 0x00];
    const base = { rangeCount: 1, partialCount: 0, rangeBody, partialBody: [] };
    expect(decodeFails(frame({ ...base, major: 2 }))).toContain("unknown major version 2");
    expect(decodeFails(frame({ ...base, flags: 1 }))).toContain("unknown flags 0x1");
    const extended = frame({ ...base, minor: 1, extension: new Uint8Array([1, 2, 3, 4, 5]) });
    const decoded = decodeCursorSnapshot(extended, expectationOf(extended));
    expect([...decoded.rangeStarts, ...decoded.rangeEnds]).toEqual([91, 92]);
    expect(decodeFails(frame({ ...base, extension: new Uint8Array([1]) }))).toContain("headerLength");
  });

  test("bodies the encoder could not have written are rejected", () => {
    const cases: Array<[RawSnapshot, string]> = [
      [{ rangeCount: 1, partialCount: 0, rangeBody: [0x80, 0x00, 0x00], partialBody: [] }, "ranges[0]"],
      [{ rangeCount: 1, partialCount: 0, rangeBody: [0x00, 0x00, 0x00], partialBody: [] }, "bytes left after"],
      [{ rangeCount: 2, partialCount: 0, rangeBody: [0x00, 0x00, 0x00, 0x80], partialBody: [] }, "ranges[1]"],
      [{ rangeCount: 2, partialCount: 0, rangeBody: [0x00, 0x00, 0x00], partialBody: [] }, "rangeCount"],
      [
        {
          rangeCount: 1,
          partialCount: 0,
          rangeBody: [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f, 0],
          partialBody: [],
        },
        "ranges[0]",
      ],
      [{ rangeCount: 0, partialCount: 1, rangeBody: [], partialBody: [0, 10, 1, ...word(0x3ffn)] }, "every bit"],
      [{ rangeCount: 0, partialCount: 1, rangeBody: [], partialBody: [0, 10, 1, ...word(0n)] }, "trailing zero"],
      [{ rangeCount: 0, partialCount: 1, rangeBody: [], partialBody: [0, 10, 1, ...word(0x400n)] }, "batchSize"],
      [{ rangeCount: 0, partialCount: 1, rangeBody: [], partialBody: [0, 0, 1, ...word(1n)] }, "batchSize"],
      [{ rangeCount: 0, partialCount: 1, rangeBody: [], partialBody: [0, 10, 2, ...word(1n)] }, "words overrun"],
      [{ rangeCount: 1, partialCount: 1, rangeBody: [0, 4], partialBody: [3, 10, 1, ...word(1n)] }, "inside a range"],
      [{ rangeCount: 0, partialCount: 1, rangeBody: [], partialBody: [0x80, 0, 10, 1, ...word(1n)] }, "partials[0]"],
    ];
    for (const [raw, message] of cases) expect(decodeFails(frame(raw)), message).toContain(message);
    // The same bodies in canonical form decode.
    const good = frame({ rangeCount: 1, partialCount: 1, rangeBody: [0, 4], partialBody: [7, 10, 1, ...word(1n)] });
    const decoded = decodeCursorSnapshot(good, expectationOf(good));
    expect([decoded.rangeStarts[0], decoded.rangeEnds[0], decoded.partials[0]?.offset]).toEqual([91, 96, 97]);
  });

  test("encode refuses content that breaks the invariants", () => {
    const ranges = (starts: number[], ends: number[]): Partial<CursorSnapshotContent> => ({
      rangeStarts: new Float64Array(starts),
      rangeEnds: new Float64Array(ends),
      partials: [],
    });
    const partials = (...items: PartialAck[]): Partial<CursorSnapshotContent> => ({ partials: items });
    const cases: Array<[Partial<Record<keyof CursorSnapshotContent, unknown>>, string]> = [
      [{ snapshotId: "xyz" }, "snapshotId"],
      [{ cursorNameHash: HASH.toUpperCase() }, "cursorNameHash"],
      [{ streamId: "" }, "streamId"],
      [{ streamId: "a\uD800" }, "streamId"],
      [{ streamId: "x".repeat(65_536) }, "streamId"],
      [{ cursorGeneration: 0 }, "cursorGeneration"],
      [{ sourceMutationSequence: 0 }, "sourceMutationSequence"],
      [{ baseMarkDeleteOffset: -1 }, "baseMarkDeleteOffset"],
      [{ createdAtMillis: 1.5 }, "createdAtMillis"],
      [{ rangeStarts: [91], rangeEnds: [92] }, "Float64Arrays"],
      [ranges([91, 95], [92]), "same length"],
      [ranges([90], [92]), "ranges[0]"],
      [ranges([91, 92], [92, 93]), "ranges[1]"],
      [ranges([91, 93], [94, 95]), "ranges[1]"],
      [ranges([95, 91], [96, 92]), "ranges[1]"],
      [ranges([91], [91]), "ranges[0]"],
      [ranges([91.5], [92]), "ranges[0]"],
      [ranges([91], [2 ** 53]), "ranges[0]"],
      [partials({ offset: 89, batchSize: 10, remaining: [1n] }), "partials[0]"],
      [
        partials({ offset: 101, batchSize: 10, remaining: [1n] }, { offset: 101, batchSize: 10, remaining: [2n] }),
        "partials[1]",
      ],
      [partials({ offset: 91, batchSize: 10, remaining: [0x3ffn] }), "every bit"],
      [partials({ offset: 91, batchSize: 70, remaining: [1n, 0n] }), "trailing zero"],
    ];
    for (const [change, field] of cases) {
      const content = { ...FIXTURE, ...change } as CursorSnapshotContent;
      expect(invariantViolation(() => encodeCursorSnapshot(content)).message, field).toContain(field);
    }
    const inside = { ...FIXTURE, partials: [{ offset: 96, batchSize: 10, remaining: [1n] }] };
    expect(invariantViolation(() => encodeCursorSnapshot(inside)).message).toContain("inside a range");
  });

  test("round trip of any valid content, canonically", () => {
    fc.assert(
      fc.property(snapshotContentArbitrary, (content) => {
        const bytes = encodeCursorSnapshot(content);
        const decoded = decodeCursorSnapshot(bytes, expectationOf(bytes, content));
        expect(decoded).toEqual(content);
        expect(encodeCursorSnapshot(decoded)).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
  });

  test("1,000,000 one-entry ranges at stride 2 take about 2 MB and round trip", () => {
    const count = 1_000_000;
    const base = 5_000_000_000;
    const starts = new Float64Array(count);
    const ends = new Float64Array(count);
    for (let index = 0; index < count; index += 1) {
      starts[index] = base + 1 + 2 * index;
      ends[index] = base + 2 + 2 * index;
    }
    const content = { ...FIXTURE, baseMarkDeleteOffset: base, rangeStarts: starts, rangeEnds: ends, partials: [] };
    const bytes = encodeCursorSnapshot(content);
    expect(bytes.length).toBeGreaterThanOrEqual(2 * count);
    expect(bytes.length).toBeLessThan(2 * count + 200);
    const decoded = decodeCursorSnapshot(bytes, expectationOf(bytes, { baseMarkDeleteOffset: base }));
    // Byte comparison: a deep equality over 2 × 10^6 elements would take seconds.
    expect(Buffer.from(decoded.rangeStarts.buffer).equals(Buffer.from(starts.buffer))).toBe(true);
    expect(Buffer.from(decoded.rangeEnds.buffer).equals(Buffer.from(ends.buffer))).toBe(true);
  });

  test("errors are non-retryable invariant violations naming the snapshot", () => {
    const error = invariantViolation(() => decodeCursorSnapshot(new Uint8Array(10), { ...EXPECTED, sizeBytes: 10 }));
    expect(NereusError.hasCode(error, ErrorCode.METADATA_INVARIANT_VIOLATION)).toBe(true);
    expect(error.message).toContain(`cursor snapshot ${SNAPSHOT_ID} (decode)`);
  });
});

const hex128 = fc.uint8Array({ minLength: 16, maxLength: 16 }).map((bytes) => Buffer.from(bytes).toString("hex"));

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
      const remaining = words.slice(0, Math.ceil(batchSize / 64)).map((value, index) => {
        let masked = value & ((1n << BigInt(Math.min(64, batchSize - index * 64))) - 1n);
        if (Math.floor(ackedBit / 64) === index) masked &= ~(1n << BigInt(ackedBit % 64));
        if (Math.floor(leftBit / 64) === index) masked |= 1n << BigInt(leftBit % 64);
        return masked;
      });
      while (remaining[remaining.length - 1] === 0n) remaining.pop();
      return { offset, batchSize, remaining };
    });

const snapshotContentArbitrary: fc.Arbitrary<CursorSnapshotContent> = fc
  .record({
    snapshotId: hex128,
    streamId: fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }),
    cursorNameHash: hex128,
    cursorGeneration: fc.integer({ min: 1, max: 2 ** 50 }),
    sourceMutationSequence: fc.integer({ min: 1, max: 2 ** 50 }),
    baseMarkDeleteOffset: fc.nat({ max: 2 ** 50 }),
    createdAtMillis: fc.maxSafeNat(),
    steps: fc.array(
      fc.record({
        gap: fc.oneof(fc.nat({ max: 3 }), fc.nat({ max: 2 ** 30 })),
        length: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 2 ** 20 })),
        isRange: fc.boolean(),
      }),
      { maxLength: 40 },
    ),
  })
  .chain(({ steps, ...header }) => {
    const starts: number[] = [];
    const ends: number[] = [];
    const partialOffsets: number[] = [];
    let next = header.baseMarkDeleteOffset;
    for (const step of steps) {
      if (step.isRange) {
        const start = Math.max(next, header.baseMarkDeleteOffset + 1) + step.gap;
        starts.push(start);
        ends.push(start + step.length);
        next = start + step.length + 1;
      } else {
        const offset = next + step.gap;
        partialOffsets.push(offset);
        next = offset + 1;
      }
    }
    return fc
      .tuple(...partialOffsets.map((offset) => partialArbitrary(offset)))
      .map((partials): CursorSnapshotContent => ({
        ...header,
        rangeStarts: new Float64Array(starts),
        rangeEnds: new Float64Array(ends),
        partials,
      }));
  });
