// CreateAcls response body (api key 30): one result per requested creation, in request order.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, string } from "../../schema/scalar-types.js";
import { struct } from "../../schema/struct-schema.js";

const aclCreationResult = struct("AclCreationResult", {
  errorCode: field(int16),
  errorMessage: nullableField(string, { nullableVersions: "0+" }),
});

/**
 * Grammar:
 *
 *   CreateAclsResponse (api key 30), v1-3, flexible v2+
 *     throttleTimeMs: int32
 *     results: []AclCreationResult
 *       errorCode: int16
 *       errorMessage: string (nullable v0+)
 */
export const CreateAclsResponse = message({
  name: "CreateAclsResponse",
  apiKey: 30,
  type: "response",
  validVersions: "1-3",
  flexibleVersions: "2+",
  fields: {
    throttleTimeMs: field(int32),
    results: field(arrayOf(aclCreationResult)),
  },
});

/** A CreateAcls response body. */
export type CreateAclsResponse = MessageValue<typeof CreateAclsResponse>;
