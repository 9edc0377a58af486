// ListGroups response body (api key 16): group ids with protocol type, state (v4+) and type (v5+).
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const listedGroup = struct("ListedGroup", {
  groupId: field(string),
  protocolType: field(string),
  groupState: field(string, { versions: "4+" }),
  groupType: field(string, { versions: "5+" }),
});

/**
 * Grammar:
 *
 *   ListGroupsResponse (api key 16), v0-5, flexible v3+
 *     throttleTimeMs: int32 (v1+)
 *     errorCode: int16
 *     groups: []ListedGroup
 *       groupId: string
 *       protocolType: string
 *       groupState: string (v4+)
 *       groupType: string (v5+)
 */
export const ListGroupsResponse = message({
  name: "ListGroupsResponse",
  apiKey: 16,
  type: "response",
  validVersions: "0-5",
  flexibleVersions: "3+",
  fields: {
    throttleTimeMs: field(int32, { versions: "1+" }),
    errorCode: field(int16),
    groups: field(arrayOf(listedGroup)),
  },
});

/** A ListGroups response body. */
export type ListGroupsResponse = MessageValue<typeof ListGroupsResponse>;
/** One listed group. */
export type ListedGroup = StructValue<typeof listedGroup.fields>;
