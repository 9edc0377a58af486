// DeleteAcls response body (api key 31): per filter, in request order, an error or the bindings it deleted.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, int8, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const deleteAclsMatchingAcl = struct("DeleteAclsMatchingAcl", {
  errorCode: field(int16),
  errorMessage: nullableField(string, { nullableVersions: "0+" }),
  resourceType: field(int8),
  resourceName: field(string),
  patternType: field(int8),
  principal: field(string),
  host: field(string),
  operation: field(int8),
  permissionType: field(int8),
});

const deleteAclsFilterResult = struct("DeleteAclsFilterResult", {
  errorCode: field(int16),
  errorMessage: nullableField(string, { nullableVersions: "0+" }),
  matchingAcls: field(arrayOf(deleteAclsMatchingAcl)),
});

/**
 * Grammar:
 *
 *   DeleteAclsResponse (api key 31), v1-3, flexible v2+
 *     throttleTimeMs: int32
 *     filterResults: []DeleteAclsFilterResult
 *       errorCode: int16
 *       errorMessage: string (nullable v0+)
 *       matchingAcls: []DeleteAclsMatchingAcl
 *         errorCode: int16
 *         errorMessage: string (nullable v0+)
 *         resourceType: int8
 *         resourceName: string
 *         patternType: int8
 *         principal: string
 *         host: string
 *         operation: int8
 *         permissionType: int8
 */
export const DeleteAclsResponse = message({
  name: "DeleteAclsResponse",
  apiKey: 31,
  type: "response",
  validVersions: "1-3",
  flexibleVersions: "2+",
  fields: {
    throttleTimeMs: field(int32),
    filterResults: field(arrayOf(deleteAclsFilterResult)),
  },
});

/** A DeleteAcls response body. */
export type DeleteAclsResponse = MessageValue<typeof DeleteAclsResponse>;
/** One filter's result in a DeleteAcls response. */
export type DeleteAclsFilterResult = StructValue<typeof deleteAclsFilterResult.fields>;
