// Pipeline step 0: validate a caller's batch before anything else happens (no I/O, no lane, no metadata).
// Rejects with INVALID_ARGUMENT; does not copy payloads (the WAL writer's `prepare` freezes the bytes, by copying
// them unless the caller handed them over).
import type { AppendBatch, AppendEntry, PayloadFormat } from "../domain/append-types.js";
import type { ValidatedBatch } from "../domain/validated-batch.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

/** Largest record count of one ranged entry (a Kafka RecordBatch counts records in an int32). */
export const MAX_ENTRY_RECORD_COUNT = 0x7fff_ffff;

const RANGED_FORMATS: ReadonlySet<PayloadFormat> = new Set<PayloadFormat>(["KAFKA_RECORD_BATCH"]);
const OPAQUE_FORMATS: ReadonlySet<PayloadFormat> = new Set<PayloadFormat>([
  "OPAQUE_RECORD_BATCH",
  "PULSAR_ENTRY_BATCH",
]);

/**
 * Checks a batch: at least one entry; every payload a `Uint8Array`; opaque formats carry exactly one record per
 * entry, ranged formats 1..2^31-1; totals stay safe integers. Throws `NereusError(INVALID_ARGUMENT)` otherwise.
 */
export function validateBatch(batch: AppendBatch): ValidatedBatch {
  if (typeof batch !== "object" || batch === null) throw invalid("batch must be an object");
  const format = batch.payloadFormat;
  const ranged = RANGED_FORMATS.has(format);
  if (!ranged && !OPAQUE_FORMATS.has(format)) throw invalid(`unknown payloadFormat ${String(format)}`);
  if (!Array.isArray(batch.entries) || batch.entries.length === 0)
    throw invalid("batch must contain at least one entry");
  if (batch.handOverPayloads !== undefined && typeof batch.handOverPayloads !== "boolean")
    throw invalid("handOverPayloads must be a boolean");
  let recordCount = 0;
  let logicalBytes = 0;
  batch.entries.forEach((entry: AppendEntry, index: number) => {
    if (typeof entry !== "object" || entry === null || !(entry.payload instanceof Uint8Array)) {
      throw invalid(`entry ${String(index)} must have a Uint8Array payload`);
    }
    const count = entry.recordCount;
    if (!Number.isInteger(count) || count < 1 || count > MAX_ENTRY_RECORD_COUNT) {
      throw invalid(`entry ${String(index)} recordCount must be an integer in [1, 2^31-1], got ${String(count)}`);
    }
    const crc = entry.payloadCrc32c;
    if (crc !== undefined && (!Number.isInteger(crc) || crc < 0 || crc > 0xffff_ffff)) {
      throw invalid(`entry ${String(index)} payloadCrc32c must be an unsigned 32-bit integer, got ${String(crc)}`);
    }
    if (!ranged && count !== 1) {
      throw invalid(
        `entry ${String(index)}: ${format} entries consume exactly one offset, got recordCount ${String(count)}`,
      );
    }
    recordCount += count;
    logicalBytes += entry.payload.byteLength;
  });
  if (!Number.isSafeInteger(recordCount) || !Number.isSafeInteger(logicalBytes)) {
    throw invalid("batch totals exceed the safe-integer range");
  }
  return {
    payloadFormat: format,
    entries: batch.entries,
    recordCount,
    entryCount: batch.entries.length,
    logicalBytes,
    handedOver: batch.handOverPayloads === true,
  };
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, `invalid append batch: ${message}`, { retryable: false });
}
