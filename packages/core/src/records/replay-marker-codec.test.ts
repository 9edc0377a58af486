import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { ReplayMarker } from "../domain/commit-records.js";
import { fromHex, toHex } from "../bytes/hex.js";
import { commitIntentKey, replayMarkerKey } from "../keys/stream-keys.js";
import { commitIntentCodec } from "./commit-intent-codec.js";
import {
  FIXTURE_INTENT,
  FIXTURE_MARKER,
  replayMarkerArbitrary,
  TEST_PREFIX,
  withPatchedPayload,
} from "./record-codecs.test-support.js";
import { expectCorruptionRejected, invariantViolation } from "../testing/record-corruption.js";
import { replayMarkerCodec } from "./replay-marker-codec.js";

// Frozen golden fixture (produced once by an independent encoder of the documented layout).
const GOLDEN_MARKER = [
  "4e524d31", // magic "NRM1"
  "0000000c5265706c61794d61726b6572", // recordType "ReplayMarker"
  "0001", // schemaVersion 1
  "0001", // minReaderSchemaVersion 1
  "01", // payloadEncoding 1 (canonical binary v1)
  "0000008a", // payloadLength 138
  "e5b8ea25", // payloadCrc32c
  "00000036732d64716c69767779613269656f696c347467666373743470327471636370323364656d366f336b6b326c77", // streamId
  "32737734617375346d71",
  "0000003463786a6e7667657273686d7a646d636f6c7a696a33716e7a62356473333567337265696368747273746e3736", // commitId
  "3532346977707771",
  "0000000000000064", // offsetStart 100
  "0000000000000069", // offsetEnd 105
  "0000000000000007", // commitVersion 7
].join("");

const keyOf = (marker: ReplayMarker): string => replayMarkerKey(TEST_PREFIX, marker.streamId, marker.commitId);
const decodeFixture = (bytes: Uint8Array): ReplayMarker => replayMarkerCodec.decode(bytes, keyOf(FIXTURE_MARKER));

// Payload byte offsets of the fixture: streamId 0..58, commitId 58..114, offsetStart 114..122,
// offsetEnd 122..130, commitVersion 130..138.
const OFFSET_END_LOW_BYTE = 129;
const COMMIT_VERSION_LOW_BYTE = 137;

describe("replayMarkerCodec", () => {
  test("golden bytes", () => {
    expect(toHex(replayMarkerCodec.encode(FIXTURE_MARKER))).toBe(GOLDEN_MARKER);
    expect(decodeFixture(fromHex(GOLDEN_MARKER))).toEqual(FIXTURE_MARKER);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN_MARKER), decodeFixture);
  });

  test("a record of another type or a foreign key is rejected", () => {
    expect(invariantViolation(() => decodeFixture(commitIntentCodec.encode(FIXTURE_INTENT))).message).toContain(
      'record type is "CommitIntent", expected "ReplayMarker"',
    );
    const golden = fromHex(GOLDEN_MARKER);
    expect(
      invariantViolation(() =>
        replayMarkerCodec.decode(golden, replayMarkerKey(TEST_PREFIX, FIXTURE_MARKER.streamId, "x")),
      ).message,
    ).toContain("does not match the key's commit x");
    expect(
      invariantViolation(() =>
        replayMarkerCodec.decode(
          golden,
          commitIntentKey(TEST_PREFIX, FIXTURE_MARKER.streamId, FIXTURE_MARKER.commitId),
        ),
      ).message,
    ).toContain("is not a replay marker key");
  });

  test("decode validates invariants of well-formed records", () => {
    const golden = fromHex(GOLDEN_MARKER);
    expect(
      invariantViolation(() =>
        decodeFixture(withPatchedPayload(golden, "ReplayMarker", (view) => view.setUint8(OFFSET_END_LOW_BYTE, 100))),
      ).message,
    ).toContain("empty range [100, 100)");
    expect(
      invariantViolation(() =>
        decodeFixture(withPatchedPayload(golden, "ReplayMarker", (view) => view.setUint8(COMMIT_VERSION_LOW_BYTE, 0))),
      ).message,
    ).toContain("commitVersion must be a safe integer >= 1");
  });

  test("encode refuses markers that break invariants", () => {
    const bad: Array<Partial<ReplayMarker>> = [
      { streamId: "" },
      { commitId: "" },
      { offsetEnd: 99 },
      { offsetEnd: 100 },
      { offsetStart: -1 },
      { commitVersion: 0 },
      { offsetEnd: 2 ** 53 },
    ];
    for (const change of bad) invariantViolation(() => replayMarkerCodec.encode({ ...FIXTURE_MARKER, ...change }));
  });

  test("property: round trip", () => {
    fc.assert(
      fc.property(replayMarkerArbitrary, (marker) => {
        expect(replayMarkerCodec.decode(replayMarkerCodec.encode(marker), keyOf(marker))).toEqual(marker);
      }),
    );
  });
});
