import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { StreamHead } from "../domain/stream-head.js";
import { ByteWriter } from "../bytes/byte-writer.js";
import { fromHex, toHex } from "../bytes/hex.js";
import { streamIdFromName } from "../identity/stream-id-from-name.js";
import { commitIntentKey, streamHeadKey } from "../keys/stream-keys.js";
import {
  FIXTURE_FRESH_HEAD,
  FIXTURE_MARKER,
  FIXTURE_SESSION_HEAD,
  streamHeadArbitrary,
  TEST_PREFIX,
  withPatchedPayload,
  wrapPayload,
} from "./record-codecs.test-support.js";
import { expectCorruptionRejected, invariantViolation } from "../testing/record-corruption.js";
import { replayMarkerCodec } from "./replay-marker-codec.js";
import { streamHeadCodec } from "./stream-head-codec.js";

// Frozen golden fixtures (produced once by an independent encoder of the documented layout).
const GOLDEN_FRESH_HEAD = [
  "4e524d31", // magic "NRM1"
  "0000000a53747265616d48656164", // recordType "StreamHead"
  "0001", // schemaVersion 1
  "0001", // minReaderSchemaVersion 1
  "01", // payloadEncoding 1 (canonical binary v1)
  "00000077", // payloadLength 119
  "7d5d4d0d", // payloadCrc32c
  "00000036732d64716c69767779613269656f696c347467666373743470327471636370323364656d366f336b6b326c77", // streamId
  "32737734617375346d71",
  "000000066f7264657273", // streamName "orders"
  "01", // state ACTIVE (1)
  "01", // profile OBJECT_WAL_SYNC_OBJECT (1)
  "00000000", // attributes: 0 entries
  "0000018bcfe56800", // createdAtMillis
  "0000000000000000", // committedEndOffset 0
  "0000000000000000", // cumulativeSize 0
  "0000000000000000", // commitVersion 0
  "0000000000000000", // trimOffset 0
  "00000000", // lastCommitId ""
  "00", // session absent
].join("");
const GOLDEN_SESSION_HEAD = [
  "4e524d31", // magic "NRM1"
  "0000000a53747265616d48656164", // recordType "StreamHead"
  "0001", // schemaVersion 1
  "0001", // minReaderSchemaVersion 1
  "01", // payloadEncoding 1 (canonical binary v1)
  "00000176", // payloadLength 374
  "d839e470", // payloadCrc32c
  "00000036732d686a7679686f6f636a7172326d78706176366562627a6b71626e733471736437766171356e326c617172", // streamId
  "73776135697135726461",
  "0000002e70657273697374656e743a2f2f7075626c69632f64656661756c742f6f72646572732d706172746974696f6e", // streamName
  "2d30",
  "02", // state SEALED (2)
  "05", // profile BOOKKEEPER_WAL_SYNC_OBJECT (5)
  "00000004", // attributes: 4 entries, by UTF-8 key bytes
  "000000015a", // key "Z"
  "000000056c6173743f", // value
  "0000001c6e65726575732e617070656e642e617574686f726974792e6d6f6465", // key "nereus.append.authority.mode"
  "0000001a45585445524e414c5f4d4f4e4f544f4e49435f5445524d5f5631", // value
  "0000000c726574656e74696f6e2e6d73", // key "retention.ms"
  "00000009363034383030303030", // value
  "00000002c3a9", // key "\u00e9"
  "0000000178", // value
  "0000018bcfe56800", // createdAtMillis
  "0000000000000069", // committedEndOffset 105
  "0000000000001000", // cumulativeSize 4096
  "0000000000000007", // commitVersion 7
  "0000000000000064", // trimOffset 100
  "0000003463786a6e7667657273686d7a646d636f6c7a696a33716e7a62356473333567337265696368747273746e3736", // lastCommitId
  "3532346977707771",
  "01", // session present
  "0000000862726f6b65722d31", // session.writerId
  "0000000000000003", // session.epoch 3
  "00000007746f6b656e2d31", // session.fencingToken
  "000000000000000c", // session.leaseVersion 12
  "0000018bcfe5dd30", // session.expiresAtMillis
].join("");

const keyOf = (head: StreamHead): string => streamHeadKey(TEST_PREFIX, head.streamId);
const decodeAt =
  (head: StreamHead) =>
  (bytes: Uint8Array): StreamHead =>
    streamHeadCodec.decode(bytes, keyOf(head));

/** A schema-1 head payload written field by field, so tests can produce well-formed but invalid heads. */
function rawHead(
  attributes: ReadonlyArray<readonly [string, string]>,
  changes: { trimOffset?: number; lastCommitId?: string } = {},
): Uint8Array {
  const head = FIXTURE_SESSION_HEAD;
  const writer = new ByteWriter()
    .writeString(head.streamId)
    .writeString(head.streamName)
    .writeU8(2)
    .writeU8(5)
    .writeU32(attributes.length);
  for (const [key, value] of attributes) writer.writeString(key).writeString(value);
  writer
    .writeU64(head.createdAtMillis)
    .writeU64(head.committedEndOffset)
    .writeU64(head.cumulativeSize)
    .writeU64(head.commitVersion)
    .writeU64(changes.trimOffset ?? head.trimOffset)
    .writeString(changes.lastCommitId ?? head.lastCommitId)
    .writeBoolean(false);
  return wrapPayload("StreamHead", writer.finish());
}

// Payload byte offsets of the fresh-head fixture: streamId 0..58, streamName 58..68, state 68, profile 69,
// attribute count 70..74, createdAt 74..82, end 82..90, size 90..98, version 98..106, trim 106..114.
const FRESH_STATE = 68;
const FRESH_PROFILE = 69;
const FRESH_TRIM_LOW_BYTE = 113;
const FRESH_SESSION_FLAG = 118;

describe("streamHeadCodec", () => {
  test("golden bytes: a fresh head and a committed head with a session and attributes", () => {
    expect(toHex(streamHeadCodec.encode(FIXTURE_FRESH_HEAD))).toBe(GOLDEN_FRESH_HEAD);
    expect(toHex(streamHeadCodec.encode(FIXTURE_SESSION_HEAD))).toBe(GOLDEN_SESSION_HEAD);
    expect(streamHeadCodec.decode(fromHex(GOLDEN_FRESH_HEAD), keyOf(FIXTURE_FRESH_HEAD))).toEqual(FIXTURE_FRESH_HEAD);
    expect(streamHeadCodec.decode(fromHex(GOLDEN_SESSION_HEAD), keyOf(FIXTURE_SESSION_HEAD))).toEqual(
      FIXTURE_SESSION_HEAD,
    );
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN_FRESH_HEAD), decodeAt(FIXTURE_FRESH_HEAD));
    expectCorruptionRejected(fromHex(GOLDEN_SESSION_HEAD), decodeAt(FIXTURE_SESSION_HEAD));
  });

  test("a record of another type, a newer schema or a foreign key is rejected", () => {
    const key = keyOf(FIXTURE_FRESH_HEAD);
    expect(
      invariantViolation(() => streamHeadCodec.decode(replayMarkerCodec.encode(FIXTURE_MARKER), key)).message,
    ).toBe(`StreamHead at ${key}: record type is "ReplayMarker", expected "StreamHead"`);
    const payload = fromHex(GOLDEN_FRESH_HEAD).subarray(25);
    expect(
      invariantViolation(() => streamHeadCodec.decode(wrapPayload("StreamHead", payload, 2, 1), key)).message,
    ).toContain("newer unknown schema version 2");
    const otherKey = streamHeadKey(TEST_PREFIX, streamIdFromName("payments"));
    expect(invariantViolation(() => streamHeadCodec.decode(fromHex(GOLDEN_FRESH_HEAD), otherKey)).message).toContain(
      "does not match the key's stream",
    );
    const intentKey = commitIntentKey(TEST_PREFIX, FIXTURE_FRESH_HEAD.streamId, "c1");
    expect(invariantViolation(() => streamHeadCodec.decode(fromHex(GOLDEN_FRESH_HEAD), intentKey)).message).toContain(
      "is not a stream head key",
    );
  });

  test("non-canonical attribute order and duplicate keys are rejected", () => {
    const key = keyOf(FIXTURE_SESSION_HEAD);
    expect(
      streamHeadCodec.decode(
        rawHead([
          ["a", "1"],
          ["b", "2"],
        ]),
        key,
      ).attributes,
    ).toEqual({ a: "1", b: "2" });
    for (const attributes of [
      [
        ["b", "2"],
        ["a", "1"],
      ],
      [
        ["a", "1"],
        ["a", "2"],
      ],
      [
        ["é", "1"],
        ["z", "2"],
      ],
    ] as const) {
      expect(invariantViolation(() => streamHeadCodec.decode(rawHead(attributes), key)).message).toContain(
        "attribute keys are not in strictly ascending UTF-8 byte order",
      );
    }
  });

  test("decode validates invariants of well-formed records", () => {
    const key = keyOf(FIXTURE_FRESH_HEAD);
    const golden = fromHex(GOLDEN_FRESH_HEAD);
    const cases: ReadonlyArray<readonly [(view: DataView) => void, string]> = [
      [(view) => view.setUint8(FRESH_TRIM_LOW_BYTE, 1), "trimOffset 1 exceeds committedEndOffset 0"],
      [(view) => view.setUint8(FRESH_PROFILE, 6), "unknown storage profile wire id 6"],
      [(view) => view.setUint8(FRESH_PROFILE, 0), "unknown storage profile wire id 0"],
      [(view) => view.setUint8(FRESH_STATE, 0), "unknown state wire id 0"],
      [(view) => view.setUint8(FRESH_SESSION_FLAG, 2), "must be 0 or 1"],
      [(view) => view.setUint8(10, 0x61), "is not the id of streamName"],
    ];
    for (const [patch, message] of cases) {
      expect(
        invariantViolation(() => streamHeadCodec.decode(withPatchedPayload(golden, "StreamHead", patch), key)).message,
      ).toContain(message);
    }
    const sessionKey = keyOf(FIXTURE_SESSION_HEAD);
    expect(
      invariantViolation(() => streamHeadCodec.decode(rawHead([], { trimOffset: 106 }), sessionKey)).message,
    ).toContain("trimOffset 106 exceeds committedEndOffset 105");
    expect(
      invariantViolation(() => streamHeadCodec.decode(rawHead([], { lastCommitId: "" }), sessionKey)).message,
    ).toContain("lastCommitId must be set when commitVersion > 0");
  });

  test("encode refuses heads that break invariants", () => {
    const bad: Array<Partial<StreamHead>> = [
      { profile: "OBJECT_WAL" as never },
      { state: "CREATING" as never },
      { streamId: streamIdFromName("payments") },
      { streamName: "" },
      { trimOffset: 106 },
      { committedEndOffset: 2 ** 53 },
      { cumulativeSize: -1 },
      { commitVersion: 0 },
      { lastCommitId: "" },
      { attributes: { k: "\uD800" } },
      { attributes: { big: "x".repeat(16 * 1024) } },
      { attributes: { n: 1 as never } },
      { session: { ...FIXTURE_SESSION_HEAD.session!, writerId: "" } },
      { session: { ...FIXTURE_SESSION_HEAD.session!, epoch: 1.5 } },
    ];
    for (const change of bad) invariantViolation(() => streamHeadCodec.encode({ ...FIXTURE_SESSION_HEAD, ...change }));
    invariantViolation(() => streamHeadCodec.encode({ ...FIXTURE_FRESH_HEAD, cumulativeSize: 1 }));
    invariantViolation(() => streamHeadCodec.encode({ ...FIXTURE_FRESH_HEAD, committedEndOffset: 1 }));
  });

  test("empty payloads may leave cumulativeSize at 0 after commits", () => {
    const head = { ...FIXTURE_SESSION_HEAD, cumulativeSize: 0 };
    expect(streamHeadCodec.decode(streamHeadCodec.encode(head), keyOf(head))).toEqual(head);
  });

  test("property: round trip; bytes independent of attribute insertion order", () => {
    fc.assert(
      fc.property(streamHeadArbitrary, (head) => {
        const bytes = streamHeadCodec.encode(head);
        expect(streamHeadCodec.decode(bytes, keyOf(head))).toEqual(head);
        const reversed = Object.fromEntries(Object.entries(head.attributes).reverse());
        expect(toHex(streamHeadCodec.encode({ ...head, attributes: reversed }))).toBe(toHex(bytes));
      }),
    );
  });
});
