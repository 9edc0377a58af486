import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { CommitIntent } from "../domain/commit-records.js";
import { fromHex, toHex } from "../bytes/hex.js";
import { streamIdFromName } from "../identity/stream-id-from-name.js";
import { commitIntentKey, replayMarkerKey } from "../keys/stream-keys.js";
import { commitIntentCodec } from "./commit-intent-codec.js";
import {
  commitIntentArbitrary,
  FIXTURE_BOOKKEEPER_RANGE,
  FIXTURE_INTENT,
  FIXTURE_MARKER,
  TEST_PREFIX,
  withPatchedPayload,
} from "./record-codecs.test-support.js";
import { expectCorruptionRejected, invariantViolation } from "../testing/record-corruption.js";
import { replayMarkerCodec } from "./replay-marker-codec.js";

// Frozen golden fixture (produced once by an independent encoder of the documented layout).
const GOLDEN_INTENT = [
  "4e524d31", // magic "NRM1"
  "0000000c436f6d6d6974496e74656e74", // recordType "CommitIntent"
  "0001", // schemaVersion 1
  "0001", // minReaderSchemaVersion 1
  "01", // payloadEncoding 1 (canonical binary v1)
  "00000177", // payloadLength 375
  "48db292b", // payloadCrc32c
  "00000036732d64716c69767779613269656f696c347467666373743470327471636370323364656d366f336b6b326c77", // streamId
  "32737734617375346d71",
  "0000003463786a6e7667657273686d7a646d636f6c7a696a33716e7a62356473333567337265696368747273746e3736", // commitId
  "3532346977707771",
  "0000000e70726576696f7573636f6d6d6974", // previousCommitId
  "0000000000000064", // offsetStart 100
  "0000000000000069", // offsetEnd 105
  "0000000000001000", // cumulativeSize 4096
  "0000000000000007", // commitVersion 7
  "0000000862726f6b65722d31", // writerId
  "0000000000000003", // writerEpoch 3
  "000000403366303861616365313232656532333638343332633163613233613034396263363430626166626630306664", // fencingTokenHash
  "6633336135323432396633386261313264626639",
  "00000056", // readTarget length
  "00000016424f4f4b4b45455045525f454e5452595f52414e4745", //   targetType BOOKKEEPER_ENTRY_RANGE
  "0001", //   targetVersion 1
  "00000036", //   payload length
  "4e524231", //     magic "NRB1"
  "00000007626b2d6d61696e", //     clusterAlias
  "0000001339323233333732303336383534373735383037", //     ledgerId
  "0000000000000011", //     firstEntryId 17
  "00000002", //     entryCount 2
  "12345678", //     rangeChecksum
  "02", // payloadFormat KAFKA_RECORD_BATCH (2)
  "0000000000000005", // recordCount 5
  "00000002", // entryCount 2
  "0000000000000141", // logicalBytes 321
  "000000020000000300000002", // entryRecordCounts [3, 2]
].join("");

const keyOf = (intent: CommitIntent): string => commitIntentKey(TEST_PREFIX, intent.streamId, intent.commitId);
const decodeFixture = (bytes: Uint8Array): CommitIntent => commitIntentCodec.decode(bytes, keyOf(FIXTURE_INTENT));

// Payload byte offsets of the fixture: streamId 0..58, commitId 58..114, previousCommitId 114..132,
// offsetStart 132..140, offsetEnd 140..148, cumulativeSize 148..156, commitVersion 156..164.
const OFFSET_END_LOW_BYTE = 147;
const COMMIT_VERSION_LOW_BYTE = 163;

describe("commitIntentCodec", () => {
  test("golden bytes", () => {
    expect(toHex(commitIntentCodec.encode(FIXTURE_INTENT))).toBe(GOLDEN_INTENT);
    expect(decodeFixture(fromHex(GOLDEN_INTENT))).toEqual(FIXTURE_INTENT);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN_INTENT), decodeFixture);
  });

  test("a record of another type or a foreign key is rejected", () => {
    expect(invariantViolation(() => decodeFixture(replayMarkerCodec.encode(FIXTURE_MARKER))).message).toContain(
      'record type is "ReplayMarker", expected "CommitIntent"',
    );
    const golden = fromHex(GOLDEN_INTENT);
    const otherCommit = commitIntentKey(TEST_PREFIX, FIXTURE_INTENT.streamId, "othercommit");
    expect(invariantViolation(() => commitIntentCodec.decode(golden, otherCommit)).message).toContain(
      "does not match the key's commit othercommit",
    );
    const otherStream = commitIntentKey(TEST_PREFIX, streamIdFromName("payments"), FIXTURE_INTENT.commitId);
    expect(invariantViolation(() => commitIntentCodec.decode(golden, otherStream)).message).toContain(
      "does not match the key's stream",
    );
    const markerKey = replayMarkerKey(TEST_PREFIX, FIXTURE_INTENT.streamId, FIXTURE_INTENT.commitId);
    expect(invariantViolation(() => commitIntentCodec.decode(golden, markerKey)).message).toContain(
      "is not a commit intent key",
    );
  });

  test("decode validates invariants of well-formed records", () => {
    const golden = fromHex(GOLDEN_INTENT);
    expect(
      invariantViolation(() =>
        decodeFixture(withPatchedPayload(golden, "CommitIntent", (view) => view.setUint8(OFFSET_END_LOW_BYTE, 106))),
      ).message,
    ).toContain("range [100, 106) does not hold recordCount 5");
    expect(
      invariantViolation(() =>
        decodeFixture(withPatchedPayload(golden, "CommitIntent", (view) => view.setUint8(COMMIT_VERSION_LOW_BYTE, 1))),
      ).message,
    ).toContain("previousCommitId must be empty exactly for commitVersion 1");
  });

  test("encode refuses intents that break invariants", () => {
    const bad: Array<Partial<CommitIntent>> = [
      { streamId: "" },
      { commitId: "" },
      { previousCommitId: FIXTURE_INTENT.commitId },
      { offsetEnd: 106 },
      { recordCount: 6, offsetEnd: 106 },
      { entryCount: 3 },
      { entryRecordCounts: [2, 2] },
      { entryRecordCounts: [5, 0] },
      { payloadFormat: "OPAQUE_RECORD_BATCH" },
      { payloadFormat: "PULSAR_ENTRY_BATCH" },
      { payloadFormat: "JSON" as never },
      { commitVersion: 0 },
      { commitVersion: 1 },
      { previousCommitId: "" },
      { cumulativeSize: 320 },
      { fencingTokenHash: FIXTURE_INTENT.fencingTokenHash.toUpperCase() },
      { writerId: "" },
      { writerEpoch: -1 },
      { logicalBytes: 2 ** 53 },
      { readTarget: { ...FIXTURE_BOOKKEEPER_RANGE, entryCount: 0 } },
    ];
    for (const change of bad) invariantViolation(() => commitIntentCodec.encode({ ...FIXTURE_INTENT, ...change }));
    const first: CommitIntent = {
      ...FIXTURE_INTENT,
      previousCommitId: "",
      commitVersion: 1,
      offsetStart: 0,
      offsetEnd: 5,
      cumulativeSize: 321,
    };
    expect(commitIntentCodec.decode(commitIntentCodec.encode(first), keyOf(first))).toEqual(first);
    invariantViolation(() => commitIntentCodec.encode({ ...first, offsetStart: 1, offsetEnd: 6 }));
    invariantViolation(() => commitIntentCodec.encode({ ...first, cumulativeSize: 4096 }));
  });

  test("property: round trip", () => {
    fc.assert(
      fc.property(commitIntentArbitrary, (intent) => {
        const bytes = commitIntentCodec.encode(intent);
        expect(commitIntentCodec.decode(bytes, keyOf(intent))).toEqual(intent);
        expect(toHex(commitIntentCodec.encode({ ...intent, entryRecordCounts: [...intent.entryRecordCounts] }))).toBe(
          toHex(bytes),
        );
      }),
    );
  });
});
