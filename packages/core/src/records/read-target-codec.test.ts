import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { ReadTarget } from "../domain/read-target.js";
import { ByteWriter } from "../bytes/byte-writer.js";
import { fromHex, toHex } from "../bytes/hex.js";
import { readTargetCodec } from "./read-target-codec.js";
import { readTargetIdentity } from "./read-target-identity.js";
import { FIXTURE_BOOKKEEPER_RANGE, FIXTURE_OBJECT_SLICE, readTargetArbitrary } from "./record-codecs.test-support.js";
import { invariantViolation } from "../testing/record-corruption.js";

// Frozen golden fixtures (produced once by an independent encoder of the documented layout).
const GOLDEN_OBJECT_SLICE = [
  "0000000c4f424a4543545f534c494345", // targetType OBJECT_SLICE
  "0001", // targetVersion 1
  "00000042", // payload length
  "4e524f31", //   magic "NRO1"
  "0000002177616c2f76312f30302f303030303030303030303030303030303034322d616263", //   objectKey
  "01", //   objectType MULTI_STREAM_WAL_OBJECT (1)
  "0000000000001000", //   sliceOffset 4096
  "0000000000000141", //   sliceLength 321
  "e3069283", //   sliceChecksum
  "00000002", //   entryCount 2
].join("");
const GOLDEN_BOOKKEEPER_RANGE = [
  "00000016424f4f4b4b45455045525f454e5452595f52414e4745", // targetType BOOKKEEPER_ENTRY_RANGE
  "0001", // targetVersion 1
  "00000036", // payload length
  "4e524231", //   magic "NRB1"
  "00000007626b2d6d61696e", //   clusterAlias
  "0000001339323233333732303336383534373735383037", //   ledgerId
  "0000000000000011", //   firstEntryId 17
  "00000002", //   entryCount 2
  "12345678", //   rangeChecksum
].join("");

function rawTarget(type: string, version: number, payload: Uint8Array): Uint8Array {
  return new ByteWriter().writeString(type).writeU16(version).writeLengthPrefixedBytes(payload).finish();
}

describe("readTargetCodec", () => {
  test("golden bytes for both variants", () => {
    expect(toHex(readTargetCodec.encode(FIXTURE_OBJECT_SLICE))).toBe(GOLDEN_OBJECT_SLICE);
    expect(toHex(readTargetCodec.encode(FIXTURE_BOOKKEEPER_RANGE))).toBe(GOLDEN_BOOKKEEPER_RANGE);
    expect(readTargetCodec.decode(fromHex(GOLDEN_OBJECT_SLICE))).toEqual(FIXTURE_OBJECT_SLICE);
    expect(readTargetCodec.decode(fromHex(GOLDEN_BOOKKEEPER_RANGE))).toEqual(FIXTURE_BOOKKEEPER_RANGE);
  });

  test("golden identities: sha256(type 0 version 0 payload)", () => {
    expect(readTargetIdentity(FIXTURE_OBJECT_SLICE)).toBe(
      "b78efb0f61e929073b5f01ab9b59486b216852e6819d7abdb8f2c9b824718db2",
    );
    expect(readTargetIdentity(FIXTURE_BOOKKEEPER_RANGE)).toBe(
      "d7884ba909014f1bc1c647f2b722b4f1e7871433802b14782b848e64b0c4cc5f",
    );
  });

  test("unknown types and versions are rejected on decode", () => {
    const payload = readTargetCodec.encodePayload(FIXTURE_OBJECT_SLICE);
    expect(invariantViolation(() => readTargetCodec.decode(rawTarget("S3_OBJECT", 1, payload))).message).toContain(
      'unknown read target type "S3_OBJECT"',
    );
    expect(invariantViolation(() => readTargetCodec.decode(rawTarget("OBJECT_SLICE", 2, payload))).message).toContain(
      "unknown OBJECT_SLICE version 2",
    );
    expect(
      invariantViolation(() => readTargetCodec.decode(rawTarget("BOOKKEEPER_ENTRY_RANGE", 1, payload))).message,
    ).toContain("magic at byte offset 0");
  });

  test("truncation, trailing bytes and malformed payloads are rejected", () => {
    for (const golden of [GOLDEN_OBJECT_SLICE, GOLDEN_BOOKKEEPER_RANGE]) {
      const bytes = fromHex(golden);
      for (let length = 0; length < bytes.length; length += 1)
        invariantViolation(() => readTargetCodec.decode(bytes.slice(0, length)));
      expect(invariantViolation(() => readTargetCodec.decode(fromHex(`${golden}00`))).message).toContain(
        "1 trailing byte(s)",
      );
    }
    const innerTrailing = new Uint8Array([...readTargetCodec.encodePayload(FIXTURE_OBJECT_SLICE), 0]);
    expect(
      invariantViolation(() => readTargetCodec.decode(rawTarget("OBJECT_SLICE", 1, innerTrailing))).message,
    ).toContain("1 trailing byte(s)");
    const badObjectType = fromHex(GOLDEN_OBJECT_SLICE);
    badObjectType[4 + 12 + 2 + 4 + 4 + 4 + 33] = 9;
    expect(invariantViolation(() => readTargetCodec.decode(badObjectType)).message).toContain(
      "unknown objectType wire id 9",
    );
    const zeroLength = fromHex(GOLDEN_OBJECT_SLICE.replace("0000000000000141", "0000000000000000"));
    expect(invariantViolation(() => readTargetCodec.decode(zeroLength)).message).toContain(
      "sliceLength must be a safe integer >= 1",
    );
  });

  test("encode validates every field", () => {
    const bad: ReadTarget[] = [
      { ...FIXTURE_OBJECT_SLICE, objectKey: "" },
      { ...FIXTURE_OBJECT_SLICE, objectKey: "k".repeat(1025) },
      { ...FIXTURE_OBJECT_SLICE, objectType: "TAPE" as never },
      { ...FIXTURE_OBJECT_SLICE, sliceLength: 0 },
      { ...FIXTURE_OBJECT_SLICE, sliceOffset: -1 },
      { ...FIXTURE_OBJECT_SLICE, sliceOffset: Number.MAX_SAFE_INTEGER },
      { ...FIXTURE_OBJECT_SLICE, sliceChecksum: 2 ** 32 },
      { ...FIXTURE_OBJECT_SLICE, entryCount: 0 },
      { ...FIXTURE_OBJECT_SLICE, version: 2 as never },
      { ...FIXTURE_BOOKKEEPER_RANGE, ledgerId: "01" },
      { ...FIXTURE_BOOKKEEPER_RANGE, ledgerId: "-1" },
      { ...FIXTURE_BOOKKEEPER_RANGE, ledgerId: "9223372036854775808" },
      { ...FIXTURE_BOOKKEEPER_RANGE, ledgerId: "1e3" },
      { ...FIXTURE_BOOKKEEPER_RANGE, clusterAlias: "" },
      { ...FIXTURE_BOOKKEEPER_RANGE, entryCount: 0 },
      { ...FIXTURE_BOOKKEEPER_RANGE, firstEntryId: 1.5 },
      { ...FIXTURE_BOOKKEEPER_RANGE, rangeChecksum: -1 },
      { type: "S3_OBJECT", version: 1 } as never,
    ];
    for (const target of bad) {
      invariantViolation(() => readTargetCodec.encode(target));
      invariantViolation(() => readTargetIdentity(target));
    }
    expect(
      readTargetCodec.decode(readTargetCodec.encode({ ...FIXTURE_BOOKKEEPER_RANGE, ledgerId: "0" })),
    ).toMatchObject({ ledgerId: "0" });
  });

  test("property: round trip; identities agree exactly when encodings do", () => {
    fc.assert(
      fc.property(readTargetArbitrary, readTargetArbitrary, (a, b) => {
        const bytes = readTargetCodec.encode(a);
        expect(readTargetCodec.decode(bytes)).toEqual(a);
        expect(readTargetIdentity(a)).toMatch(/^[0-9a-f]{64}$/);
        const sameBytes = toHex(bytes) === toHex(readTargetCodec.encode(b));
        expect(readTargetIdentity(a) === readTargetIdentity(b)).toBe(sameBytes);
        expect(readTargetIdentity({ ...a })).toBe(readTargetIdentity(a));
      }),
    );
  });
});
