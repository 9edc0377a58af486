// Canonical binary form of a ReadTarget (digest §1.7). Not an NRM1 record by itself: it is nested (length-prefixed)
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
import { ByteWriter } from "../bytes/byte-writer.js";
import { encodeStrictUtf8 } from "../bytes/strict-utf8.js";
import { RecordChecks } from "./record-checks.js";
import { RecordWireIds } from "./record-wire-ids.js";

/** Upper bound of an encoded target. */
export const READ_TARGET_MAX_BYTES = 64 * 1024;
/** Upper bound of an object key (the S3 limit). */
export const OBJECT_KEY_MAX_BYTES = 1024;

const OBJECT_SLICE_MAGIC = new Uint8Array([0x4e, 0x52, 0x4f, 0x31]);
const BOOKKEEPER_RANGE_MAGIC = new Uint8Array([0x4e, 0x52, 0x42, 0x31]);
const LEDGER_ID_PATTERN = /^(0|[1-9][0-9]{0,18})$/;
const INT64_MAX = 9_223_372_036_854_775_807n;
const RECORD_TYPE = "ReadTarget";

function validateObjectSlice(target: ObjectSliceTarget, checks: RecordChecks): void {
  checks.text("objectKey", target.objectKey);
  checks.require(encodeStrictUtf8(target.objectKey).length <= OBJECT_KEY_MAX_BYTES, "objectKey exceeds 1024 UTF-8 bytes");
  checks.require(RecordWireIds.objectType.idOf(target.objectType) !== undefined, `unknown objectType ${String(target.objectType)}`);
  checks.natural("sliceOffset", target.sliceOffset);
  checks.natural("sliceLength", target.sliceLength, 1);
  checks.require(Number.isSafeInteger(target.sliceOffset + target.sliceLength), "sliceOffset + sliceLength exceeds the safe-integer range");
  checks.u32("sliceChecksum", target.sliceChecksum);
  checks.u32("entryCount", target.entryCount, 1);
}

function validateBookKeeperRange(target: BookKeeperEntryRangeTarget, checks: RecordChecks): void {
  checks.text("clusterAlias", target.clusterAlias);
  checks.require(
    typeof target.ledgerId === "string" && LEDGER_ID_PATTERN.test(target.ledgerId) && BigInt(target.ledgerId) <= INT64_MAX,
    `ledgerId ${JSON.stringify(target.ledgerId)} is not a canonical non-negative int64 decimal`,
  );
  checks.natural("firstEntryId", target.firstEntryId);
  checks.u32("entryCount", target.entryCount, 1);
  checks.require(Number.isSafeInteger(target.firstEntryId + target.entryCount), "firstEntryId + entryCount exceeds the safe-integer range");
  checks.u32("rangeChecksum", target.rangeChecksum);
}

function validateReadTarget(target: ReadTarget, checks: RecordChecks): void {
  if (typeof target !== "object" || target === null) throw checks.fail("read target must be an object");
  switch (target.type) {
    case "OBJECT_SLICE":
      checks.require(target.version === 1, `unknown OBJECT_SLICE version ${String(target.version)}`);
      validateObjectSlice(target, checks);
      return;
    case "BOOKKEEPER_ENTRY_RANGE":
      checks.require(target.version === 1, `unknown BOOKKEEPER_ENTRY_RANGE version ${String(target.version)}`);
      validateBookKeeperRange(target, checks);
      return;
    default:
      throw checks.fail(`unknown read target type ${JSON.stringify((target as { type: unknown }).type)}`);
  }
}

function encodePayload(target: ReadTarget): Uint8Array {
  const writer = new ByteWriter(128);
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
  return writer.finish();
}

function decodePayload(type: string, version: number, payload: Uint8Array, checks: RecordChecks): ReadTarget {
  if (type !== "OBJECT_SLICE" && type !== "BOOKKEEPER_ENTRY_RANGE") throw checks.fail(`unknown read target type ${JSON.stringify(type)}`);
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
    const bytes = new ByteWriter(160)
      .writeString(target.type)
      .writeU16(target.version)
      .writeLengthPrefixedBytes(encodePayload(target))
      .finish();
    checks.require(bytes.length <= READ_TARGET_MAX_BYTES, `encoded target exceeds ${String(READ_TARGET_MAX_BYTES)} bytes`);
    return bytes;
  },

  decode(bytes: Uint8Array): ReadTarget {
    const checks = new RecordChecks(RECORD_TYPE, "(decode)");
    try {
      checks.require(bytes.length <= READ_TARGET_MAX_BYTES, `encoded target exceeds ${String(READ_TARGET_MAX_BYTES)} bytes`);
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
    return encodePayload(target);
  },
} as const;
