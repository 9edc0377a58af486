// DeleteGroups request body (api key 42): the ids of the consumer groups to delete (each must have no members).
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { string } from "../../schema/scalar-types.js";

/**
 * Grammar:
 *
 *   DeleteGroupsRequest (api key 42), v0-2, flexible v2+
 *     groupsNames: []string
 */
export const DeleteGroupsRequest = message({
  name: "DeleteGroupsRequest",
  apiKey: 42,
  type: "request",
  validVersions: "0-2",
  flexibleVersions: "2+",
  fields: {
    groupsNames: field(arrayOf(string)),
  },
});

/** A decoded DeleteGroups request body. */
export type DeleteGroupsRequest = MessageValue<typeof DeleteGroupsRequest>;
