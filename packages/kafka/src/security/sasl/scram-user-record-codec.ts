// KafkaScramUser record codec (NRM1 recordType "KafkaScramUser", schema 1): the SCRAM credentials of one user, at
// most one per mechanism, each salted and hashed (salt, iterations, StoredKey, ServerKey; never a password).
// Payload: userName string, credentialCount u8, then per credential in ascending mechanism type: mechanismType u8,
// iterations u32, salt bytes (u32 length), storedKey bytes (u32 length), serverKey bytes (u32 length).
// Decoding is strict: the user must be the one its key names, mechanisms known, sorted and distinct, key lengths
// those of the mechanism, iterations within the mechanism's bounds, salts non-empty.
import { ByteReader, ByteWriter } from "@nereus/core";
import { RecordChecks, type RecordCodec, decodeRecordEnvelope, encodeRecordEnvelope } from "@nereus/core/internal";
import type { ScramCredential } from "./scram-credential.js";
import type { ScramCredentialKeys } from "./scram-credential-keys.js";
import { type ScramMechanism, scramMechanismOfType } from "./scram-mechanism.js";

const RECORD_TYPE = "KafkaScramUser";
const SCHEMA_VERSION = 1;
const MAX_SALT_BYTES = 1024;

/** One credential of a user. */
export interface ScramUserCredential extends ScramCredential {
  readonly mechanism: ScramMechanism;
}

/** The SCRAM credentials of one user. Invariant: `credentials` sorted by mechanism type, one per mechanism. */
export interface ScramUser {
  readonly userName: string;
  readonly credentials: readonly ScramUserCredential[];
}

function checkUser(checks: RecordChecks, user: ScramUser): void {
  checks.text("userName", user.userName);
  checks.require(user.credentials.length <= 255, "too many credentials");
  let previous = 0;
  for (const credential of user.credentials) {
    const mechanism = scramMechanismOfType(credential.mechanism.type);
    checks.require(mechanism !== undefined, `unknown SCRAM mechanism ${String(credential.mechanism.type)}`);
    checks.require(credential.mechanism.type > previous, "credentials not sorted by mechanism or repeated");
    previous = credential.mechanism.type;
    const { minIterations, maxIterations, keyBytes, name } = credential.mechanism;
    checks.require(
      Number.isInteger(credential.iterations) &&
        credential.iterations >= minIterations &&
        credential.iterations <= maxIterations,
      `${name} iterations ${String(credential.iterations)} out of bounds`,
    );
    checks.require(credential.salt.length > 0 && credential.salt.length <= MAX_SALT_BYTES, `${name} salt length`);
    checks.require(credential.storedKey.length === keyBytes, `${name} storedKey length`);
    checks.require(credential.serverKey.length === keyBytes, `${name} serverKey length`);
  }
}

/** The codec of SCRAM user records stored under `keys`. */
export function scramUserCodec(keys: ScramCredentialKeys): RecordCodec<ScramUser> {
  return {
    recordType: RECORD_TYPE,
    schemaVersion: SCHEMA_VERSION,

    encode(user: ScramUser): Uint8Array {
      checkUser(new RecordChecks(RECORD_TYPE), user);
      const writer = new ByteWriter(64).writeString(user.userName).writeU8(user.credentials.length);
      for (const credential of user.credentials) {
        writer
          .writeU8(credential.mechanism.type)
          .writeU32(credential.iterations)
          .writeLengthPrefixedBytes(credential.salt)
          .writeLengthPrefixedBytes(credential.storedKey)
          .writeLengthPrefixedBytes(credential.serverKey);
      }
      return encodeRecordEnvelope(
        { recordType: RECORD_TYPE, schemaVersion: SCHEMA_VERSION, minReaderSchemaVersion: SCHEMA_VERSION },
        writer.finish(),
      );
    },

    decode(bytes: Uint8Array, key: string): ScramUser {
      const checks = new RecordChecks(RECORD_TYPE, key);
      try {
        const keyUser = keys.parseUserKey(key);
        const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
        const reader = new ByteReader(payload, "KafkaScramUser payload");
        const userName = reader.readString("userName");
        checks.require(userName === keyUser, `user ${JSON.stringify(userName)} is not the key's user`);
        const count = reader.readU8("credentialCount");
        const credentials: ScramUserCredential[] = [];
        for (let index = 0; index < count; index += 1) {
          const type = reader.readU8("mechanismType");
          const mechanism = scramMechanismOfType(type);
          if (mechanism === undefined) throw checks.fail(`unknown SCRAM mechanism ${String(type)}`);
          credentials.push({
            mechanism,
            iterations: reader.readU32("iterations"),
            salt: reader.readLengthPrefixedBytes("salt").slice(),
            storedKey: reader.readLengthPrefixedBytes("storedKey").slice(),
            serverKey: reader.readLengthPrefixedBytes("serverKey").slice(),
          });
        }
        reader.expectEnd();
        const user = { userName, credentials };
        checkUser(checks, user);
        return user;
      } catch (error) {
        return checks.wrap(error);
      }
    },
  };
}
