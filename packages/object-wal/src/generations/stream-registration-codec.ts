// StreamRegistration record codec (NRM1 recordType "StreamRegistration", schema 1). Payload layout, big-endian:
//   streamId            string
//   profile             u8 wire id (core's StorageProfile ids)
//   registeredAtMillis  u64
import {
  RecordWireIds,
  defineRecordCodec,
  matchStreamKey,
  type RecordChecks,
  type RecordCodec,
} from "@nereus/core/internal";
import { parseStreamRegistrationKey } from "./materialization-keys.js";
import type { StreamRegistration } from "./materialization-records.js";

const RECORD_TYPE = "StreamRegistration";
const SCHEMA_VERSION = 1;

function validate(registration: StreamRegistration, checks: RecordChecks): void {
  checks.text("streamId", registration.streamId);
  checks.require(
    RecordWireIds.storageProfile.idOf(registration.profile) !== undefined,
    `unknown profile ${String(registration.profile)}`,
  );
  checks.natural("registeredAtMillis", registration.registeredAtMillis);
}

/** Codec of the StreamRegistration record. `decode` requires the key's stream id to match. */
export const streamRegistrationCodec: RecordCodec<StreamRegistration> = defineRecordCodec({
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,
  validate,
  matchKey: matchStreamKey,
  parseKey: parseStreamRegistrationKey,

  write(writer, registration) {
    writer
      .writeString(registration.streamId)
      .writeU8(RecordWireIds.storageProfile.idOf(registration.profile) ?? 0)
      .writeU64(registration.registeredAtMillis);
  },

  read(reader, checks): StreamRegistration {
    return {
      streamId: reader.readString("streamId"),
      profile: checks.wireValue("profile", RecordWireIds.storageProfile, reader.readU8("profile")),
      registeredAtMillis: reader.readU64("registeredAtMillis"),
    };
  },
});
