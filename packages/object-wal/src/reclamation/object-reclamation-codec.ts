// ObjectReclamation record codec (NRM1 recordType "ObjectReclamation", schema 1). Payload layout, big-endian:
//   streamId               string
//   objectKey              string
//   objectKeyHash          string (64 hex digits; = sha256(objectKey))
//   kind                   u8 wire id (PhysicalObjectKind)
//   state                  u8 wire id (ReclamationState)
//   releasedAtMillis       u64
//   markedAtMillis         u64
//   deleteNotBeforeMillis  u64
//   deletedAtMillis        u64
//   objectLength           u64
import { defineRecordCodec, type RecordChecks, type RecordCodec } from "@nereus/core/internal";
import { objectKeyHash } from "../roots/physical-object-keys.js";
import { PhysicalObjectWireIds } from "../roots/physical-object-records.js";
import { parseObjectReclamationKey } from "./reclamation-keys.js";
import { ReclamationWireIds, type ObjectReclamation } from "./reclamation-records.js";

const RECORD_TYPE = "ObjectReclamation";
const SCHEMA_VERSION = 1;

function validate(entry: ObjectReclamation, checks: RecordChecks): void {
  checks.text("streamId", entry.streamId);
  checks.text("objectKey", entry.objectKey);
  checks.sha256Hex("objectKeyHash", entry.objectKeyHash);
  checks.require(
    entry.objectKeyHash === objectKeyHash(entry.objectKey),
    "objectKeyHash is not the SHA-256 of objectKey",
  );
  checks.require(PhysicalObjectWireIds.kind.idOf(entry.kind) !== undefined, `unknown kind ${String(entry.kind)}`);
  checks.require(ReclamationWireIds.state.idOf(entry.state) !== undefined, `unknown state ${String(entry.state)}`);
  checks.natural("releasedAtMillis", entry.releasedAtMillis);
  checks.natural("markedAtMillis", entry.markedAtMillis);
  checks.natural("deleteNotBeforeMillis", entry.deleteNotBeforeMillis);
  checks.natural("deletedAtMillis", entry.deletedAtMillis);
  checks.natural("objectLength", entry.objectLength);
  const marked = entry.state !== "RELEASED";
  checks.require(
    marked === entry.markedAtMillis > 0 && marked === entry.objectLength > 0,
    "markedAtMillis and objectLength are set exactly from MARKED on",
  );
  checks.require(entry.deleteNotBeforeMillis >= entry.markedAtMillis, "deleteNotBeforeMillis precedes markedAtMillis");
  checks.require(
    (entry.state === "DELETED") === entry.deletedAtMillis > 0,
    "deletedAtMillis is set exactly when DELETED",
  );
}

/** Codec of the ObjectReclamation record. `decode` requires the key's stream and object key hash to match. */
export const objectReclamationCodec: RecordCodec<ObjectReclamation> = defineRecordCodec({
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,
  validate,
  parseKey: parseObjectReclamationKey,

  matchKey(entry, location, checks) {
    checks.sameStream(entry.streamId, location.streamId);
    checks.require(
      entry.objectKeyHash === location.objectKeyHash,
      `objectKeyHash ${entry.objectKeyHash} does not match the key's ${location.objectKeyHash}`,
    );
  },

  write(writer, entry) {
    writer
      .writeString(entry.streamId)
      .writeString(entry.objectKey)
      .writeString(entry.objectKeyHash)
      .writeU8(PhysicalObjectWireIds.kind.idOf(entry.kind) ?? 0)
      .writeU8(ReclamationWireIds.state.idOf(entry.state) ?? 0)
      .writeU64(entry.releasedAtMillis)
      .writeU64(entry.markedAtMillis)
      .writeU64(entry.deleteNotBeforeMillis)
      .writeU64(entry.deletedAtMillis)
      .writeU64(entry.objectLength);
  },

  read(reader, checks): ObjectReclamation {
    return {
      streamId: reader.readString("streamId"),
      objectKey: reader.readString("objectKey"),
      objectKeyHash: reader.readString("objectKeyHash"),
      kind: checks.wireValue("kind", PhysicalObjectWireIds.kind, reader.readU8("kind")),
      state: checks.wireValue("state", ReclamationWireIds.state, reader.readU8("state")),
      releasedAtMillis: reader.readU64("releasedAtMillis"),
      markedAtMillis: reader.readU64("markedAtMillis"),
      deleteNotBeforeMillis: reader.readU64("deleteNotBeforeMillis"),
      deletedAtMillis: reader.readU64("deletedAtMillis"),
      objectLength: reader.readU64("objectLength"),
    };
  },
});
