// PhysicalObjectRoot record codec (NRM1 recordType "PhysicalObjectRoot", schema 1). Payload layout, big-endian:
//   objectKey              string
//   objectKeyHash          string (64 hex digits; = sha256(objectKey))
//   objectId               string
//   kind                   u8 wire id
//   lifecycle              u8 wire id
//   lifecycleEpoch         u64
//   writerId               string
//   processRunId           string
//   createdAtMillis        u64
//   orphanNotBeforeMillis  u64
//   objectLength           u64 (> 0)
//   storageChecksum        u32
//   formatMajor            u16
//   formatMinor            u16
//   sliceCount             u32 (>= 1)
//   manifestOffset         u64
//   manifestLength         u32 (> 0)
//   manifestChecksum       u32
import { defineRecordCodec, type RecordChecks, type RecordCodec } from "@nereus/core/internal";
import { objectKeyHash, parsePhysicalObjectRootKey } from "./physical-object-keys.js";
import { PhysicalObjectWireIds, type PhysicalObjectRoot } from "./physical-object-records.js";

const RECORD_TYPE = "PhysicalObjectRoot";
const SCHEMA_VERSION = 1;

function validate(root: PhysicalObjectRoot, checks: RecordChecks): void {
  checks.text("objectKey", root.objectKey);
  checks.sha256Hex("objectKeyHash", root.objectKeyHash);
  checks.require(root.objectKeyHash === objectKeyHash(root.objectKey), "objectKeyHash is not the SHA-256 of objectKey");
  checks.text("objectId", root.objectId);
  checks.require(PhysicalObjectWireIds.kind.idOf(root.kind) !== undefined, `unknown kind ${String(root.kind)}`);
  checks.require(
    PhysicalObjectWireIds.lifecycle.idOf(root.lifecycle) !== undefined,
    `unknown lifecycle ${String(root.lifecycle)}`,
  );
  checks.natural("lifecycleEpoch", root.lifecycleEpoch);
  checks.text("writerId", root.writerId);
  checks.text("processRunId", root.processRunId);
  checks.natural("createdAtMillis", root.createdAtMillis);
  checks.natural("orphanNotBeforeMillis", root.orphanNotBeforeMillis);
  checks.natural("objectLength", root.objectLength, 1);
  checks.u32("storageChecksum", root.storageChecksum);
  checks.require(
    Number.isInteger(root.formatMajor) && root.formatMajor >= 1 && root.formatMajor <= 0xffff,
    "formatMajor must be in 1..65535",
  );
  checks.require(
    Number.isInteger(root.formatMinor) && root.formatMinor >= 0 && root.formatMinor <= 0xffff,
    "formatMinor must be in 0..65535",
  );
  checks.u32("sliceCount", root.sliceCount, 1);
  checks.natural("manifestOffset", root.manifestOffset);
  checks.u32("manifestLength", root.manifestLength, 1);
  checks.u32("manifestChecksum", root.manifestChecksum);
  checks.require(
    root.manifestOffset + root.manifestLength <= root.objectLength,
    "the manifest lies outside the object",
  );
}

/**
 * Codec of the PhysicalObjectRoot record. `decode` requires the key's object key hash to match the record's
 * (and the record's hash to be the hash of its object key).
 */
export const physicalObjectRootCodec: RecordCodec<PhysicalObjectRoot> = defineRecordCodec({
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,
  validate,
  parseKey: parsePhysicalObjectRootKey,

  matchKey(root, location, checks) {
    checks.require(
      root.objectKeyHash === location.objectKeyHash,
      `objectKeyHash ${root.objectKeyHash} does not match the key's ${location.objectKeyHash}`,
    );
  },

  write(writer, root) {
    writer
      .writeString(root.objectKey)
      .writeString(root.objectKeyHash)
      .writeString(root.objectId)
      .writeU8(PhysicalObjectWireIds.kind.idOf(root.kind) ?? 0)
      .writeU8(PhysicalObjectWireIds.lifecycle.idOf(root.lifecycle) ?? 0)
      .writeU64(root.lifecycleEpoch)
      .writeString(root.writerId)
      .writeString(root.processRunId)
      .writeU64(root.createdAtMillis)
      .writeU64(root.orphanNotBeforeMillis)
      .writeU64(root.objectLength)
      .writeU32(root.storageChecksum)
      .writeU16(root.formatMajor)
      .writeU16(root.formatMinor)
      .writeU32(root.sliceCount)
      .writeU64(root.manifestOffset)
      .writeU32(root.manifestLength)
      .writeU32(root.manifestChecksum);
  },

  read(reader, checks): PhysicalObjectRoot {
    return {
      objectKey: reader.readString("objectKey"),
      objectKeyHash: reader.readString("objectKeyHash"),
      objectId: reader.readString("objectId"),
      kind: checks.wireValue("kind", PhysicalObjectWireIds.kind, reader.readU8("kind")),
      lifecycle: checks.wireValue("lifecycle", PhysicalObjectWireIds.lifecycle, reader.readU8("lifecycle")),
      lifecycleEpoch: reader.readU64("lifecycleEpoch"),
      writerId: reader.readString("writerId"),
      processRunId: reader.readString("processRunId"),
      createdAtMillis: reader.readU64("createdAtMillis"),
      orphanNotBeforeMillis: reader.readU64("orphanNotBeforeMillis"),
      objectLength: reader.readU64("objectLength"),
      storageChecksum: reader.readU32("storageChecksum"),
      formatMajor: reader.readU16("formatMajor"),
      formatMinor: reader.readU16("formatMinor"),
      sliceCount: reader.readU32("sliceCount"),
      manifestOffset: reader.readU64("manifestOffset"),
      manifestLength: reader.readU32("manifestLength"),
      manifestChecksum: reader.readU32("manifestChecksum"),
    };
  },
});
