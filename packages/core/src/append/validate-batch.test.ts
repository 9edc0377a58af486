import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AppendBatch, PayloadFormat } from "../domain/append-types.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { MAX_ENTRY_RECORD_COUNT, validateBatch } from "./validate-batch.js";

const entry = (size: number, recordCount = 1) => ({ payload: new Uint8Array(size), recordCount });
const invalid = (batch: unknown): void => {
  let caught: unknown;
  try {
    validateBatch(batch as AppendBatch);
  } catch (error) {
    caught = error;
  }
  expect(
    NereusError.hasCode(caught, ErrorCode.INVALID_ARGUMENT),
    `expected INVALID_ARGUMENT for ${JSON.stringify(batch)}`,
  ).toBe(true);
};

describe("validateBatch", () => {
  it("totals records, entries and logical bytes (empty payloads consume their offsets)", () => {
    expect(validateBatch({ payloadFormat: "KAFKA_RECORD_BATCH", entries: [entry(3, 5), entry(0, 2)] })).toMatchObject({
      recordCount: 7,
      entryCount: 2,
      logicalBytes: 3,
    });
    expect(validateBatch({ payloadFormat: "PULSAR_ENTRY_BATCH", entries: [entry(0), entry(0)] }).recordCount).toBe(2);
  });

  it("rejects empty batches, unknown formats, non-byte payloads and bad record counts", () => {
    invalid(null);
    invalid({ payloadFormat: "OPAQUE_RECORD_BATCH", entries: [] });
    invalid({ payloadFormat: "NORMALIZED_ROW_BATCH", entries: [entry(1)] });
    invalid({ payloadFormat: "OPAQUE_RECORD_BATCH", entries: [{ payload: "text", recordCount: 1 }] });
    for (const format of ["OPAQUE_RECORD_BATCH", "PULSAR_ENTRY_BATCH"] as const)
      invalid({ payloadFormat: format, entries: [entry(1, 2)] });
    for (const count of [0, -1, 1.5, Number.NaN, MAX_ENTRY_RECORD_COUNT + 1])
      invalid({ payloadFormat: "KAFKA_RECORD_BATCH", entries: [entry(1, count)] });
  });

  it("accepts a payload CRC32C that is an unsigned 32-bit integer and rejects any other", () => {
    expect(
      validateBatch({ payloadFormat: "OPAQUE_RECORD_BATCH", entries: [{ ...entry(1), payloadCrc32c: 0xffff_ffff }] })
        .entryCount,
    ).toBe(1);
    expect(
      validateBatch({ payloadFormat: "OPAQUE_RECORD_BATCH", entries: [{ ...entry(1), payloadCrc32c: 0 }] }).entryCount,
    ).toBe(1);
    for (const crc of [-1, 2 ** 32, 1.5, Number.NaN, "0"])
      invalid({ payloadFormat: "OPAQUE_RECORD_BATCH", entries: [{ ...entry(1), payloadCrc32c: crc }] });
  });

  it("records whether the caller handed its payloads over, and rejects a non-boolean flag", () => {
    expect(validateBatch({ payloadFormat: "OPAQUE_RECORD_BATCH", entries: [entry(1)] }).handedOver).toBe(false);
    expect(
      validateBatch({ payloadFormat: "OPAQUE_RECORD_BATCH", entries: [entry(1)], handOverPayloads: true }).handedOver,
    ).toBe(true);
    invalid({ payloadFormat: "OPAQUE_RECORD_BATCH", entries: [entry(1)], handOverPayloads: "yes" });
  });

  it("accepts ranged entries up to 2^31-1 records and sums them exactly (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: MAX_ENTRY_RECORD_COUNT }), { minLength: 1, maxLength: 50 }),
        (counts) => {
          const validated = validateBatch({
            payloadFormat: "KAFKA_RECORD_BATCH",
            entries: counts.map((count) => entry(1, count)),
          });
          expect(validated.recordCount).toBe(counts.reduce((sum, count) => sum + count, 0));
          expect(validated.entryCount).toBe(counts.length);
        },
      ),
    );
  });

  it("opaque formats accept exactly one record per entry (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<PayloadFormat>("OPAQUE_RECORD_BATCH", "PULSAR_ENTRY_BATCH"),
        fc.array(fc.nat(64), { minLength: 1, maxLength: 20 }),
        (format, sizes) => {
          const validated = validateBatch({ payloadFormat: format, entries: sizes.map((size) => entry(size)) });
          expect(validated.recordCount).toBe(sizes.length);
          expect(validated.logicalBytes).toBe(sizes.reduce((sum, size) => sum + size, 0));
        },
      ),
    );
  });
});
