// DescribeGroups response body (api key 15): per group its state ("Stable", "PreparingRebalance", "Empty", ...),
// protocol and members with their metadata and assignment bytes.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bytes, int16, int32, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const describedGroupMember = struct("DescribedGroupMember", {
  memberId: field(string),
  groupInstanceId: nullableField(string, { versions: "4+", nullableVersions: "4+", default: null }),
  clientId: field(string),
  clientHost: field(string),
  memberMetadata: field(bytes),
  memberAssignment: field(bytes),
});

const describedGroup = struct("DescribedGroup", {
  errorCode: field(int16),
  groupId: field(string),
  groupState: field(string),
  protocolType: field(string),
  protocolData: field(string),
  members: field(arrayOf(describedGroupMember)),
  authorizedOperations: field(int32, { versions: "3+", default: -2147483648 }),
});

/**
 * Grammar:
 *
 *   DescribeGroupsResponse (api key 15), v0-5, flexible v5+
 *     throttleTimeMs: int32 (v1+)
 *     groups: []DescribedGroup
 *       errorCode: int16
 *       groupId: string
 *       groupState: string
 *       protocolType: string
 *       protocolData: string
 *       members: []DescribedGroupMember
 *         memberId: string
 *         groupInstanceId: string (v4+, nullable v4+)
 *         clientId: string
 *         clientHost: string
 *         memberMetadata: bytes
 *         memberAssignment: bytes
 *       authorizedOperations: int32 (v3+)
 */
export const DescribeGroupsResponse = message({
  name: "DescribeGroupsResponse",
  apiKey: 15,
  type: "response",
  validVersions: "0-5",
  flexibleVersions: "5+",
  fields: {
    throttleTimeMs: field(int32, { versions: "1+" }),
    groups: field(arrayOf(describedGroup)),
  },
});

/** A DescribeGroups response body. */
export type DescribeGroupsResponse = MessageValue<typeof DescribeGroupsResponse>;
/** One described group. */
export type DescribedGroup = StructValue<typeof describedGroup.fields>;
/** One member of a described group. */
export type DescribedGroupMember = StructValue<typeof describedGroupMember.fields>;
