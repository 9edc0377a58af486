import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { GenerationIndexEntry } from "../domain/generation-records.js";
import { fromHex, toHex } from "../bytes/hex.js";
import { generationIndexKey, parseGenerationIndexKey } from "../keys/generation-keys.js";
import { offsetIndexKey } from "../keys/stream-keys.js";
import { generationIndexCodec } from "./generation-index-codec.js";
import { offsetIndexCodec } from "./offset-index-codec.js";
import {
  FIXTURE_INDEX,
  FIXTURE_OBJECT_SLICE,
  offsetIndexArbitrary,
  ORDERS_ID,
  TEST_PREFIX,
  withPatchedPayload,
} from "./record-codecs.test-support.js";
import { expectCorruptionRejected, invariantViolation } from "../testing/record-corruption.js";

const FIXTURE_GENERATION: GenerationIndexEntry = {
  streamId: ORDERS_ID,
  offsetStart: 100,
  offsetEnd: 105,
  generation: 3,
  level: 2,
  state: "COMMITTED",
  publicationId: "pub-1",
  commitVersion: 7,
  cumulativeSize: 4096,
  logicalBytes: 321,
  readTarget: FIXTURE_OBJECT_SLICE,
  payloadFormat: "KAFKA_RECORD_BATCH",
  entryRecordCounts: [3, 2],
};

// Frozen golden fixture (produced once by an independent encoder of the documented layout).
const GOLDEN_GENERATION = [
  "4e524d31", // magic "NRM1"
  "0000001447656e65726174696f6e496e646578456e747279", // recordType "GenerationIndexEntry"
  "0001000101", // schemaVersion 1, minReaderSchemaVersion 1, payloadEncoding 1
  "000000e1", // payloadLength 225
  "32b4160d", // payloadCrc32c
  "00000036732d64716c69767779613269656f696c347467666373743470327471636370323364656d366f336b6b326c7732737734617375346d71", // streamId
  "0000000000000064", // offsetStart 100
  "0000000000000069", // offsetEnd 105
  "0000000000000003", // generation 3
  "00000002", // level 2
  "02", // state COMMITTED (2)
  "000000057075622d31", // publicationId "pub-1"
  "0000000000000007", // commitVersion 7
  "0000000000001000", // cumulativeSize 4096
  "0000000000000141", // logicalBytes 321
  "00000058", // readTarget length
  "0000000c4f424a4543545f534c4943450001000000424e524f310000002177616c2f76312f30302f303030303030303030303030303030303034322d6162630100000000000010000000000000000141e306928300000002", // readTarget (as in the OffsetIndexEntry fixture)
  "02", // payloadFormat KAFKA_RECORD_BATCH (2)
  "000000020000000300000002", // entryRecordCounts [3, 2]
].join("");

const keyOf = (entry: GenerationIndexEntry): string =>
  generationIndexKey(TEST_PREFIX, entry.streamId, entry.offsetEnd, entry.generation);
const decodeFixture = (bytes: Uint8Array): GenerationIndexEntry =>
  generationIndexCodec.decode(bytes, keyOf(FIXTURE_GENERATION));

// Payload byte offsets of the fixture: streamId 0..58, offsetStart 58..66, offsetEnd 66..74, generation 74..82,
// level 82..86, state 86.
const STATE_BYTE = 86;

describe("generation index keys", () => {
  test("layout and strict parsing", () => {
    const key = keyOf(FIXTURE_GENERATION);
    expect(key).toBe(
      `/nereus/clusters/test/streams/${ORDERS_ID}/generation-index/0000000000000000105/0000000000000000003`,
    );
    expect(parseGenerationIndexKey(key)).toEqual({
      cluster: "test",
      streamId: ORDERS_ID,
      offsetEnd: 105,
      generation: 3,
    });
    expect(() => parseGenerationIndexKey(offsetIndexKey(TEST_PREFIX, ORDERS_ID, 105, 3))).toThrow(
      /not a generation index key/,
    );
    expect(() => parseGenerationIndexKey(`${key}/x`)).toThrow(/not a generation index key/);
  });
});

describe("generationIndexCodec", () => {
  test("golden bytes", () => {
    expect(toHex(generationIndexCodec.encode(FIXTURE_GENERATION))).toBe(GOLDEN_GENERATION);
    expect(decodeFixture(fromHex(GOLDEN_GENERATION))).toEqual(FIXTURE_GENERATION);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN_GENERATION), decodeFixture);
  });

  test("a record of another type or a foreign key is rejected", () => {
    expect(invariantViolation(() => decodeFixture(offsetIndexCodec.encode(FIXTURE_INDEX))).message).toContain(
      'expected "GenerationIndexEntry"',
    );
    const golden = fromHex(GOLDEN_GENERATION);
    expect(
      invariantViolation(() => generationIndexCodec.decode(golden, generationIndexKey(TEST_PREFIX, ORDERS_ID, 105, 4)))
        .message,
    ).toContain("does not match the key's");
    invariantViolation(() => generationIndexCodec.decode(golden, offsetIndexKey(TEST_PREFIX, ORDERS_ID, 105, 3)));
  });

  test("decode validates invariants of well-formed records", () => {
    const golden = fromHex(GOLDEN_GENERATION);
    expect(
      invariantViolation(() =>
        decodeFixture(withPatchedPayload(golden, "GenerationIndexEntry", (view) => view.setUint8(STATE_BYTE, 9))),
      ).message,
    ).toContain("unknown state wire id 9");
  });

  test("encode refuses entries that break invariants", () => {
    const bad: Array<Partial<GenerationIndexEntry>> = [
      { generation: 0 },
      { level: 0 },
      { publicationId: "" },
      { state: "LIVE" as GenerationIndexEntry["state"] },
      { offsetEnd: 100 },
      { entryRecordCounts: [3, 3] },
      { commitVersion: 0 },
      { logicalBytes: 5000 },
    ];
    for (const change of bad)
      invariantViolation(() => generationIndexCodec.encode({ ...FIXTURE_GENERATION, ...change }));
  });

  test("property: round trip in every state", () => {
    const arbitrary = fc
      .tuple(
        offsetIndexArbitrary,
        fc.integer({ min: 1, max: 2 ** 40 }),
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom("PREPARED", "COMMITTED", "QUARANTINED", "ABORTED") as fc.Arbitrary<
          GenerationIndexEntry["state"]
        >,
      )
      .map(([index, generation, level, state]): GenerationIndexEntry => ({
        streamId: index.streamId,
        offsetStart: index.offsetStart,
        offsetEnd: index.offsetEnd,
        generation,
        level,
        state,
        publicationId: `pub-${String(generation)}`,
        commitVersion: index.commitVersion,
        cumulativeSize: index.cumulativeSize,
        logicalBytes: Math.floor(index.cumulativeSize / 2),
        readTarget: index.readTarget,
        payloadFormat: index.payloadFormat,
        entryRecordCounts: index.entryRecordCounts,
      }));
    fc.assert(
      fc.property(arbitrary, (entry) => {
        expect(generationIndexCodec.decode(generationIndexCodec.encode(entry), keyOf(entry))).toEqual(entry);
      }),
    );
  });
});
