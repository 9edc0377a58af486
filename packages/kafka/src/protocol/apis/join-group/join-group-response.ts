// JoinGroup response body (api key 11): the generation, the chosen protocol, the leader, the member's id and, for
// the leader only, every member with its metadata (the leader computes the assignment).
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bool, bytes, int16, int32, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const joinGroupResponseMember = struct("JoinGroupResponseMember", {
  memberId: field(string),
  groupInstanceId: nullableField(string, { versions: "5+", nullableVersions: "5+", default: null }),
  metadata: field(bytes),
});

/**
 * Grammar:
 *
 *   JoinGroupResponse (api key 11), v0-9, flexible v6+
 *     throttleTimeMs: int32 (v2+)
 *     errorCode: int16
 *     generationId: int32
 *     protocolType: string (v7+, nullable v7+)
 *     protocolName: string (nullable v7+)
 *     leader: string
 *     skipAssignment: bool (v9+)
 *     memberId: string
 *     members: []JoinGroupResponseMember
 *       memberId: string
 *       groupInstanceId: string (v5+, nullable v5+)
 *       metadata: bytes
 */
export const JoinGroupResponse = message({
  name: "JoinGroupResponse",
  apiKey: 11,
  type: "response",
  validVersions: "0-9",
  flexibleVersions: "6+",
  fields: {
    throttleTimeMs: field(int32, { versions: "2+" }),
    errorCode: field(int16),
    generationId: field(int32, { default: -1 }),
    protocolType: nullableField(string, { versions: "7+", nullableVersions: "7+", default: null }),
    protocolName: nullableField(string, { nullableVersions: "7+" }),
    leader: field(string),
    skipAssignment: field(bool, { versions: "9+" }),
    memberId: field(string),
    members: field(arrayOf(joinGroupResponseMember)),
  },
});

/** A JoinGroup response body. */
export type JoinGroupResponse = MessageValue<typeof JoinGroupResponse>;
/** One member as the leader sees it. */
export type JoinGroupResponseMember = StructValue<typeof joinGroupResponseMember.fields>;
