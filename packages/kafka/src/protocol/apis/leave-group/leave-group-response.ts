// LeaveGroup response body (api key 13): a top-level error and, from v3, one result per leaving member.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const memberResponse = struct("MemberResponse", {
  memberId: field(string, { versions: "3+" }),
  groupInstanceId: nullableField(string, { versions: "3+", nullableVersions: "3+" }),
  errorCode: field(int16, { versions: "3+" }),
});

/**
 * Grammar:
 *
 *   LeaveGroupResponse (api key 13), v0-5, flexible v4+
 *     throttleTimeMs: int32 (v1+)
 *     errorCode: int16
 *     members: []MemberResponse (v3+)
 *       memberId: string (v3+)
 *       groupInstanceId: string (v3+, nullable v3+)
 *       errorCode: int16 (v3+)
 */
export const LeaveGroupResponse = message({
  name: "LeaveGroupResponse",
  apiKey: 13,
  type: "response",
  validVersions: "0-5",
  flexibleVersions: "4+",
  fields: {
    throttleTimeMs: field(int32, { versions: "1+" }),
    errorCode: field(int16),
    members: field(arrayOf(memberResponse), { versions: "3+" }),
  },
});

/** A LeaveGroup response body. */
export type LeaveGroupResponse = MessageValue<typeof LeaveGroupResponse>;
/** One member's result (v3+). */
export type LeaveGroupResponseMember = StructValue<typeof memberResponse.fields>;
