// KafkaGroupRoot record codec (NRM1 recordType "KafkaGroupRoot", schema 1): marks a consumer group that committed
// offsets, so ListGroups and DescribeGroups know it after a restart without scanning every offset. Payload:
//   groupId       string (non-empty)
//   protocolType  string ("consumer", or "" for a group that only ever made simple commits)
import { ByteReader, ByteWriter } from "@nereus/core";
import { type RecordCodec, RecordChecks, decodeRecordEnvelope, encodeRecordEnvelope } from "@nereus/core/internal";
import { parseGroupRootKey } from "./group-keys.js";

const RECORD_TYPE = "KafkaGroupRoot";
const SCHEMA_VERSION = 1;

/** A group known to the store. */
export interface GroupRoot {
  readonly groupId: string;
  readonly protocolType: string;
}

function validate(root: GroupRoot, checks: RecordChecks): void {
  checks.text("groupId", root.groupId);
  checks.text("protocolType", root.protocolType, true);
}

/** Codec of {@link GroupRoot}; `decode` requires the group id to match the key. */
export const groupRootCodec: RecordCodec<GroupRoot> = {
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,

  encode(root: GroupRoot): Uint8Array {
    validate(root, new RecordChecks(RECORD_TYPE));
    const payload = new ByteWriter(32 + root.groupId.length * 3 + root.protocolType.length * 3)
      .writeString(root.groupId)
      .writeString(root.protocolType)
      .finish();
    return encodeRecordEnvelope(
      { recordType: RECORD_TYPE, schemaVersion: SCHEMA_VERSION, minReaderSchemaVersion: SCHEMA_VERSION },
      payload,
    );
  },

  decode(bytes: Uint8Array, key: string): GroupRoot {
    const checks = new RecordChecks(RECORD_TYPE, key);
    try {
      const location = parseGroupRootKey(key);
      const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
      const reader = new ByteReader(payload, `${RECORD_TYPE} payload`);
      const root: GroupRoot = {
        groupId: reader.readString("groupId"),
        protocolType: reader.readString("protocolType"),
      };
      reader.expectEnd();
      validate(root, checks);
      checks.require(
        root.groupId === location.groupId,
        `groupId ${JSON.stringify(root.groupId)} does not match the key's group ${JSON.stringify(location.groupId)}`,
      );
      return root;
    } catch (error) {
      return checks.wrap(error);
    }
  },
};
