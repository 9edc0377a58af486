// Canonical binary form of a ReadTarget (docs/architecture.md §8.2). Not an NRM1 record by itself: it is nested (length-prefixed)
// inside commit intents and offset-index entries, and hashed by readTargetIdentity. Layout, big-endian:
//   targetType     u32 length + UTF-8   "OBJECT_SLICE" | "BOOKKEEPER_ENTRY_RANGE"
//   targetVersion  u16                  1
//   payload        u32 length + bytes
// OBJECT_SLICE v1 payload:            BOOKKEEPER_ENTRY_RANGE v1 payload:
//   magic          "NRO1"               magic          "NRB1"
//   objectKey      string               clusterAlias   string
//   objectType     u8 wire id           ledgerId       string (canonical decimal int64 >= 0)
//   sliceOffset    u64                  firstEntryId   u64
//   sliceLength    u64 (> 0)            entryCount     u32 (> 0)
//   sliceChecksum  u32 (CRC32C)         rangeChecksum  u32 (CRC32C)
//   entryCount     u32 (> 0)
// Unknown types or versions, trailing bytes and broken invariants are METADATA_INVARIANT_VIOLATIONs. A valid
// target without a registered reader is not this module's concern (UNSUPPORTED_READ_TARGET at read time).
import type { BookKeeperEntryRangeTarget, ObjectSliceTarget, ReadTarget } from "../domain/read-target.js";
import { ByteReader } from "../bytes/byte-reader.js";
import { withScratchWriter, type ByteWriter } from "../bytes/byte-writer.js";
import { encodeStrictUtf8 } from "../bytes/strict-utf8.js";
import { RecordChecks } from "./record-checks.js";
import { RecordWireIds } from "./record-wire-ids.js";

/** Upper bound of an encoded target. */
const READ_TARGET_MAX_BYTES = 64 * 1024;
/** Upper bound of an object key (the S3 limit). */
const OBJECT_KEY_MAX_BYTES = 1024;

const OBJECT_SLICE_MAGIC = new Uint8Array([0x4e, 0x52, 0x4f, 0x31]);
const BOOKKEEPER_RANGE_MAGIC = new Uint8Array([0x4e, 0x52, 0x42, 0x31]);
const LEDGER_ID_PATTERN = /^(0|[1-9][0-9]{0,18})$/;
const INT64_MAX = 9_223_372_036_854_775_807n;
const RECORD_TYPE = "ReadTarget";

function validateObjectSlice(target: ObjectSliceTarget, checks: RecordChecks): void {
  checks.text("objectKey", target.objectKey);
  // A UTF-16 code unit encodes to at most 3 UTF-8 bytes, so short keys need no encoding to be measured.
  const keyFits =
    target.objectKey.length * 3 <= OBJECT_KEY_MAX_BYTES ||
    encodeStrictUtf8(target.objectKey).length <= OBJECT_KEY_MAX_BYTES;
  checks.require(keyFits, "objectKey exceeds 1024 UTF-8 bytes");
  if (RecordWireIds.objectType.idOf(target.objectType) === undefined)
    throw checks.fail(`unknown objectType ${String(target.objectType)}`);
  checks.natural("sliceOffset", target.sliceOffset);
  checks.natural("sliceLength", target.sliceLength, 1);
  checks.require(
    Number.isSafeInteger(target.sliceOffset + target.sliceLength),
    "sliceOffset + sliceLength exceeds the safe-integer range",
  );
  checks.u32("sliceChecksum", target.sliceChecksum);
  checks.u32("entryCount", target.entryCount, 1);
}

function validateBookKeeperRange(target: BookKeeperEntryRangeTarget, checks: RecordChecks): void {
  checks.text("clusterAlias", target.clusterAlias);
  const ledgerId: unknown = target.ledgerId;
  // The pattern allows at most 19 digits; only a 19-digit id can exceed the int64 range.
  if (
    typeof ledgerId !== "string" ||
    !LEDGER_ID_PATTERN.test(ledgerId) ||
    (ledgerId.length === 19 && BigInt(ledgerId) > INT64_MAX)
  ) {
    throw checks.fail(`ledgerId ${JSON.stringify(target.ledgerId)} is not a canonical non-negative int64 decimal`);
  }
  checks.natural("firstEntryId", target.firstEntryId);
  checks.u32("entryCount", target.entryCount, 1);
  checks.require(
    Number.isSafeInteger(target.firstEntryId + target.entryCount),
    "firstEntryId + entryCount exceeds the safe-integer range",
  );
  checks.u32("rangeChecksum", target.rangeChecksum);
}

function validateReadTarget(target: ReadTarget, checks: RecordChecks): void {
  if (typeof target !== "object" || target === null) throw checks.fail("read target must be an object");
  switch (target.type) {
    case "OBJECT_SLICE":
      if (target.version !== 1) throw checks.fail(`unknown OBJECT_SLICE version ${String(target.version)}`);
      validateObjectSlice(target, checks);
      return;
    case "BOOKKEEPER_ENTRY_RANGE":
      if (target.version !== 1) throw checks.fail(`unknown BOOKKEEPER_ENTRY_RANGE version ${String(target.version)}`);
      validateBookKeeperRange(target, checks);
      return;
    default:
      throw checks.fail(`unknown read target type ${JSON.stringify((target as { type: unknown }).type)}`);
  }
}

/** Writes the canonical per-type payload of a validated target. */
function writePayload(writer: ByteWriter, target: ReadTarget): void {
  if (target.type === "OBJECT_SLICE") {
    writer
      .writeBytes(OBJECT_SLICE_MAGIC)
      .writeString(target.objectKey)
      .writeU8(RecordWireIds.objectType.idOf(target.objectType) ?? 0)
      .writeU64(target.sliceOffset)
      .writeU64(target.sliceLength)
      .writeU32(target.sliceChecksum)
      .writeU32(target.entryCount);
  } else {
    writer
      .writeBytes(BOOKKEEPER_RANGE_MAGIC)
      .writeString(target.clusterAlias)
      .writeString(target.ledgerId)
      .writeU64(target.firstEntryId)
      .writeU32(target.entryCount)
      .writeU32(target.rangeChecksum);
  }
}

/** Writes the canonical bytes of a validated target (type, version, length-prefixed payload), size-checked. */
function writeTarget(writer: ByteWriter, target: ReadTarget, checks: RecordChecks): void {
  const start = writer.length;
  writer.writeString(target.type).writeU16(target.version);
  const payloadSlot = writer.reserveLength();
  writePayload(writer, target);
  writer.patchLength(payloadSlot);
  if (writer.length - start > READ_TARGET_MAX_BYTES)
    throw checks.fail(`encoded target exceeds ${String(READ_TARGET_MAX_BYTES)} bytes`);
}

function decodePayload(type: string, version: number, payload: Uint8Array, checks: RecordChecks): ReadTarget {
  if (type !== "OBJECT_SLICE" && type !== "BOOKKEEPER_ENTRY_RANGE")
    throw checks.fail(`unknown read target type ${JSON.stringify(type)}`);
  if (version !== 1) throw checks.fail(`unknown ${type} version ${String(version)}`);
  const reader = new ByteReader(payload, `${type} v1 payload`);
  let target: ReadTarget;
  if (type === "OBJECT_SLICE") {
    reader.expectBytes(OBJECT_SLICE_MAGIC, "magic");
    const objectKey = reader.readString("objectKey");
    const objectTypeId = reader.readU8("objectType");
    const objectType = RecordWireIds.objectType.valueOf(objectTypeId);
    if (objectType === undefined) throw checks.fail(`unknown objectType wire id ${String(objectTypeId)}`);
    target = {
      type,
      version: 1,
      objectKey,
      objectType,
      sliceOffset: reader.readU64("sliceOffset"),
      sliceLength: reader.readU64("sliceLength"),
      sliceChecksum: reader.readU32("sliceChecksum"),
      entryCount: reader.readU32("entryCount"),
    };
  } else {
    reader.expectBytes(BOOKKEEPER_RANGE_MAGIC, "magic");
    target = {
      type,
      version: 1,
      clusterAlias: reader.readString("clusterAlias"),
      ledgerId: reader.readString("ledgerId"),
      firstEntryId: reader.readU64("firstEntryId"),
      entryCount: reader.readU32("entryCount"),
      rangeChecksum: reader.readU32("rangeChecksum"),
    };
  }
  reader.expectEnd();
  validateReadTarget(target, checks);
  return target;
}

/**
 * Canonical codec of ReadTarget. `encode` validates first (METADATA_INVARIANT_VIOLATION on a broken target);
 * `decode` accepts only what `encode` produces. `encodePayload` is the per-type payload that
 * `readTargetIdentity` hashes.
 */
export const readTargetCodec = {
  encode(target: ReadTarget): Uint8Array {
    const checks = new RecordChecks(RECORD_TYPE);
    validateReadTarget(target, checks);
    return withScratchWriter((writer) => {
      writeTarget(writer, target, checks);
      return writer.finish();
    });
  },

  decode(bytes: Uint8Array): ReadTarget {
    const checks = new RecordChecks(RECORD_TYPE, "(decode)");
    try {
      checks.require(
        bytes.length <= READ_TARGET_MAX_BYTES,
        `encoded target exceeds ${String(READ_TARGET_MAX_BYTES)} bytes`,
      );
      const reader = new ByteReader(bytes, "ReadTarget");
      const type = reader.readString("targetType");
      const version = reader.readU16("targetVersion");
      const payload = reader.readLengthPrefixedBytes("payload");
      reader.expectEnd();
      return decodePayload(type, version, payload, checks);
    } catch (error) {
      return checks.wrap(error);
    }
  },

  /** The canonical per-type payload (with its NRO1/NRB1 magic) of a valid target. */
  encodePayload(target: ReadTarget): Uint8Array {
    validateReadTarget(target, new RecordChecks(RECORD_TYPE));
    return withScratchWriter((writer) => {
      writePayload(writer, target);
      return writer.finish();
    });
  },
} as const;

/**
 * Writes `u32 length ‖ readTargetCodec.encode(target)` into `writer` in place (the nested readTarget field of
 * commit intents and index entries). Validates exactly like `encode`.
 */
export function writeLengthPrefixedReadTarget(writer: ByteWriter, target: ReadTarget): void {
  const checks = new RecordChecks(RECORD_TYPE);
  validateReadTarget(target, checks);
  const slot = writer.reserveLength();
  writeTarget(writer, target, checks);
  writer.patchLength(slot);
}

/** Throws the METADATA_INVARIANT_VIOLATION `readTargetCodec.encode` would throw for an invalid target. */
export function checkReadTarget(target: ReadTarget): void {
  validateReadTarget(target, new RecordChecks(RECORD_TYPE));
}

/** Writes `readTargetCodec.encodePayload(target)` into `writer` in place; `target` must have passed `checkReadTarget`. */
export function writeReadTargetPayload(writer: ByteWriter, target: ReadTarget): void {
  writePayload(writer, target);
}
