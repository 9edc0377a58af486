// StreamRegistration record codec (NRM1 recordType "StreamRegistration", schema 1). Payload layout, big-endian:
//   streamId            string
//   profile             u8 wire id (core's StorageProfile ids)
//   registeredAtMillis  u64
import { ByteReader, ByteWriter } from "@nereus/core";
import { RecordChecks, RecordWireIds, decodeRecordEnvelope, encodeRecordEnvelope, type RecordCodec } from "@nereus/core/internal";
import { parseStreamRegistrationKey } from "./materialization-keys.js";
import type { StreamRegistration } from "./materialization-records.js";

const RECORD_TYPE = "StreamRegistration";
const SCHEMA_VERSION = 1;

function validate(registration: StreamRegistration, checks: RecordChecks): void {
  checks.text("streamId", registration.streamId);
  checks.require(RecordWireIds.storageProfile.idOf(registration.profile) !== undefined, `unknown profile ${String(registration.profile)}`);
  checks.natural("registeredAtMillis", registration.registeredAtMillis);
}

/** Codec of the StreamRegistration record. `decode` requires the key's stream id to match. */
export const streamRegistrationCodec: RecordCodec<StreamRegistration> = {
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,

  encode(registration: StreamRegistration): Uint8Array {
    validate(registration, new RecordChecks(RECORD_TYPE));
    const payload = new ByteWriter(96)
      .writeString(registration.streamId)
      .writeU8(RecordWireIds.storageProfile.idOf(registration.profile) ?? 0)
      .writeU64(registration.registeredAtMillis)
      .finish();
    return encodeRecordEnvelope({ recordType: RECORD_TYPE, schemaVersion: SCHEMA_VERSION, minReaderSchemaVersion: SCHEMA_VERSION }, payload);
  },

  decode(bytes: Uint8Array, key: string): StreamRegistration {
    const checks = new RecordChecks(RECORD_TYPE, key);
    try {
      const location = parseStreamRegistrationKey(key);
      const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
      const reader = new ByteReader(payload, `${RECORD_TYPE} payload`);
      const streamId = reader.readString("streamId");
      const profileId = reader.readU8("profile");
      const profile = RecordWireIds.storageProfile.valueOf(profileId);
      if (profile === undefined) throw checks.fail(`unknown profile wire id ${String(profileId)}`);
      const registration: StreamRegistration = { streamId, profile, registeredAtMillis: reader.readU64("registeredAtMillis") };
      reader.expectEnd();
      validate(registration, checks);
      checks.require(registration.streamId === location.streamId, `streamId ${registration.streamId} does not match the key's stream ${location.streamId}`);
      return registration;
    } catch (error) {
      return checks.wrap(error);
    }
  },
};
