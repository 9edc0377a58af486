// DeleteGroups response body (api key 42): per group id an error code (NONE when the group was deleted).
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const deletableGroupResult = struct("DeletableGroupResult", {
  groupId: field(string),
  errorCode: field(int16),
});

/**
 * Grammar:
 *
 *   DeleteGroupsResponse (api key 42), v0-2, flexible v2+
 *     throttleTimeMs: int32
 *     results: []DeletableGroupResult
 *       groupId: string
 *       errorCode: int16
 */
export const DeleteGroupsResponse = message({
  name: "DeleteGroupsResponse",
  apiKey: 42,
  type: "response",
  validVersions: "0-2",
  flexibleVersions: "2+",
  fields: {
    throttleTimeMs: field(int32),
    results: field(arrayOf(deletableGroupResult)),
  },
});

/** A DeleteGroups response body. */
export type DeleteGroupsResponse = MessageValue<typeof DeleteGroupsResponse>;
/** The result of one group. */
export type DeleteGroupsResponseResult = StructValue<typeof deletableGroupResult.fields>;
