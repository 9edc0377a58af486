// Invariant checks shared by the record codecs. Every failure is a NereusError(METADATA_INVARIANT_VIOLATION)
// whose message names the record type, where it came from (its key, or "encode") and the broken rule. Lower-level
// decode failures (DECODE_ERROR from ByteReader, the key parsers, the UTF-8 decoder) are wrapped the same way.
import { isWellFormedString } from "../bytes/strict-utf8.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import type { WireEnum } from "./wire-enum.js";

const SHA256_HEX = /^[0-9a-f]{64}$/;
const MAX_ENTRY_RECORD_COUNT = 0x7fff_ffff;

/** Field checks for one record being encoded or decoded. */
export class RecordChecks {
  readonly recordType: string;
  readonly where: string;

  /** `where` is the key a value was read from, or undefined when encoding. */
  constructor(recordType: string, key?: string) {
    this.recordType = recordType;
    this.where = key === undefined ? "(encode)" : `at ${key}`;
  }

  fail(message: string, cause?: unknown): NereusError {
    return new NereusError(ErrorCode.METADATA_INVARIANT_VIOLATION, `${this.recordType} ${this.where}: ${message}`, {
      retryable: false,
      cause,
      details: { recordType: this.recordType, where: this.where },
    });
  }

  /**
   * Rethrows `error` as an invariant violation of this record: NereusErrors of other codes (decode failures) are
   * wrapped with their message; an existing invariant violation passes through; anything else is a bug and is
   * rethrown untouched.
   */
  wrap(error: unknown): never {
    if (NereusError.hasCode(error, ErrorCode.METADATA_INVARIANT_VIOLATION)) throw error;
    if (NereusError.is(error)) throw this.fail(error.message, error);
    throw error;
  }

  /** A string; non-empty unless `allowEmpty`; well-formed UTF-16 (so it has one UTF-8 encoding). */
  text(name: string, value: unknown, allowEmpty = false): void {
    if (typeof value !== "string") throw this.fail(`${name} must be a string`);
    if (!allowEmpty && value.length === 0) throw this.fail(`${name} must not be empty`);
    if (!isWellFormedString(value)) throw this.fail(`${name} contains an unpaired UTF-16 surrogate`);
  }

  /** A safe integer >= `min`. */
  natural(name: string, value: unknown, min = 0): void {
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
      throw this.fail(`${name} must be a safe integer >= ${String(min)}, got ${String(value)}`);
    }
  }

  /** An integer in [min, 2^32-1]. */
  u32(name: string, value: unknown, min = 0): void {
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > 0xffff_ffff) {
      throw this.fail(`${name} must be an integer in [${String(min)}, 4294967295], got ${String(value)}`);
    }
  }

  /** 64 lowercase hex digits. */
  sha256Hex(name: string, value: unknown): void {
    if (typeof value !== "string" || !SHA256_HEX.test(value))
      throw this.fail(`${name} must be 64 lowercase hex digits`);
  }

  /**
   * Per-entry record counts of a commit or index entry: non-empty, each in [1, 2^31-1], summing to `recordCount`;
   * opaque formats (OPAQUE_RECORD_BATCH, PULSAR_ENTRY_BATCH) consume exactly one offset per entry.
   */
  entryRecordCounts(counts: unknown, payloadFormat: string, recordCount: number): void {
    if (!Array.isArray(counts) || counts.length === 0) throw this.fail("entryRecordCounts must be a non-empty array");
    const opaque = payloadFormat === "OPAQUE_RECORD_BATCH" || payloadFormat === "PULSAR_ENTRY_BATCH";
    let sum = 0;
    for (const count of counts as unknown[]) {
      if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > MAX_ENTRY_RECORD_COUNT) {
        throw this.fail(`entry record count ${String(count)} is outside [1, 2^31-1]`);
      }
      if (opaque && count !== 1)
        throw this.fail(`${payloadFormat} entries consume exactly one offset, got ${String(count)}`);
      sum += count;
    }
    if (sum !== recordCount)
      throw this.fail(`entryRecordCounts sum to ${String(sum)}, expected ${String(recordCount)}`);
  }

  /** The member of `wire` with wire id `id`; fails with "unknown {name} wire id {id}" for an id it does not know. */
  wireValue<T extends string>(name: string, wire: WireEnum<T>, id: number): T {
    const value = wire.valueOf(id);
    if (value === undefined) throw this.fail(`unknown ${name} wire id ${String(id)}`);
    return value;
  }

  /** A decoded record's stream must be the stream of the key it was read from. */
  sameStream(streamId: string, keyStreamId: string): void {
    if (streamId !== keyStreamId)
      throw this.fail(`streamId ${streamId} does not match the key's stream ${keyStreamId}`);
  }

  /** `condition` must hold; otherwise fail with `message`. */
  require(condition: boolean, message: string): void {
    if (!condition) throw this.fail(message);
  }
}
