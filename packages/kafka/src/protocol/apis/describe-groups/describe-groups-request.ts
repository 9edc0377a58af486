// DescribeGroups request body (api key 15): state and members of the named groups.
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bool, string } from "../../schema/scalar-types.js";

/**
 * Grammar:
 *
 *   DescribeGroupsRequest (api key 15), v0-5, flexible v5+
 *     groups: []string
 *     includeAuthorizedOperations: bool (v3+)
 */
export const DescribeGroupsRequest = message({
  name: "DescribeGroupsRequest",
  apiKey: 15,
  type: "request",
  validVersions: "0-5",
  flexibleVersions: "5+",
  fields: {
    groups: field(arrayOf(string)),
    includeAuthorizedOperations: field(bool, { versions: "3+" }),
  },
});

/** A decoded DescribeGroups request body. */
export type DescribeGroupsRequest = MessageValue<typeof DescribeGroupsRequest>;
