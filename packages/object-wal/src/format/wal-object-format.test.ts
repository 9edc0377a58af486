import { ErrorCode, NereusError, crc32c, fromHex, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildNrs1, buildSlice, type RawObject } from "../../test/support/nrs1-builder.js";
import { decodeSlice } from "./decode-slice.js";
import { decodeWalManifest } from "./decode-wal-manifest.js";
import { decodeWalObject } from "./decode-wal-object.js";
import { decodeWalObjectFooter } from "./decode-wal-object-footer.js";
import { encodeWalObject } from "./encode-wal-object.js";
import { WAL_OBJECT_LAYOUT, walSliceId } from "./wal-object-layout.js";
import type { WalObjectInput } from "./wal-object-model.js";

const text = new TextEncoder();

/** The frozen 2-stream object. Input order s-b, s-a: the encoder sorts by stream id. */
const GOLDEN_INPUT: WalObjectInput = {
  writerId: "broker-1",
  attemptKey: "wo-1",
  createdAtMillis: 1_796_000_000_000,
  slices: [
    { streamId: "s-b", firstExpectedOffset: 7, entries: [{ recordCount: 3, payload: text.encode("xyz") }] },
    {
      streamId: "s-a",
      firstExpectedOffset: 0,
      entries: [
        { recordCount: 1, payload: text.encode("hello") },
        { recordCount: 2, payload: new Uint8Array(0) },
      ],
    },
  ],
};

// prettier-ignore
const GOLDEN_HEX = [
  // header @0 (44 bytes): "NRS1" 1.0 flags=0 writerId="broker-1" attemptKey="wo-1" createdAt=1796000000000 sliceCount=2
  "4e525331", "0001", "0000", "00000000", "00000008", "62726f6b65722d31", "00000004", "776f2d31", "000001a229f12800", "00000002",
  // slice 0 @44 (75 bytes): "NRSL" "s-a" "wo-1/000000" firstExpectedOffset=0 entryCount=2 payloadLength=5
  "4e52534c", "00000003", "732d61", "0000000b", "776f2d312f303030303030", "0000000000000000", "00000002", "00000005",
  //   index (1 record @0 +5) (2 records @5 +0), payload "hello", sliceChecksum
  "00000001", "00000000", "00000005", "00000002", "00000005", "00000000", "68656c6c6f", "b63b559d",
  // slice 1 @119 (61 bytes): "NRSL" "s-b" "wo-1/000001" firstExpectedOffset=7 entryCount=1 payloadLength=3
  "4e52534c", "00000003", "732d62", "0000000b", "776f2d312f303030303031", "0000000000000007", "00000001", "00000003",
  //   index (3 records @0 +3), payload "xyz", sliceChecksum
  "00000003", "00000000", "00000003", "78797a", "046bcb58",
  // manifest @180 (148 bytes): "NRSM" sliceCount=2
  "4e52534d", "00000002",
  //   ordinal 0 "s-a" "wo-1/000000" first=0 entries=2 records=3 payloadBytes=5 offset=44 length=75 checksum
  "00000000", "00000003", "732d61", "0000000b", "776f2d312f303030303030", "0000000000000000", "00000002",
  "0000000000000003", "0000000000000005", "000000000000002c", "0000004b", "b63b559d",
  //   ordinal 1 "s-b" "wo-1/000001" first=7 entries=1 records=3 payloadBytes=3 offset=119 length=61 checksum
  "00000001", "00000003", "732d62", "0000000b", "776f2d312f303030303031", "0000000000000007", "00000001",
  "0000000000000003", "0000000000000003", "0000000000000077", "0000003d", "046bcb58",
  // footer @328 (24 bytes): manifestOffset=180 manifestLength=148 manifestChecksum objectChecksum "NRS1"
  "00000000000000b4", "00000094", "1af5975c", "e288d3d7", "4e525331",
].join("");

function decodeFailure(run: () => unknown): NereusError {
  try {
    run();
  } catch (error) {
    if (NereusError.is(error)) return error;
    throw error;
  }
  throw new Error("expected decoding to fail");
}

function rejected(
  run: () => unknown,
  codes: readonly string[] = [ErrorCode.OBJECT_CHECKSUM_MISMATCH, ErrorCode.DECODE_ERROR],
): NereusError {
  const error = decodeFailure(run);
  expect(codes).toContain(error.code);
  expect(typeof error.details["objectOffset"]).toBe("number");
  return error;
}

const rawGolden: RawObject = {
  writerId: "broker-1",
  attemptKey: "wo-1",
  createdAtMillis: 1_796_000_000_000,
  slices: [
    {
      streamId: "s-a",
      sliceId: "wo-1/000000",
      firstExpectedOffset: 0,
      entries: [
        { recordCount: 1, payload: text.encode("hello") },
        { recordCount: 2, payload: new Uint8Array(0) },
      ],
    },
    {
      streamId: "s-b",
      sliceId: "wo-1/000001",
      firstExpectedOffset: 7,
      entries: [{ recordCount: 3, payload: text.encode("xyz") }],
    },
  ],
};

describe("NRS1 golden bytes", () => {
  it("encodes the 2-stream fixture to exactly the frozen bytes", () => {
    const encoded = encodeWalObject(GOLDEN_INPUT);
    expect(toHex(encoded.bytes)).toBe(GOLDEN_HEX);
    expect(encoded.objectChecksum).toBe(0xe288d3d7);
    expect(encoded.manifest.map((slice) => [slice.streamId, slice.offset, slice.length, slice.checksum])).toEqual([
      ["s-a", 44, 75, 0xb63b559d],
      ["s-b", 119, 61, 0x046bcb58],
    ]);
  });

  it("agrees with the independent test writer", () => {
    expect(toHex(buildNrs1(rawGolden))).toBe(GOLDEN_HEX);
  });

  it("decodes the fixture", () => {
    const decoded = decodeWalObject(fromHex(GOLDEN_HEX));
    expect(decoded.header).toEqual({
      formatMajor: 1,
      formatMinor: 0,
      writerId: "broker-1",
      attemptKey: "wo-1",
      createdAtMillis: 1_796_000_000_000,
      sliceCount: 2,
    });
    expect(decoded.objectChecksum).toBe(0xe288d3d7);
    expect(
      decoded.slices.map((slice) => ({
        ...slice,
        entries: slice.entries.map((entry) => [entry.recordCount, Buffer.from(entry.payload).toString()]),
      })),
    ).toEqual([
      {
        streamId: "s-a",
        sliceId: "wo-1/000000",
        firstExpectedOffset: 0,
        entries: [
          [1, "hello"],
          [2, ""],
        ],
      },
      { streamId: "s-b", sliceId: "wo-1/000001", firstExpectedOffset: 7, entries: [[3, "xyz"]] },
    ]);
  });

  it("reads one slice from its byte range alone, and the directory from the footer and manifest ranges", () => {
    const bytes = fromHex(GOLDEN_HEX);
    const footer = decodeWalObjectFooter(bytes.subarray(bytes.length - 24), bytes.length);
    expect(footer).toEqual({
      manifestOffset: 180,
      manifestLength: 148,
      manifestChecksum: 0x1af5975c,
      objectChecksum: 0xe288d3d7,
    });
    const manifest = decodeWalManifest(bytes.subarray(180, 180 + 148), footer);
    expect(manifest).toEqual(encodeWalObject(GOLDEN_INPUT).manifest);
    const second = manifest[1];
    if (second === undefined) throw new Error("missing slice");
    const ranged = bytes.slice(second.offset, second.offset + second.length);
    const slice = decodeSlice(ranged, second);
    expect(slice.streamId).toBe("s-b");
    expect(Buffer.from(slice.entries[0]?.payload ?? []).toString()).toBe("xyz");
  });
});

const streamId = fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 });
const entry = fc.record({
  recordCount: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constant(WAL_OBJECT_LAYOUT.maxEntryRecordCount)),
  payload: fc.uint8Array({ maxLength: 64 }),
});
const sliceInput = fc.record({
  streamId,
  firstExpectedOffset: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.constant(2 ** 40)),
  entries: fc.array(entry, { minLength: 1, maxLength: 5 }),
});
const objectInput: fc.Arbitrary<WalObjectInput> = fc.record({
  writerId: fc.string({ unit: "grapheme", minLength: 1, maxLength: 16 }),
  attemptKey: fc.string({ unit: "grapheme", minLength: 1, maxLength: 24 }),
  createdAtMillis: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  slices: fc.uniqueArray(sliceInput, { minLength: 1, maxLength: 4, selector: (slice) => slice.streamId }),
});

describe("NRS1 properties", () => {
  it("round-trips: decoding returns exactly the input, slices in UTF-8 stream order", () => {
    fc.assert(
      fc.property(objectInput, (input) => {
        const encoded = encodeWalObject(input);
        const decoded = decodeWalObject(encoded.bytes);
        const expected = [...input.slices].sort((left, right) =>
          Buffer.compare(Buffer.from(left.streamId), Buffer.from(right.streamId)),
        );
        expect(decoded.header).toMatchObject({
          writerId: input.writerId,
          attemptKey: input.attemptKey,
          createdAtMillis: input.createdAtMillis,
        });
        expect(decoded.manifest).toEqual(encoded.manifest);
        expect(decoded.slices).toHaveLength(expected.length);
        decoded.slices.forEach((slice, ordinal) => {
          const original = expected[ordinal];
          expect(slice.streamId).toBe(original?.streamId);
          expect(slice.sliceId).toBe(walSliceId(input.attemptKey, ordinal));
          expect(slice.firstExpectedOffset).toBe(original?.firstExpectedOffset);
          expect(slice.entries.map((stored) => [stored.recordCount, toHex(stored.payload)])).toEqual(
            original?.entries.map((written) => [written.recordCount, toHex(written.payload)]),
          );
        });
      }),
    );
  });

  it("is canonical: the slice order of the input does not change the bytes", () => {
    fc.assert(
      fc.property(objectInput, (input) => {
        const reversed = { ...input, slices: [...input.slices].reverse() };
        expect(toHex(encodeWalObject(reversed).bytes)).toBe(toHex(encodeWalObject(input).bytes));
      }),
    );
  });

  it("rejects any single flipped bit anywhere in the object", () => {
    fc.assert(
      fc.property(objectInput, fc.nat(), fc.integer({ min: 0, max: 7 }), (input, position, bit) => {
        const bytes = encodeWalObject(input).bytes;
        const at = position % bytes.length;
        bytes[at] = (bytes[at] ?? 0) ^ (1 << bit);
        rejected(() => decodeWalObject(bytes));
      }),
    );
  });

  it("rejects every truncation and any trailing bytes", () => {
    fc.assert(
      fc.property(objectInput, fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 40 }), (input, cut, extra) => {
        const bytes = encodeWalObject(input).bytes;
        rejected(() => decodeWalObject(bytes.subarray(0, cut % bytes.length)));
        const extended = new Uint8Array(bytes.length + extra.length);
        extended.set(bytes);
        extended.set(extra, bytes.length);
        rejected(() => decodeWalObject(extended));
      }),
    );
  });

  it("rejects a slice read with any flipped bit, a wrong length or another slice's descriptor", () => {
    fc.assert(
      fc.property(objectInput, fc.nat(), fc.nat(), fc.integer({ min: 0, max: 7 }), (input, which, position, bit) => {
        const { bytes, manifest } = encodeWalObject(input);
        const descriptor = manifest[which % manifest.length];
        if (descriptor === undefined) throw new Error("no slice");
        const range = bytes.slice(descriptor.offset, descriptor.offset + descriptor.length);
        expect(decodeSlice(range, descriptor).streamId).toBe(descriptor.streamId);
        const flipped = range.slice();
        const at = position % flipped.length;
        flipped[at] = (flipped[at] ?? 0) ^ (1 << bit);
        expect(rejected(() => decodeSlice(flipped, descriptor)).code).toBe(ErrorCode.OBJECT_CHECKSUM_MISMATCH);
        expect(rejected(() => decodeSlice(range.subarray(0, range.length - 1), descriptor)).code).toBe(
          ErrorCode.DECODE_ERROR,
        );
        expect(
          rejected(() =>
            decodeSlice(bytes.slice(descriptor.offset, descriptor.offset + descriptor.length + 1), descriptor),
          ).code,
        ).toBe(ErrorCode.DECODE_ERROR);
        const other = manifest.find((candidate) => candidate.ordinal !== descriptor.ordinal);
        if (other !== undefined)
          rejected(() => decodeSlice(range, { ...other, offset: descriptor.offset, length: descriptor.length }));
      }),
    );
  });
});

describe("NRS1 strict decoding of CRC-valid but malformed objects", () => {
  const cases: readonly [string, RawObject, string, number?][] = [
    ["an unknown minor version", { ...rawGolden, formatMinor: 1 }, ErrorCode.UNSUPPORTED_FORMAT, 4],
    ["an unknown major version", { ...rawGolden, formatMajor: 2 }, ErrorCode.UNSUPPORTED_FORMAT, 4],
    ["flags set", { ...rawGolden, flags: 1 }, ErrorCode.DECODE_ERROR, 8],
    ["an empty writer id", { ...rawGolden, writerId: "" }, ErrorCode.DECODE_ERROR, 12],
    ["a header slice count that disagrees with the manifest", { ...rawGolden, sliceCount: 3 }, ErrorCode.DECODE_ERROR],
    [
      "a gap between the last slice and the manifest",
      { ...rawGolden, gapBeforeManifest: new Uint8Array(1) },
      ErrorCode.DECODE_ERROR,
    ],
    [
      "stream ids out of order",
      {
        ...rawGolden,
        slices: [...rawGolden.slices]
          .reverse()
          .map((slice, ordinal) => ({ ...slice, sliceId: `wo-1/00000${String(ordinal)}` })),
      },
      ErrorCode.DECODE_ERROR,
    ],
    [
      "a slice id not derived from the attempt key",
      {
        ...rawGolden,
        slices: rawGolden.slices.map((slice, ordinal) =>
          ordinal === 1 ? { ...slice, sliceId: "other/000001" } : slice,
        ),
      },
      ErrorCode.DECODE_ERROR,
    ],
    [
      "an index entry that skips payload bytes",
      {
        ...rawGolden,
        slices: rawGolden.slices.map((slice, ordinal) =>
          ordinal === 0
            ? {
                ...slice,
                index: [
                  { recordCount: 1, payloadOffset: 0, payloadLength: 4 },
                  { recordCount: 2, payloadOffset: 5, payloadLength: 0 },
                ],
              }
            : slice,
        ),
      },
      ErrorCode.DECODE_ERROR,
    ],
    [
      "an index entry running past the payload",
      {
        ...rawGolden,
        slices: rawGolden.slices.map((slice, ordinal) =>
          ordinal === 0
            ? {
                ...slice,
                index: [
                  { recordCount: 1, payloadOffset: 0, payloadLength: 5 },
                  { recordCount: 2, payloadOffset: 5, payloadLength: 1 },
                ],
              }
            : slice,
        ),
      },
      ErrorCode.DECODE_ERROR,
    ],
    [
      "an entry with zero records",
      {
        ...rawGolden,
        slices: rawGolden.slices.map((slice, ordinal) =>
          ordinal === 1 ? { ...slice, entries: [{ recordCount: 0, payload: text.encode("xyz") }] } : slice,
        ),
      },
      ErrorCode.DECODE_ERROR,
    ],
    [
      "a slice with a wrong magic",
      {
        ...rawGolden,
        slices: rawGolden.slices.map((slice, ordinal) => (ordinal === 1 ? { ...slice, magic: "NRSX" } : slice)),
      },
      ErrorCode.DECODE_ERROR,
      119,
    ],
    [
      "a manifest record count that disagrees with the slice",
      {
        ...rawGolden,
        editManifest: (descriptors) => {
          const first = descriptors[0];
          if (first !== undefined) first.recordCount = 4;
        },
      },
      ErrorCode.DECODE_ERROR,
    ],
    [
      "a manifest stream id that disagrees with the slice",
      {
        ...rawGolden,
        editManifest: (descriptors) => {
          const second = descriptors[1];
          if (second !== undefined) second.streamId = "s-c";
        },
      },
      ErrorCode.DECODE_ERROR,
    ],
    [
      "overlapping slices",
      {
        ...rawGolden,
        editManifest: (descriptors) => {
          const first = descriptors[0];
          if (first !== undefined) first.length += 1;
        },
      },
      ErrorCode.DECODE_ERROR,
    ],
    [
      "a manifest slice checksum that disagrees with the slice",
      {
        ...rawGolden,
        editManifest: (descriptors) => {
          const first = descriptors[0];
          if (first !== undefined) first.checksum ^= 1;
        },
      },
      ErrorCode.OBJECT_CHECKSUM_MISMATCH,
      44 + 71,
    ],
    [
      "a slice whose own checksum is wrong (object checksum resealed)",
      {
        ...rawGolden,
        slices: rawGolden.slices.map((slice, ordinal) => (ordinal === 0 ? { ...slice, checksum: 1 } : slice)),
      },
      ErrorCode.OBJECT_CHECKSUM_MISMATCH,
      44 + 71,
    ],
  ];

  it.each(cases)("rejects %s", (_name, raw, code, objectOffset) => {
    const error = rejected(() => decodeWalObject(buildNrs1(raw)), [code]);
    if (objectOffset !== undefined) expect(error.details["objectOffset"]).toBe(objectOffset);
  });

  it("names the byte offset of a structural fault inside a slice", () => {
    const bytes = buildNrs1({
      ...rawGolden,
      slices: rawGolden.slices.map((slice, ordinal) =>
        ordinal === 0
          ? {
              ...slice,
              index: [
                { recordCount: 1, payloadOffset: 0, payloadLength: 5 },
                { recordCount: 2, payloadOffset: 4, payloadLength: 0 },
              ],
            }
          : slice,
      ),
    });
    // Slice 0 starts at 44; its second index item's payloadOffset is at 44 + 4+7+15+8+4+4 + 12 + 4 = 102.
    expect(rejected(() => decodeWalObject(bytes), [ErrorCode.DECODE_ERROR]).details["objectOffset"]).toBe(102);
  });

  it("the test writer's slices are what the encoder writes", () => {
    const encoded = encodeWalObject(GOLDEN_INPUT);
    const first = encoded.manifest[0];
    if (first === undefined) throw new Error("no slice");
    expect(
      toHex(buildSlice(rawGolden.slices[0] ?? { streamId: "", sliceId: "", firstExpectedOffset: 0, entries: [] })),
    ).toBe(toHex(encoded.bytes.subarray(first.offset, first.offset + first.length)));
  });
});

describe("encodeWalObject memory and checksums", () => {
  it("builds the object in the allocator's memory and reports the CRC32C of all its bytes", () => {
    const lengths: number[] = [];
    const encoded = encodeWalObject(GOLDEN_INPUT, (length) => {
      lengths.push(length);
      return new Uint8Array(new SharedArrayBuffer(length));
    });
    expect(lengths).toEqual([encoded.bytes.length]);
    expect(encoded.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(toHex(Uint8Array.from(encoded.bytes))).toBe(toHex(encodeWalObject(GOLDEN_INPUT).bytes));
    expect(encoded.storageChecksum).toBe(crc32c(encoded.bytes));
  });

  it("property: entries that carry their payload CRC32C encode to the same bytes and checksums as entries that do not", () => {
    fc.assert(
      fc.property(objectInput, (input) => {
        const withCrcs: WalObjectInput = {
          ...input,
          slices: input.slices.map((slice) => ({
            ...slice,
            entries: slice.entries.map((each) => ({ ...each, payloadCrc32c: crc32c(each.payload) })),
          })),
        };
        const plain = encodeWalObject(input);
        const combined = encodeWalObject(withCrcs);
        expect(toHex(combined.bytes)).toBe(toHex(plain.bytes));
        expect(combined.objectChecksum).toBe(crc32c(plain.bytes.subarray(0, plain.bytes.length - 8)));
        expect(combined.storageChecksum).toBe(crc32c(plain.bytes));
        expect(combined.manifest).toEqual(plain.manifest);
      }),
    );
  });

  it("refuses an allocator that returns the wrong length", () => {
    expect(decodeFailure(() => encodeWalObject(GOLDEN_INPUT, (length) => new Uint8Array(length + 1))).code).toBe(
      ErrorCode.INVALID_ARGUMENT,
    );
  });
});

describe("encodeWalObject input checks", () => {
  const valid = GOLDEN_INPUT;
  it.each([
    ["no slices", { ...valid, slices: [] }],
    ["an empty writer id", { ...valid, writerId: "" }],
    ["an empty attempt key", { ...valid, attemptKey: "" }],
    ["a negative creation time", { ...valid, createdAtMillis: -1 }],
    ["two slices of one stream", { ...valid, slices: [valid.slices[0], valid.slices[0]] }],
    [
      "an empty stream id",
      {
        ...valid,
        slices: [{ streamId: "", firstExpectedOffset: 0, entries: [{ recordCount: 1, payload: new Uint8Array(1) }] }],
      },
    ],
    ["a slice without entries", { ...valid, slices: [{ streamId: "s", firstExpectedOffset: 0, entries: [] }] }],
    [
      "a zero record count",
      {
        ...valid,
        slices: [{ streamId: "s", firstExpectedOffset: 0, entries: [{ recordCount: 0, payload: new Uint8Array(1) }] }],
      },
    ],
    [
      "a record count above 2^31-1",
      {
        ...valid,
        slices: [
          { streamId: "s", firstExpectedOffset: 0, entries: [{ recordCount: 2 ** 31, payload: new Uint8Array(1) }] },
        ],
      },
    ],
    [
      "offsets past 2^53-1",
      {
        ...valid,
        slices: [
          {
            streamId: "s",
            firstExpectedOffset: Number.MAX_SAFE_INTEGER,
            entries: [{ recordCount: 1, payload: new Uint8Array(1) }],
          },
        ],
      },
    ],
    [
      "an unpaired surrogate in a stream id",
      {
        ...valid,
        slices: [
          { streamId: "\ud800", firstExpectedOffset: 0, entries: [{ recordCount: 1, payload: new Uint8Array(1) }] },
        ],
      },
    ],
  ] as [string, WalObjectInput][])("refuses %s with INVALID_ARGUMENT", (_name, input) => {
    expect(decodeFailure(() => encodeWalObject(input)).code).toBe(ErrorCode.INVALID_ARGUMENT);
  });
});
