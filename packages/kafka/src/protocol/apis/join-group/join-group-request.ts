// JoinGroup request body (api key 11): a member (new: empty memberId) joins a classic consumer group with the
// protocols it supports and their opaque metadata (subscriptions). From v4 a new member without an id is answered
// MEMBER_ID_REQUIRED with a generated id and must join again; v5 adds static membership (groupInstanceId).
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bytes, int32, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const joinGroupRequestProtocol = struct("JoinGroupRequestProtocol", {
  name: field(string),
  metadata: field(bytes),
});

/**
 * Grammar:
 *
 *   JoinGroupRequest (api key 11), v0-9, flexible v6+
 *     groupId: string
 *     sessionTimeoutMs: int32
 *     rebalanceTimeoutMs: int32 (v1+)
 *     memberId: string
 *     groupInstanceId: string (v5+, nullable v5+)
 *     protocolType: string
 *     protocols: []JoinGroupRequestProtocol
 *       name: string
 *       metadata: bytes
 *     reason: string (v8+, nullable v8+)
 */
export const JoinGroupRequest = message({
  name: "JoinGroupRequest",
  apiKey: 11,
  type: "request",
  validVersions: "0-9",
  flexibleVersions: "6+",
  fields: {
    groupId: field(string),
    sessionTimeoutMs: field(int32),
    /** v0 uses the session timeout as the rebalance timeout. */
    rebalanceTimeoutMs: field(int32, { versions: "1+", default: -1 }),
    memberId: field(string),
    groupInstanceId: nullableField(string, { versions: "5+", nullableVersions: "5+", default: null }),
    protocolType: field(string),
    protocols: field(arrayOf(joinGroupRequestProtocol)),
    reason: nullableField(string, { versions: "8+", nullableVersions: "8+", default: null }),
  },
});

/** A decoded JoinGroup request body. */
export type JoinGroupRequest = MessageValue<typeof JoinGroupRequest>;
/** One supported protocol (assignor) with its metadata. */
export type JoinGroupRequestProtocol = StructValue<typeof joinGroupRequestProtocol.fields>;
