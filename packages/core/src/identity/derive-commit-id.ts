// Deterministic commit ids (docs/architecture.md §4.2): the same logical append identity written to the same physical target
// always yields the same id, so a retry reuses its intent. Head-derived fields (previousCommitId, commitVersion,
// cumulativeSize, offsets other than the expected start) are deliberately excluded: they may change between
// attempts through renew/trim without changing what is being appended.
//
// Hash input (the format is durable; never change it, add a new domain tag instead):
//   "nereus-commit-v2\0"
//   then each field below, in this order, as u32 byte length + bytes:
//     streamId (UTF-8), writerId (UTF-8), writerEpoch (u64), fencingTokenHash (32 raw bytes),
//     expectedStartOffset (u64), recordCount (u64), entryCount (u64), logicalBytes (u64),
//     payloadFormat (UTF-8 name), payloadChecksum (u32), entryRecordCounts (u32 count + u32 each),
//     readTargetType (UTF-8), readTargetVersion (u64), readTargetIdentity (32 raw bytes)
// The id is base32lower_nopad(sha256(input)): 52 characters, a raw-safe key component.
import type { PayloadFormat } from "../domain/append-types.js";
import type { ReadTargetType } from "../domain/read-target.js";
import { base32LowerNoPad } from "../bytes/base32-lower-no-pad.js";
import { withScratchWriter } from "../bytes/byte-writer.js";
import { fromHex } from "../bytes/hex.js";
import { sha256 } from "../bytes/sha256.js";
import { isWellFormedString } from "../bytes/strict-utf8.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

const encoder = new TextEncoder();
const DOMAIN_TAG = encoder.encode("nereus-commit-v2\0");
const SHA256_HEX = /^[0-9a-f]{64}$/;
const MAX_ENTRY_RECORD_COUNT = 0x7fff_ffff;
const PAYLOAD_FORMATS: ReadonlySet<string> = new Set<PayloadFormat>([
  "OPAQUE_RECORD_BATCH",
  "KAFKA_RECORD_BATCH",
  "PULSAR_ENTRY_BATCH",
]);

/** The logical identity of one append attempt plus the identity of its physical target. */
export interface CommitIdentity {
  readonly streamId: string;
  readonly writerId: string;
  readonly writerEpoch: number;
  /** 64 lowercase hex digits (see `fencingTokenHash`). */
  readonly fencingTokenHash: string;
  readonly expectedStartOffset: number;
  readonly recordCount: number;
  readonly entryCount: number;
  readonly logicalBytes: number;
  readonly payloadFormat: PayloadFormat;
  /** CRC32C over the concatenated entry payloads, in order. */
  readonly payloadChecksum: number;
  readonly entryRecordCounts: readonly number[];
  readonly readTargetType: ReadTargetType;
  readonly readTargetVersion: number;
  /** Hex SHA-256 identity of the exact target, i.e. `readTargetIdentity(target)` from the records module. */
  readonly readTargetIdentity: string;
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, `commit identity: ${message}`);
}

function checkText(name: string, value: string): void {
  if (typeof value !== "string" || value.length === 0 || !isWellFormedString(value)) {
    throw invalid(`${name} must be a non-empty well-formed string`);
  }
}

function checkNatural(name: string, value: number, min = 0): void {
  if (!Number.isSafeInteger(value) || value < min) throw invalid(`${name} must be a safe integer >= ${String(min)}`);
}

function validate(identity: CommitIdentity): void {
  checkText("streamId", identity.streamId);
  checkText("writerId", identity.writerId);
  checkNatural("writerEpoch", identity.writerEpoch);
  if (!SHA256_HEX.test(identity.fencingTokenHash)) throw invalid("fencingTokenHash must be 64 lowercase hex digits");
  checkNatural("expectedStartOffset", identity.expectedStartOffset);
  checkNatural("recordCount", identity.recordCount, 1);
  checkNatural("entryCount", identity.entryCount, 1);
  checkNatural("logicalBytes", identity.logicalBytes);
  if (!Number.isSafeInteger(identity.expectedStartOffset + identity.recordCount)) {
    throw invalid("expectedStartOffset + recordCount exceeds the safe-integer range");
  }
  if (!PAYLOAD_FORMATS.has(identity.payloadFormat))
    throw invalid(`unknown payloadFormat ${String(identity.payloadFormat)}`);
  if (
    !Number.isInteger(identity.payloadChecksum) ||
    identity.payloadChecksum < 0 ||
    identity.payloadChecksum > 0xffff_ffff
  ) {
    throw invalid("payloadChecksum must be an unsigned 32-bit integer");
  }
  if (identity.entryRecordCounts.length !== identity.entryCount) {
    throw invalid(
      `entryRecordCounts has ${String(identity.entryRecordCounts.length)} items, entryCount is ${String(identity.entryCount)}`,
    );
  }
  let sum = 0;
  for (const count of identity.entryRecordCounts) {
    if (!Number.isInteger(count) || count < 1 || count > MAX_ENTRY_RECORD_COUNT) {
      throw invalid("every entry record count must be in [1, 2^31-1]");
    }
    sum += count;
  }
  if (sum !== identity.recordCount)
    throw invalid(`entryRecordCounts sum to ${String(sum)}, recordCount is ${String(identity.recordCount)}`);
  checkText("readTargetType", identity.readTargetType);
  checkNatural("readTargetVersion", identity.readTargetVersion, 1);
  if (!SHA256_HEX.test(identity.readTargetIdentity))
    throw invalid("readTargetIdentity must be 64 lowercase hex digits");
}

/**
 * The deterministic commit id of one append attempt. Equal identities ⇒ equal ids; any difference in a covered
 * field ⇒ a different id (up to SHA-256 collisions). Throws `NereusError(INVALID_ARGUMENT)` for an inconsistent
 * identity (e.g. entry record counts that do not sum to `recordCount`).
 */
export function deriveCommitId(identity: CommitIdentity): string {
  validate(identity);
  // Each field is `u32 byte length ‖ bytes`; validated strings are well-formed, so writeString's strict UTF-8 is
  // exactly that for the text fields.
  const digest = withScratchWriter((writer) => {
    writer
      .writeBytes(DOMAIN_TAG)
      .writeString(identity.streamId)
      .writeString(identity.writerId)
      .writeU32(8)
      .writeU64(identity.writerEpoch)
      .writeLengthPrefixedBytes(fromHex(identity.fencingTokenHash))
      .writeU32(8)
      .writeU64(identity.expectedStartOffset)
      .writeU32(8)
      .writeU64(identity.recordCount)
      .writeU32(8)
      .writeU64(identity.entryCount)
      .writeU32(8)
      .writeU64(identity.logicalBytes)
      .writeString(identity.payloadFormat)
      .writeU32(4)
      .writeU32(identity.payloadChecksum);
    const counts = identity.entryRecordCounts;
    writer.writeU32(4 + 4 * counts.length).writeU32(counts.length);
    for (const count of counts) writer.writeU32(count);
    writer
      .writeString(identity.readTargetType)
      .writeU32(8)
      .writeU64(identity.readTargetVersion)
      .writeLengthPrefixedBytes(fromHex(identity.readTargetIdentity));
    return sha256(writer.view());
  });
  return base32LowerNoPad(digest);
}
