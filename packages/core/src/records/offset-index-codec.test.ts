import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { OffsetIndexEntry } from "../domain/commit-records.js";
import { fromHex, toHex } from "../bytes/hex.js";
import { offsetIndexKey, streamHeadKey } from "../keys/stream-keys.js";
import { offsetIndexCodec } from "./offset-index-codec.js";
import {
  FIXTURE_INDEX,
  FIXTURE_MARKER,
  FIXTURE_OBJECT_SLICE,
  offsetIndexArbitrary,
  TEST_PREFIX,
  withPatchedPayload,
} from "./record-codecs.test-support.js";
import { expectCorruptionRejected, invariantViolation } from "../testing/record-corruption.js";
import { replayMarkerCodec } from "./replay-marker-codec.js";

// Frozen golden fixture (produced once by an independent encoder of the documented layout).
const GOLDEN_INDEX = [
  "4e524d31", // magic "NRM1"
  "000000104f6666736574496e646578456e747279", // recordType "OffsetIndexEntry"
  "0001", // schemaVersion 1
  "0001", // minReaderSchemaVersion 1
  "01", // payloadEncoding 1 (canonical binary v1)
  "00000103", // payloadLength 259
  "337e5ccf", // payloadCrc32c
  "00000036732d64716c69767779613269656f696c347467666373743470327471636370323364656d366f336b6b326c77", // streamId
  "32737734617375346d71",
  "0000000000000064", // offsetStart 100
  "0000000000000069", // offsetEnd 105
  "0000000000000000", // generation 0
  "0000003463786a6e7667657273686d7a646d636f6c7a696a33716e7a62356473333567337265696368747273746e3736", // commitId
  "3532346977707771",
  "0000000000000007", // commitVersion 7
  "0000000000001000", // cumulativeSize 4096
  "00000058", // readTarget length
  "0000000c4f424a4543545f534c494345", //   targetType OBJECT_SLICE
  "0001", //   targetVersion 1
  "00000042", //   payload length
  "4e524f31", //     magic "NRO1"
  "0000002177616c2f76312f30302f303030303030303030303030303030303034322d616263", //     objectKey
  "01", //     objectType MULTI_STREAM_WAL_OBJECT (1)
  "0000000000001000", //     sliceOffset 4096
  "0000000000000141", //     sliceLength 321
  "e3069283", //     sliceChecksum
  "00000002", //     entryCount 2
  "02", // payloadFormat KAFKA_RECORD_BATCH (2)
  "000000020000000300000002", // entryRecordCounts [3, 2]
].join("");

const keyOf = (entry: OffsetIndexEntry): string =>
  offsetIndexKey(TEST_PREFIX, entry.streamId, entry.offsetEnd, entry.generation);
const decodeFixture = (bytes: Uint8Array): OffsetIndexEntry => offsetIndexCodec.decode(bytes, keyOf(FIXTURE_INDEX));

// Payload byte offsets of the fixture: streamId 0..58, offsetStart 58..66, offsetEnd 66..74, generation 74..82.
const OFFSET_START_LOW_BYTE = 65;

describe("offsetIndexCodec", () => {
  test("golden bytes", () => {
    expect(toHex(offsetIndexCodec.encode(FIXTURE_INDEX))).toBe(GOLDEN_INDEX);
    expect(decodeFixture(fromHex(GOLDEN_INDEX))).toEqual(FIXTURE_INDEX);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN_INDEX), decodeFixture);
  });

  test("a record of another type or a foreign key is rejected", () => {
    expect(invariantViolation(() => decodeFixture(replayMarkerCodec.encode(FIXTURE_MARKER))).message).toContain(
      'record type is "ReplayMarker", expected "OffsetIndexEntry"',
    );
    const golden = fromHex(GOLDEN_INDEX);
    for (const key of [
      offsetIndexKey(TEST_PREFIX, FIXTURE_INDEX.streamId, 106, 0),
      offsetIndexKey(TEST_PREFIX, FIXTURE_INDEX.streamId, 105, 1),
    ]) {
      expect(invariantViolation(() => offsetIndexCodec.decode(golden, key)).message).toContain(
        "does not match the key's",
      );
    }
    expect(
      invariantViolation(() => offsetIndexCodec.decode(golden, streamHeadKey(TEST_PREFIX, FIXTURE_INDEX.streamId)))
        .message,
    ).toContain("is not an offset index key");
  });

  test("decode validates invariants of well-formed records", () => {
    const golden = fromHex(GOLDEN_INDEX);
    expect(
      invariantViolation(() =>
        decodeFixture(
          withPatchedPayload(golden, "OffsetIndexEntry", (view) => view.setUint8(OFFSET_START_LOW_BYTE, 101)),
        ),
      ).message,
    ).toContain("entryRecordCounts sum to 5, expected 4");
  });

  test("encode refuses entries that break invariants", () => {
    const bad: Array<Partial<OffsetIndexEntry>> = [
      { streamId: "" },
      { offsetEnd: 100 },
      { offsetEnd: 106 },
      { generation: -1 },
      { commitId: "" },
      { commitVersion: 0 },
      { cumulativeSize: 1.5 },
      { entryRecordCounts: [] },
      { payloadFormat: "PULSAR_ENTRY_BATCH" },
      { readTarget: { ...FIXTURE_OBJECT_SLICE, sliceLength: 0 } },
    ];
    for (const change of bad) invariantViolation(() => offsetIndexCodec.encode({ ...FIXTURE_INDEX, ...change }));
  });

  test("higher generations may omit the commit id", () => {
    const entry: OffsetIndexEntry = { ...FIXTURE_INDEX, generation: 2, commitId: "" };
    expect(offsetIndexCodec.decode(offsetIndexCodec.encode(entry), keyOf(entry))).toEqual(entry);
  });

  test("property: round trip", () => {
    fc.assert(
      fc.property(offsetIndexArbitrary, (entry) => {
        expect(offsetIndexCodec.decode(offsetIndexCodec.encode(entry), keyOf(entry))).toEqual(entry);
      }),
    );
  });
});
