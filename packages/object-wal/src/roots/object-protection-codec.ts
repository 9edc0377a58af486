// ObjectProtection record codec (NRM1 recordType "ObjectProtection", schema 1). Payload layout, big-endian:
//   objectKeyHash       string (64 hex digits)
//   type                u8 wire id (also the key's typeId02)
//   referenceId         string
//   ownerKey            string (metadata key of the owner record)
//   streamId            string
//   rootLifecycleEpoch  u64
import { defineRecordCodec, type RecordChecks, type RecordCodec } from "@nereus/core/internal";
import { parseObjectProtectionKey } from "./physical-object-keys.js";
import { PhysicalObjectWireIds, type ObjectProtection } from "./physical-object-records.js";

const RECORD_TYPE = "ObjectProtection";
const SCHEMA_VERSION = 1;

function validate(protection: ObjectProtection, checks: RecordChecks): void {
  checks.sha256Hex("objectKeyHash", protection.objectKeyHash);
  checks.require(
    PhysicalObjectWireIds.protectionType.idOf(protection.type) !== undefined,
    `unknown type ${String(protection.type)}`,
  );
  checks.text("referenceId", protection.referenceId);
  checks.text("ownerKey", protection.ownerKey);
  checks.text("streamId", protection.streamId);
  checks.natural("rootLifecycleEpoch", protection.rootLifecycleEpoch);
}

/**
 * Codec of the ObjectProtection record. `decode` requires the key's object key hash, type id and reference id to
 * match the record.
 */
export const objectProtectionCodec: RecordCodec<ObjectProtection> = defineRecordCodec({
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,
  validate,
  parseKey: parseObjectProtectionKey,

  matchKey(protection, location, checks) {
    checks.require(
      protection.objectKeyHash === location.objectKeyHash &&
        PhysicalObjectWireIds.protectionType.idOf(protection.type) === location.typeId &&
        protection.referenceId === location.referenceId,
      `(objectKeyHash, type, referenceId) does not match the key's (${location.objectKeyHash}, ${String(location.typeId)}, ${location.referenceId})`,
    );
  },

  write(writer, protection) {
    writer
      .writeString(protection.objectKeyHash)
      .writeU8(PhysicalObjectWireIds.protectionType.idOf(protection.type) ?? 0)
      .writeString(protection.referenceId)
      .writeString(protection.ownerKey)
      .writeString(protection.streamId)
      .writeU64(protection.rootLifecycleEpoch);
  },

  read(reader, checks): ObjectProtection {
    return {
      objectKeyHash: reader.readString("objectKeyHash"),
      type: checks.wireValue("type", PhysicalObjectWireIds.protectionType, reader.readU8("type")),
      referenceId: reader.readString("referenceId"),
      ownerKey: reader.readString("ownerKey"),
      streamId: reader.readString("streamId"),
      rootLifecycleEpoch: reader.readU64("rootLifecycleEpoch"),
    };
  },
});
