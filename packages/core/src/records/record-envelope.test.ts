import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { crc32c } from "../bytes/crc32c.js";
import { fromHex, toHex } from "../bytes/hex.js";
import { wrapPayload } from "./record-codecs.test-support.js";
import { expectCorruptionRejected, invariantViolation } from "../testing/record-corruption.js";
import { decodeRecordEnvelope, encodeRecordEnvelope } from "./record-envelope.js";

// Frozen: a change in the envelope encoding must fail this test.
const GOLDEN_ENVELOPE = [
  "4e524d31", // magic "NRM1"
  "0000000454657374", // recordType "Test"
  "0001", // schemaVersion 1
  "0001", // minReaderSchemaVersion 1
  "01", // payloadEncoding 1 (canonical binary v1)
  "00000003", // payloadLength 3
  "364b3fb7", // payloadCrc32c of "abc"
  "616263", // payload "abc"
].join("");

const abc = new TextEncoder().encode("abc");
const decodeTest = (bytes: Uint8Array): unknown => decodeRecordEnvelope(bytes, "Test", 1, "Test at k");

function patched(offset: number, value: number): Uint8Array {
  const bytes = fromHex(GOLDEN_ENVELOPE);
  bytes[offset] = value;
  return bytes;
}

describe("NRM1 record envelope", () => {
  test("golden bytes", () => {
    expect(toHex(encodeRecordEnvelope({ recordType: "Test", schemaVersion: 1, minReaderSchemaVersion: 1 }, abc))).toBe(
      GOLDEN_ENVELOPE,
    );
    const decoded = decodeRecordEnvelope(fromHex(GOLDEN_ENVELOPE), "Test", 1);
    expect(decoded.recordType).toBe("Test");
    expect(decoded.schemaVersion).toBe(1);
    expect(decoded.minReaderSchemaVersion).toBe(1);
    expect([...decoded.payload]).toEqual([...abc]);
  });

  test("rejections name the record, the key and the reason", () => {
    const cases: ReadonlyArray<readonly [Uint8Array, string]> = [
      [patched(0, 0x58), "Test at k: NRM1 envelope: magic at byte offset 0: unexpected bytes"],
      [wrapPayload("Other", abc), 'Test at k: record type is "Other", expected "Test"'],
      [
        wrapPayload("Test", abc, 2, 1),
        "Test at k: newer unknown schema version 2 (needs reader >= 1); this reader knows up to 1",
      ],
      [wrapPayload("Test", abc, 2, 2), "newer unknown schema version 2 (needs reader >= 2)"],
      [patched(13, 0), "malformed schema versions 0/1"],
      [patched(15, 0), "malformed schema versions 1/0"],
      [patched(16, 2), "unknown payload encoding 2"],
      [fromHex(GOLDEN_ENVELOPE.slice(0, -2)), "truncated payload: header declares 3 bytes, 2 present"],
      [fromHex(`${GOLDEN_ENVELOPE}00`), "1 trailing byte(s) after the payload"],
      [patched(24, 0xb6), "payload CRC32C mismatch: stored 0x364b3fb6, computed 0x364b3fb7"],
      [patched(27, 0x64), "payload CRC32C mismatch"],
      [fromHex("4e524d3100000002ff00"), "recordType at byte offset 4: string is not well-formed UTF-8"],
    ];
    for (const [bytes, message] of cases)
      expect(invariantViolation(() => decodeTest(bytes)).message).toContain(message);
  });

  test("every truncation, bit flip and trailing byte of the golden is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN_ENVELOPE), decodeTest);
  });

  test("a v2-aware reader accepts v2 and v1 records", () => {
    expect(decodeRecordEnvelope(wrapPayload("Test", abc, 2, 1), "Test", 2).schemaVersion).toBe(2);
    expect(decodeRecordEnvelope(wrapPayload("Test", abc, 1, 1), "Test", 2).schemaVersion).toBe(1);
  });

  test("property: round trip and payload CRC", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }),
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }),
        (payload, recordType) => {
          const bytes = encodeRecordEnvelope({ recordType, schemaVersion: 1, minReaderSchemaVersion: 1 }, payload);
          const decoded = decodeRecordEnvelope(bytes, recordType, 1);
          expect(decoded.payload).toEqual(payload);
          expect(new DataView(bytes.buffer).getUint32(bytes.length - payload.length - 4)).toBe(crc32c(payload));
        },
      ),
    );
  });
});
