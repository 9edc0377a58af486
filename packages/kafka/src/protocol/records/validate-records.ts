// Walks the records of one RecordBatch v2 the way a Kafka broker does before it assigns offsets: the records
// section (inflated first when the batch is compressed) must hold exactly `recordCount` records, each record's
// length prefix must match the fields inside it, offset deltas must run 0..n-1 in order, key/value/header lengths
// must stay inside their record, and nothing may follow the last record. The walk reads varints and skips bytes;
// it builds no record objects and allocates nothing per record.
//
// Inflating is the caller's job: compressed batches need a `Decompressor` (this codec does no I/O and links no
// compression library), and that function is where output limits are enforced. A decompressor that throws makes
// the batch `decompression-failed`. Reads only; never copies or mutates the batch.
import type { Decompressor } from "./decode-record-batch.js";
import { RECORD_BATCH_HEADER_BYTES, type RecordBatchHeader } from "./record-batch-header.js";

/** Why the records of a batch were rejected. */
export type RecordsRejection =
  /** The compressed payload did not inflate (garbage, truncated, unknown codec, or past the caller's limit). */
  | "decompression-failed"
  /** The records do not parse as `recordCount` well-formed records filling the section exactly. */
  | "invalid-records"
  /** A record's offset delta is not its position in the batch. */
  | "invalid-offset-delta";

/** Outcome of {@link validateRecords}. */
export type RecordsValidation =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly reason: RecordsRejection;
      readonly message: string;
      /** Index of the offending record inside the batch, when one record is to blame. */
      readonly recordIndex?: number;
    };

/** Options of {@link validateRecords}. */
export interface ValidateRecordsOptions {
  /** Inflates the records section of compressed batches; required for them. */
  readonly decompress?: Decompressor;
}

/** Raised inside the walk; carries the reason out to {@link validateRecords}. */
class RecordsWalkError extends Error {
  constructor(
    readonly reason: RecordsRejection,
    message: string,
    readonly recordIndex: number | undefined,
  ) {
    super(message);
  }
}

/** A cursor over the records section. One per walk; every read is bounds-checked against `limit`. */
class RecordCursor {
  position = 0;
  limit: number;
  recordIndex = 0;

  constructor(readonly bytes: Uint8Array) {
    this.limit = bytes.length;
  }

  fail(message: string): never {
    throw new RecordsWalkError("invalid-records", `record ${String(this.recordIndex)}: ${message}`, this.recordIndex);
  }

  /** A zigzag varint of at most 5 bytes (int32). */
  varint(field: string): number {
    const bytes = this.bytes;
    let position = this.position;
    let unsigned = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      if (position >= this.limit) this.fail(`${field} runs past the end of the record`);
      const byte = bytes[position++] ?? 0;
      unsigned |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        this.position = position;
        return (unsigned >>> 1) ^ -(unsigned & 1);
      }
    }
    if (position >= this.limit) this.fail(`${field} runs past the end of the record`);
    const last = bytes[position++] ?? 0;
    if (last > 0x0f) this.fail(`${field} varint exceeds 32 bits`);
    this.position = position;
    // 32 bits: zigzag-decode as an unsigned 32-bit value, then back to a signed int32.
    const wide = (unsigned | (last << 28)) >>> 0;
    return ((wide >>> 1) ^ -(wide & 1)) | 0;
  }

  /** Skips a zigzag varlong of at most 10 bytes (int64) without decoding it. */
  skipVarlong(field: string): void {
    if (this.position < this.limit && (this.bytes[this.position] ?? 0) < 0x80) {
      this.position += 1;
      return;
    }
    for (let index = 0; index < 10; index += 1) {
      if (this.position >= this.limit) this.fail(`${field} runs past the end of the record`);
      const byte = this.bytes[this.position++] ?? 0;
      if (index === 9 && byte > 0x01) this.fail(`${field} varlong exceeds 64 bits`);
      if ((byte & 0x80) === 0) return;
    }
  }

  skip(length: number, field: string): void {
    if (length > this.limit - this.position)
      this.fail(
        `${field} of ${String(length)} bytes overruns the ${String(this.limit - this.position)} bytes left in the record`,
      );
    this.position += length;
  }

  /** Skips a length-prefixed byte field where -1 means null. */
  skipNullableBytes(field: string): void {
    const length = this.varint(field);
    if (length < -1) this.fail(`${field} has negative length ${String(length)}`);
    if (length > 0) this.skip(length, field);
  }
}

/** Walks one record at the cursor; leaves the cursor after it. */
function walkRecord(cursor: RecordCursor, sectionEnd: number): void {
  cursor.limit = sectionEnd;
  const length = cursor.varint("length");
  if (length < 0) cursor.fail(`negative record length ${String(length)}`);
  if (length > sectionEnd - cursor.position) {
    cursor.fail(
      `length ${String(length)} overruns the ${String(sectionEnd - cursor.position)} bytes left in the batch`,
    );
  }
  const recordEnd = cursor.position + length;
  cursor.limit = recordEnd;
  cursor.skip(1, "attributes");
  cursor.skipVarlong("timestampDelta");
  const offsetDelta = cursor.varint("offsetDelta");
  if (offsetDelta !== cursor.recordIndex) {
    throw new RecordsWalkError(
      "invalid-offset-delta",
      `record ${String(cursor.recordIndex)} has offset delta ${String(offsetDelta)}; offset deltas must run 0..n-1 in order`,
      cursor.recordIndex,
    );
  }
  cursor.skipNullableBytes("key");
  cursor.skipNullableBytes("value");
  const headerCount = cursor.varint("headerCount");
  if (headerCount < 0) cursor.fail(`negative header count ${String(headerCount)}`);
  for (let header = 0; header < headerCount; header += 1) {
    const keyLength = cursor.varint("header key");
    if (keyLength < 0) cursor.fail(`header ${String(header)} has negative key length ${String(keyLength)}`);
    cursor.skip(keyLength, "header key");
    cursor.skipNullableBytes("header value");
  }
  if (cursor.position !== recordEnd) {
    cursor.fail(
      `length says ${String(length)} bytes but its fields end ${String(recordEnd - cursor.position)} bytes early`,
    );
  }
}

function walkSection(section: Uint8Array, recordCount: number): void {
  const cursor = new RecordCursor(section);
  const end = section.length;
  for (; cursor.recordIndex < recordCount; cursor.recordIndex += 1) {
    if (cursor.position >= end) {
      throw new RecordsWalkError(
        "invalid-records",
        `the batch declares ${String(recordCount)} records but holds only ${String(cursor.recordIndex)}`,
        undefined,
      );
    }
    walkRecord(cursor, end);
  }
  if (cursor.position !== end) {
    throw new RecordsWalkError(
      "invalid-records",
      `${String(end - cursor.position)} bytes follow the ${String(recordCount)} records the batch declares`,
      undefined,
    );
  }
}

/**
 * Walks every record of `batch` (a whole batch whose header `header` was already validated by
 * `validateRecordBatch`). Compressed batches are inflated through `options.decompress`; without one they are
 * rejected as `decompression-failed`. Never throws for malformed input.
 */
export function validateRecords(
  batch: Uint8Array,
  header: RecordBatchHeader,
  options: ValidateRecordsOptions = {},
): RecordsValidation {
  let section = batch.subarray(RECORD_BATCH_HEADER_BYTES);
  if (header.compression !== 0) {
    if (options.decompress === undefined) {
      return {
        ok: false,
        reason: "decompression-failed",
        message: `batch is compressed with codec ${String(header.compression)} and no decompressor was given`,
      };
    }
    try {
      section = options.decompress(header.compression, section);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        reason: "decompression-failed",
        message: `the compressed records (codec ${String(header.compression)}) do not inflate: ${detail}`,
      };
    }
  }
  try {
    walkSection(section, header.recordCount);
  } catch (error) {
    if (!(error instanceof RecordsWalkError)) throw error;
    return error.recordIndex === undefined
      ? { ok: false, reason: error.reason, message: error.message }
      : { ok: false, reason: error.reason, message: error.message, recordIndex: error.recordIndex };
  }
  return { ok: true };
}
