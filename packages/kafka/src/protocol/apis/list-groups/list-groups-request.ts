// ListGroups request body (api key 16): every group the broker coordinates, optionally filtered by state (v4+)
// and type (v5+).
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { string } from "../../schema/scalar-types.js";

/**
 * Grammar:
 *
 *   ListGroupsRequest (api key 16), v0-5, flexible v3+
 *     statesFilter: []string (v4+)
 *     typesFilter: []string (v5+)
 */
export const ListGroupsRequest = message({
  name: "ListGroupsRequest",
  apiKey: 16,
  type: "request",
  validVersions: "0-5",
  flexibleVersions: "3+",
  fields: {
    statesFilter: field(arrayOf(string), { versions: "4+" }),
    typesFilter: field(arrayOf(string), { versions: "5+" }),
  },
});

/** A decoded ListGroups request body. */
export type ListGroupsRequest = MessageValue<typeof ListGroupsRequest>;
