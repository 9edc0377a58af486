import { describe, expect, it } from "vitest";
import { encodeRecordBatch } from "../protocol/records/encode-record-batch.js";
import { RecordBatchAttribute, readRecordBatchHeader } from "../protocol/records/record-batch-header.js";
import { validateRecordBatch } from "../protocol/records/validate-record-batch.js";
import { crc32c } from "@nereus/core";
import { PARTITION_LEADER_EPOCH, prepareStoredBatch, storedBatchCrc32c } from "./stored-batch.js";

const produced = (): Uint8Array =>
  encodeRecordBatch({
    baseTimestamp: 1_000,
    records: [{ value: new TextEncoder().encode("a") }, { value: new TextEncoder().encode("b") }],
  });

describe("prepareStoredBatch", () => {
  it("stamps the produced batch in place: base offset and leader epoch, CRC still valid", () => {
    const batch = produced();
    const stored = prepareStoredBatch(batch, 41);
    expect(stored).toBe(batch);
    const header = readRecordBatchHeader(stored);
    expect(header.baseOffset).toBe(41);
    expect(header.partitionLeaderEpoch).toBe(PARTITION_LEADER_EPOCH);
    expect(validateRecordBatch(stored).ok).toBe(true);
  });

  it("stamping again (a re-planned append) rewrites the same fields", () => {
    const batch = produced();
    prepareStoredBatch(batch, 5);
    const again = prepareStoredBatch(batch, 9, 2_000);
    const header = readRecordBatchHeader(again);
    expect(header.baseOffset).toBe(9);
    expect(header.maxTimestamp).toBe(2_000);
    expect(header.attributes & RecordBatchAttribute.logAppendTime).not.toBe(0);
    expect(validateRecordBatch(again).ok).toBe(true);
  });
});

describe("storedBatchCrc32c", () => {
  it("is the CRC32C of the whole stored batch, stamped or not, with LogAppendTime or not", () => {
    const batch = produced();
    expect(storedBatchCrc32c(batch)).toBe(crc32c(batch));
    prepareStoredBatch(batch, 77);
    expect(storedBatchCrc32c(batch)).toBe(crc32c(batch));
    prepareStoredBatch(batch, 2 ** 40, 5_000);
    expect(storedBatchCrc32c(batch)).toBe(crc32c(batch));
  });

  it("trusts the CRC field: a batch whose field is wrong gets a value that is not its CRC (why only validated batches reach it)", () => {
    const batch = prepareStoredBatch(produced(), 3);
    batch[batch.length - 1] = (batch[batch.length - 1] ?? 0) ^ 0xff;
    expect(storedBatchCrc32c(batch)).not.toBe(crc32c(batch));
  });
});
