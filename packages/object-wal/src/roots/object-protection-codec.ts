// ObjectProtection record codec (NRM1 recordType "ObjectProtection", schema 1). Payload layout, big-endian:
//   objectKeyHash       string (64 hex digits)
//   type                u8 wire id (also the key's typeId02)
//   referenceId         string
//   ownerKey            string (metadata key of the owner record)
//   streamId            string
//   rootLifecycleEpoch  u64
import { ByteReader, ByteWriter } from "@nereus/core";
import { RecordChecks, decodeRecordEnvelope, encodeRecordEnvelope, type RecordCodec } from "@nereus/core/internal";
import { parseObjectProtectionKey } from "./physical-object-keys.js";
import { PhysicalObjectWireIds, type ObjectProtection } from "./physical-object-records.js";

const RECORD_TYPE = "ObjectProtection";
const SCHEMA_VERSION = 1;

function validate(protection: ObjectProtection, checks: RecordChecks): void {
  checks.sha256Hex("objectKeyHash", protection.objectKeyHash);
  checks.require(PhysicalObjectWireIds.protectionType.idOf(protection.type) !== undefined, `unknown type ${String(protection.type)}`);
  checks.text("referenceId", protection.referenceId);
  checks.text("ownerKey", protection.ownerKey);
  checks.text("streamId", protection.streamId);
  checks.natural("rootLifecycleEpoch", protection.rootLifecycleEpoch);
}

/**
 * Codec of the ObjectProtection record. `decode` requires the key's object key hash, type id and reference id to
 * match the record.
 */
export const objectProtectionCodec: RecordCodec<ObjectProtection> = {
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,

  encode(protection: ObjectProtection): Uint8Array {
    validate(protection, new RecordChecks(RECORD_TYPE));
    const payload = new ByteWriter(256)
      .writeString(protection.objectKeyHash)
      .writeU8(PhysicalObjectWireIds.protectionType.idOf(protection.type) ?? 0)
      .writeString(protection.referenceId)
      .writeString(protection.ownerKey)
      .writeString(protection.streamId)
      .writeU64(protection.rootLifecycleEpoch)
      .finish();
    return encodeRecordEnvelope({ recordType: RECORD_TYPE, schemaVersion: SCHEMA_VERSION, minReaderSchemaVersion: SCHEMA_VERSION }, payload);
  },

  decode(bytes: Uint8Array, key: string): ObjectProtection {
    const checks = new RecordChecks(RECORD_TYPE, key);
    try {
      const location = parseObjectProtectionKey(key);
      const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
      const reader = new ByteReader(payload, `${RECORD_TYPE} payload`);
      const keyHash = reader.readString("objectKeyHash");
      const typeId = reader.readU8("type");
      const type = PhysicalObjectWireIds.protectionType.valueOf(typeId);
      if (type === undefined) throw checks.fail(`unknown type wire id ${String(typeId)}`);
      const protection: ObjectProtection = {
        objectKeyHash: keyHash,
        type,
        referenceId: reader.readString("referenceId"),
        ownerKey: reader.readString("ownerKey"),
        streamId: reader.readString("streamId"),
        rootLifecycleEpoch: reader.readU64("rootLifecycleEpoch"),
      };
      reader.expectEnd();
      validate(protection, checks);
      checks.require(
        protection.objectKeyHash === location.objectKeyHash && typeId === location.typeId && protection.referenceId === location.referenceId,
        `(objectKeyHash, type, referenceId) does not match the key's (${location.objectKeyHash}, ${String(location.typeId)}, ${location.referenceId})`,
      );
      return protection;
    } catch (error) {
      return checks.wrap(error);
    }
  },
};
