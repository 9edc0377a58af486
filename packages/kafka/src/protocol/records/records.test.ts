// RecordBatch v2: a golden batch computed by hand (CRC by an independent bit-wise CRC-32C), validation of every
// rejection reason, base-offset assignment outside the CRC, splitting, record decoding, and properties.
import { ErrorCode, NereusError, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { referenceCrc32c } from "../../../test/crc32c-reference.js";
import { expectDecodeError, hex } from "../../../test/hex.js";
import { assignBaseOffset } from "./assign-base-offset.js";
import { decodeRecordBatch } from "./decode-record-batch.js";
import { type RecordBatchInput, encodeRecordBatch } from "./encode-record-batch.js";
import { RecordBatchOffset, readRecordBatchHeader } from "./record-batch-header.js";
import { splitRecordBatches } from "./split-record-batches.js";
import { validateRecordBatch } from "./validate-record-batch.js";

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

// One record: key "k", value "v", header h=x, at 1_700_000_000_000 ms.
const GOLDEN_BODY = `
  0000                  # attributes: none, create time
  00000000              # lastOffsetDelta 0
  0000018bcfe56800      # baseTimestamp 1700000000000
  0000018bcfe56800      # maxTimestamp
  ffffffffffffffff      # producerId -1
  ffff                  # producerEpoch -1
  ffffffff              # baseSequence -1
  00000001              # recordCount 1
  18                    # record length 12 (zigzag 24)
    00 00 00            #   attributes, timestampDelta 0, offsetDelta 0
    02 6b               #   key "k"
    02 76               #   value "v"
    02 02 68 02 78      #   1 header: "h" = "x"
`;
const GOLDEN_CRC = referenceCrc32c(hex(GOLDEN_BODY));
const GOLDEN_BATCH = hex(`
  0000000000000000      # baseOffset 0
  0000003e              # batchLength 62
  ffffffff              # partitionLeaderEpoch -1
  02                    # magic
  ${GOLDEN_CRC.toString(16).padStart(8, "0")}  # crc
  ${GOLDEN_BODY}
`);

const GOLDEN_INPUT: RecordBatchInput = {
  baseTimestamp: 1_700_000_000_000,
  records: [{ key: utf8("k"), value: utf8("v"), headers: [{ key: "h", value: utf8("x") }] }],
};

function withByte(batch: Uint8Array, offset: number, value: number): Uint8Array {
  const copy = batch.slice();
  copy[offset] = value;
  return copy;
}

describe("RecordBatch golden bytes", () => {
  it("the independent CRC of the golden batch is frozen", () => {
    expect(GOLDEN_CRC.toString(16)).toBe("5e93538d");
  });

  it("encodes the golden batch", () => {
    expect(toHex(encodeRecordBatch(GOLDEN_INPUT))).toBe(toHex(GOLDEN_BATCH));
  });

  it("parses the header and decodes the record", () => {
    expect(readRecordBatchHeader(GOLDEN_BATCH)).toEqual({
      baseOffset: 0,
      batchLength: 62,
      partitionLeaderEpoch: -1,
      magic: 2,
      crc: GOLDEN_CRC,
      attributes: 0,
      compression: 0,
      timestampType: "create-time",
      isTransactional: false,
      isControl: false,
      hasDeleteHorizon: false,
      lastOffsetDelta: 0,
      baseTimestamp: 1_700_000_000_000,
      maxTimestamp: 1_700_000_000_000,
      producerId: -1n,
      producerEpoch: -1,
      baseSequence: -1,
      recordCount: 1,
    });
    expect(decodeRecordBatch(GOLDEN_BATCH).records).toEqual([
      {
        attributes: 0,
        timestampDelta: 0,
        offsetDelta: 0,
        offset: 0,
        timestamp: 1_700_000_000_000,
        key: utf8("k"),
        value: utf8("v"),
        headers: [{ key: "h", value: utf8("x") }],
      },
    ]);
  });
});

describe("validateRecordBatch", () => {
  it("accepts the golden batch, also as a produced batch", () => {
    expect(validateRecordBatch(GOLDEN_BATCH, { producer: true })).toMatchObject({
      ok: true,
      header: { recordCount: 1 },
    });
  });

  it.each([
    ["truncated", GOLDEN_BATCH.subarray(0, 10)],
    ["truncated", GOLDEN_BATCH.subarray(0, 40)],
    ["unsupported-magic", withByte(GOLDEN_BATCH, RecordBatchOffset.magic, 1)],
    ["unsupported-magic", withByte(GOLDEN_BATCH, RecordBatchOffset.magic, 0)],
    ["invalid-magic", withByte(GOLDEN_BATCH, RecordBatchOffset.magic, 3)],
    ["length-mismatch", withByte(GOLDEN_BATCH, RecordBatchOffset.batchLength + 3, 0x3f)],
    ["length-mismatch", GOLDEN_BATCH.subarray(0, GOLDEN_BATCH.length - 1)],
    ["crc-mismatch", withByte(GOLDEN_BATCH, GOLDEN_BATCH.length - 1, 0x79)],
    ["crc-mismatch", withByte(GOLDEN_BATCH, RecordBatchOffset.crc, 0)],
  ] as const)("rejects %s", (reason, batch) => {
    expect(validateRecordBatch(batch)).toMatchObject({ ok: false, reason });
  });

  it("rejects batches above the size limit before computing the CRC", () => {
    expect(validateRecordBatch(GOLDEN_BATCH, { maxBatchBytes: 73 })).toMatchObject({ ok: false, reason: "too-large" });
    expect(validateRecordBatch(GOLDEN_BATCH, { maxBatchBytes: 74 }).ok).toBe(true);
  });

  it("rejects inconsistent record counts", () => {
    const twoRecords = encodeRecordBatch({
      ...GOLDEN_INPUT,
      records: [...GOLDEN_INPUT.records, ...GOLDEN_INPUT.records],
    });
    expect(validateRecordBatch(encodeRecordBatch({ ...GOLDEN_INPUT, lastOffsetDelta: 5 }))).toMatchObject({
      reason: "record-count-mismatch",
    });
    expect(validateRecordBatch(encodeRecordBatch({ ...GOLDEN_INPUT, records: [] }))).toMatchObject({
      reason: "record-count-mismatch",
    });
    expect(validateRecordBatch(twoRecords).ok).toBe(true);
    // 1000 records claimed in 13 bytes: caught from the header alone.
    const forged = encodeRecordBatch({ ...GOLDEN_INPUT, lastOffsetDelta: 999 });
    new DataView(forged.buffer).setInt32(RecordBatchOffset.recordCount, 1000);
    new DataView(forged.buffer).setUint32(RecordBatchOffset.crc, referenceCrc32c(forged.subarray(21)));
    expect(validateRecordBatch(forged)).toMatchObject({ reason: "record-count-mismatch" });
  });

  it("applies the producer checks only to produced batches", () => {
    const offset = assignBaseOffset(GOLDEN_BATCH, 5);
    expect(validateRecordBatch(offset).ok).toBe(true);
    expect(validateRecordBatch(offset, { producer: true })).toMatchObject({ reason: "invalid-base-offset" });
    expect(
      validateRecordBatch(encodeRecordBatch({ ...GOLDEN_INPUT, isControl: true }), { producer: true }),
    ).toMatchObject({ reason: "control-batch" });
    expect(
      validateRecordBatch(encodeRecordBatch({ ...GOLDEN_INPUT, producerId: 7n, baseSequence: -1 }), { producer: true }),
    ).toMatchObject({
      reason: "invalid-producer-state",
    });
    expect(
      validateRecordBatch(encodeRecordBatch({ ...GOLDEN_INPUT, producerId: 7n, producerEpoch: 0, baseSequence: 0 }), {
        producer: true,
      }).ok,
    ).toBe(true);
  });

  it("reports an out-of-range timestamp as an invalid header, not an exception", () => {
    const forged = GOLDEN_BATCH.slice();
    new DataView(forged.buffer).setBigInt64(RecordBatchOffset.baseTimestamp, 2n ** 62n);
    new DataView(forged.buffer).setUint32(RecordBatchOffset.crc, referenceCrc32c(forged.subarray(21)));
    expect(validateRecordBatch(forged)).toMatchObject({ ok: false, reason: "invalid-header" });
  });
});

describe("assignBaseOffset", () => {
  it("rewrites base offset and leader epoch in a copy, leaving the CRC valid", () => {
    const assigned = assignBaseOffset(GOLDEN_BATCH, 2 ** 40, { partitionLeaderEpoch: 3 });
    expect(toHex(assigned.subarray(0, 16))).toBe("0000010000000000 0000003e 00000003".replaceAll(" ", ""));
    expect(toHex(assigned.subarray(16))).toBe(toHex(GOLDEN_BATCH.subarray(16)));
    expect(readRecordBatchHeader(GOLDEN_BATCH).baseOffset).toBe(0);
    expect(validateRecordBatch(assigned).ok).toBe(true);
    expect(decodeRecordBatch(assigned).records[0]?.offset).toBe(2 ** 40);
    expect(() => assignBaseOffset(GOLDEN_BATCH, -1)).toThrow(NereusError);
  });

  it("inPlace rewrites the caller's own bytes and returns them", () => {
    const owned = GOLDEN_BATCH.slice();
    const assigned = assignBaseOffset(owned, 7, { partitionLeaderEpoch: 0, inPlace: true });
    expect(assigned).toBe(owned);
    expect(readRecordBatchHeader(owned).baseOffset).toBe(7);
    expect(validateRecordBatch(owned).ok).toBe(true);
    expect(readRecordBatchHeader(GOLDEN_BATCH).baseOffset).toBe(0);
  });
});

describe("splitRecordBatches", () => {
  it("splits concatenated batches and reports a partial trailing batch", () => {
    const second = assignBaseOffset(GOLDEN_BATCH, 1);
    const blob = Uint8Array.of(...GOLDEN_BATCH, ...second, ...GOLDEN_BATCH.subarray(0, 30));
    const { batches, trailingBytes } = splitRecordBatches(blob);
    expect(batches.map(toHex)).toEqual([toHex(GOLDEN_BATCH), toHex(second)]);
    expect(trailingBytes).toBe(30);
    expect(batches[0]?.buffer).toBe(blob.buffer);
    expect(splitRecordBatches(new Uint8Array(0))).toEqual({ batches: [], trailingBytes: 0 });
  });

  it("rejects impossible batch lengths with DECODE_ERROR", () => {
    expectDecodeError(() => splitRecordBatches(hex("0000000000000000 ffffffff")));
    expectDecodeError(() => splitRecordBatches(hex("0000000000000000 00000005 0000000000")));
  });
});

describe("decodeRecordBatch", () => {
  it("needs a decompressor for compressed batches", () => {
    const compressed = encodeRecordBatch({ ...GOLDEN_INPUT, compression: 1, compress: (_codec, data) => data });
    try {
      decodeRecordBatch(compressed);
      expect.unreachable();
    } catch (error) {
      expect(NereusError.hasCode(error, ErrorCode.UNSUPPORTED_FORMAT)).toBe(true);
    }
    expect(decodeRecordBatch(compressed, { decompress: (_codec, data) => data }).records).toHaveLength(1);
  });

  it("rejects magic 0/1 and corrupt records with DECODE_ERROR", () => {
    expect(
      expectDecodeError(() => decodeRecordBatch(withByte(GOLDEN_BATCH, RecordBatchOffset.magic, 1))).message,
    ).toMatch(/magic 1 is not supported/);
    expectDecodeError(() => decodeRecordBatch(withByte(GOLDEN_BATCH, 70, 0x7f), { verifyCrc: false }));
    expectDecodeError(() => decodeRecordBatch(withByte(GOLDEN_BATCH, GOLDEN_BATCH.length - 1, 0x79)));
  });

  it("uses maxTimestamp for LogAppendTime batches", () => {
    const batch = encodeRecordBatch({
      ...GOLDEN_INPUT,
      timestampType: "log-append-time",
      maxTimestamp: 1_800_000_000_000,
    });
    expect(decodeRecordBatch(batch).records[0]?.timestamp).toBe(1_800_000_000_000);
  });
});

const recordArbitrary = fc.record({
  timestampDelta: fc.integer({ min: 0, max: 1_000_000 }),
  key: fc.option(fc.uint8Array({ maxLength: 16 }), { nil: null }),
  value: fc.option(fc.uint8Array({ maxLength: 64 }), { nil: null }),
  headers: fc.array(
    fc.record({ key: fc.string({ maxLength: 8 }), value: fc.option(fc.uint8Array({ maxLength: 8 }), { nil: null }) }),
    { maxLength: 3 },
  ),
});

const batchArbitrary = fc.record({
  baseTimestamp: fc.integer({ min: 0, max: 2 ** 45 }),
  producerId: fc.bigInt({ min: -1n, max: 2n ** 63n - 1n }),
  producerEpoch: fc.integer({ min: -1, max: 32767 }),
  baseSequence: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  isTransactional: fc.boolean(),
  records: fc.array(recordArbitrary, { minLength: 1, maxLength: 6 }),
});

describe("properties", () => {
  it("encoded batches validate and decode back to their records", () => {
    fc.assert(
      fc.property(batchArbitrary, fc.nat({ max: 2 ** 40 }), (input, baseOffset) => {
        const batch = encodeRecordBatch(input);
        expect(validateRecordBatch(batch, { producer: true }).ok).toBe(true);
        const assigned = assignBaseOffset(batch, baseOffset);
        const decoded = decodeRecordBatch(assigned);
        expect(decoded.header.producerId).toBe(input.producerId);
        expect(decoded.records.map((record) => ({ ...record }))).toEqual(
          input.records.map((record, index) => ({
            attributes: 0,
            offsetDelta: index,
            offset: baseOffset + index,
            timestampDelta: record.timestampDelta,
            timestamp: input.baseTimestamp + record.timestampDelta,
            key: record.key,
            value: record.value,
            headers: record.headers,
          })),
        );
        expect(splitRecordBatches(Uint8Array.of(...batch, ...assigned)).batches.map(toHex)).toEqual([
          toHex(batch),
          toHex(assigned),
        ]);
      }),
      { numRuns: 200 },
    );
  });

  it("mutated batches are rejected by validation as values and by decoding only with DECODE_ERROR (or UNSUPPORTED_FORMAT)", () => {
    fc.assert(
      fc.property(batchArbitrary, fc.nat(), fc.nat({ max: 255 }), fc.nat(), (input, at, value, cut) => {
        const batch = encodeRecordBatch(input);
        const mutated = withByte(batch, at % batch.length, value).subarray(
          0,
          batch.length - (cut % 3 === 0 ? cut % batch.length : 0),
        );
        const validation = validateRecordBatch(mutated);
        for (const verifyCrc of [true, false]) {
          try {
            decodeRecordBatch(mutated, { verifyCrc });
          } catch (error) {
            // A flipped compression bit asks for a decompressor: UNSUPPORTED_FORMAT, as documented.
            if (
              !NereusError.hasCode(error, ErrorCode.DECODE_ERROR) &&
              !NereusError.hasCode(error, ErrorCode.UNSUPPORTED_FORMAT)
            )
              throw error;
          }
        }
        try {
          splitRecordBatches(mutated);
        } catch (error) {
          if (!NereusError.hasCode(error, ErrorCode.DECODE_ERROR)) throw error;
        }
        // Only the fields outside the CRC (base offset, leader epoch) may change and still validate.
        if (validation.ok) expect(toHex(mutated.subarray(16))).toBe(toHex(batch.subarray(16)));
      }),
      { numRuns: 2000 },
    );
  });
});
