// LeaveGroup request body (api key 13): one member leaves (v0-2), or a batch of members identified by member id
// and/or group instance id (v3+).
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const memberIdentity = struct("MemberIdentity", {
  memberId: field(string, { versions: "3+" }),
  groupInstanceId: nullableField(string, { versions: "3+", nullableVersions: "3+", default: null }),
  reason: nullableField(string, { versions: "5+", nullableVersions: "5+", default: null }),
});

/**
 * Grammar:
 *
 *   LeaveGroupRequest (api key 13), v0-5, flexible v4+
 *     groupId: string
 *     memberId: string (v0-2)
 *     members: []MemberIdentity (v3+)
 *       memberId: string (v3+)
 *       groupInstanceId: string (v3+, nullable v3+)
 *       reason: string (v5+, nullable v5+)
 */
export const LeaveGroupRequest = message({
  name: "LeaveGroupRequest",
  apiKey: 13,
  type: "request",
  validVersions: "0-5",
  flexibleVersions: "4+",
  fields: {
    groupId: field(string),
    memberId: field(string, { versions: "0-2" }),
    members: field(arrayOf(memberIdentity), { versions: "3+" }),
  },
});

/** A decoded LeaveGroup request body. */
export type LeaveGroupRequest = MessageValue<typeof LeaveGroupRequest>;
/** One leaving member (v3+). */
export type LeaveGroupRequestMember = StructValue<typeof memberIdentity.fields>;
