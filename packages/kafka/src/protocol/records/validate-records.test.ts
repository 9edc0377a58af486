import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { forgeRecordBatch, sectionOf } from "../../../test/forge-record-batch.js";
import { decodeRecordBatch } from "./decode-record-batch.js";
import { type RecordInput, encodeRecordBatch } from "./encode-record-batch.js";
import { readRecordBatchHeader } from "./record-batch-header.js";
import { validateRecordBatch } from "./validate-record-batch.js";
import { validateRecords } from "./validate-records.js";

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const records = (count: number): RecordInput[] =>
  Array.from({ length: count }, (_, index) => ({
    key: utf8(`k${String(index)}`),
    value: utf8(`value ${String(index)}`),
    headers: [{ key: "h", value: utf8("v") }],
  }));
const batchOf = (count: number): Uint8Array =>
  encodeRecordBatch({ baseTimestamp: 1_700_000_000_000, records: records(count) });
const walk = (batch: Uint8Array) => validateRecords(batch, readRecordBatchHeader(batch));

describe("validateRecords", () => {
  it("accepts well-formed batches, null keys and values, and headers", () => {
    expect(walk(batchOf(1))).toEqual({ ok: true });
    expect(walk(batchOf(100))).toEqual({ ok: true });
    const nulls = encodeRecordBatch({
      baseTimestamp: 1,
      records: [
        { key: null, value: null },
        { value: new Uint8Array(0), headers: [{ key: "", value: null }] },
      ],
    });
    expect(walk(nulls)).toEqual({ ok: true });
  });

  it("refuses a batch whose header says 5 records but holds 1", () => {
    const forged = forgeRecordBatch(batchOf(1), { recordCount: 5, lastOffsetDelta: 4 });
    expect(walk(forged)).toMatchObject({
      ok: false,
      reason: "invalid-records",
      message: expect.stringContaining("declares 5 records but holds only 1"),
    });
  });

  it("refuses a batch whose header says 1 record but holds 3", () => {
    const forged = forgeRecordBatch(batchOf(3), { recordCount: 1, lastOffsetDelta: 0 });
    expect(walk(forged)).toMatchObject({
      ok: false,
      reason: "invalid-records",
      message: expect.stringContaining("follow the 1 records"),
    });
  });

  it("refuses trailing bytes after the last record", () => {
    const good = batchOf(2);
    const forged = forgeRecordBatch(good, { section: new Uint8Array([...sectionOf(good), 0, 0, 0]) });
    expect(walk(forged)).toMatchObject({
      ok: false,
      reason: "invalid-records",
      message: expect.stringContaining("3 bytes follow"),
    });
  });

  it("refuses out-of-order and duplicate offset deltas, naming the record", () => {
    const swapped = encodeRecordBatch({
      baseTimestamp: 1,
      records: [{ value: utf8("a") }, { value: utf8("b"), offsetDelta: 2 }, { value: utf8("c"), offsetDelta: 1 }],
    });
    expect(validateRecordBatch(swapped).ok).toBe(true);
    expect(walk(swapped)).toMatchObject({ ok: false, reason: "invalid-offset-delta", recordIndex: 1 });
    const duplicate = encodeRecordBatch({
      baseTimestamp: 1,
      lastOffsetDelta: 1,
      records: [{ value: utf8("a") }, { value: utf8("b"), offsetDelta: 0 }],
    });
    expect(walk(duplicate)).toMatchObject({ ok: false, reason: "invalid-offset-delta", recordIndex: 1 });
  });

  it("refuses a record length that overruns the batch or disagrees with the record's fields", () => {
    const good = batchOf(1);
    const section = sectionOf(good).slice();
    // The first byte is the zigzag length of the (short) only record.
    const longer = section.slice();
    longer[0] = (longer[0] ?? 0) + 20;
    expect(walk(forgeRecordBatch(good, { section: longer }))).toMatchObject({
      ok: false,
      reason: "invalid-records",
      recordIndex: 0,
      message: expect.stringContaining("overruns"),
    });
    const padded = new Uint8Array([(section[0] ?? 0) + 2, ...section.subarray(1), 0]);
    expect(walk(forgeRecordBatch(good, { section: padded }))).toMatchObject({
      ok: false,
      reason: "invalid-records",
      message: expect.stringContaining("end 1 bytes early"),
    });
    const shorter = section.slice();
    shorter[0] = (shorter[0] ?? 0) - 4;
    expect(walk(forgeRecordBatch(good, { section: shorter }))).toMatchObject({
      ok: false,
      reason: "invalid-records",
      recordIndex: 0,
    });
    const negative = section.slice();
    negative[0] = 1;
    expect(walk(forgeRecordBatch(good, { section: negative }))).toMatchObject({
      ok: false,
      reason: "invalid-records",
      message: expect.stringContaining("negative record length"),
    });
  });

  it("refuses key, value and header lengths that overrun their record", () => {
    const good = encodeRecordBatch({ baseTimestamp: 1, records: [{ key: utf8("key"), value: utf8("value") }] });
    const section = sectionOf(good).slice();
    // length, attributes, timestampDelta(0), offsetDelta(0), keyLength(3 → zigzag 6) ...
    expect(section[4]).toBe(6);
    section[4] = 40;
    expect(walk(forgeRecordBatch(good, { section }))).toMatchObject({
      ok: false,
      reason: "invalid-records",
      message: expect.stringContaining("key of 20 bytes overruns"),
    });
  });

  it("refuses an over-wide varint", () => {
    const good = batchOf(1);
    const section = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x7f, ...sectionOf(good).subarray(1)]);
    expect(walk(forgeRecordBatch(good, { section }))).toMatchObject({
      ok: false,
      reason: "invalid-records",
      message: expect.stringContaining("exceeds 32 bits"),
    });
  });

  it("inflates compressed batches through the caller's decompressor, and fails when it throws or is missing", () => {
    const compressed = encodeRecordBatch({
      baseTimestamp: 1,
      compression: 1,
      compress: (_codec, data) => data.slice().reverse(),
      records: records(3),
    });
    const header = readRecordBatchHeader(compressed);
    expect(validateRecords(compressed, header, { decompress: (_codec, data) => data.slice().reverse() })).toEqual({
      ok: true,
    });
    expect(validateRecords(compressed, header)).toMatchObject({ ok: false, reason: "decompression-failed" });
    expect(
      validateRecords(compressed, header, {
        decompress: () => {
          throw new Error("incorrect header check");
        },
      }),
    ).toMatchObject({
      ok: false,
      reason: "decompression-failed",
      message: expect.stringContaining("incorrect header check"),
    });
    expect(validateRecordBatch(compressed, { walkRecords: true })).toMatchObject({
      ok: false,
      reason: "decompression-failed",
    });
    expect(
      validateRecordBatch(compressed, { walkRecords: true, decompress: (_codec, data) => data.slice().reverse() }).ok,
    ).toBe(true);
  });

  it("validateRecordBatch walks the records only when asked", () => {
    const forged = forgeRecordBatch(batchOf(3), { recordCount: 1, lastOffsetDelta: 0 });
    expect(validateRecordBatch(forged).ok).toBe(true);
    expect(validateRecordBatch(forged, { walkRecords: true })).toMatchObject({ ok: false, reason: "invalid-records" });
  });

  it("agrees with the full decoder on arbitrary mutations of a valid batch", () => {
    const good = encodeRecordBatch({ baseTimestamp: 1, records: records(4) });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: good.length - 62 }), fc.integer({ min: 0, max: 255 }), (index, byte) => {
        const section = sectionOf(good).slice();
        section[index] = byte;
        const forged = forgeRecordBatch(good, { section });
        let decodes: boolean;
        try {
          const decoded = decodeRecordBatch(forged);
          decodes = decoded.records.every((record, position) => record.offsetDelta === position);
        } catch {
          decodes = false;
        }
        // The walk checks no UTF-8 (Kafka does not), so it may accept what the strict decoder refuses; never the reverse.
        if (decodes) expect(walk(forged)).toEqual({ ok: true });
      }),
      { numRuns: 2000 },
    );
  });
});
