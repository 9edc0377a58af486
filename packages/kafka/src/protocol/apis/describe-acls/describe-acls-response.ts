// DescribeAcls response body (api key 29): the matching ACL bindings grouped by resource pattern, or a top-level
// error (then no resources).
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, int8, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const aclDescription = struct("AclDescription", {
  principal: field(string),
  host: field(string),
  operation: field(int8),
  permissionType: field(int8),
});

const describeAclsResource = struct("DescribeAclsResource", {
  resourceType: field(int8),
  resourceName: field(string),
  patternType: field(int8),
  acls: field(arrayOf(aclDescription)),
});

/**
 * Grammar:
 *
 *   DescribeAclsResponse (api key 29), v1-3, flexible v2+
 *     throttleTimeMs: int32
 *     errorCode: int16
 *     errorMessage: string (nullable v0+)
 *     resources: []DescribeAclsResource
 *       resourceType: int8
 *       resourceName: string
 *       patternType: int8
 *       acls: []AclDescription
 *         principal: string
 *         host: string
 *         operation: int8
 *         permissionType: int8
 */
export const DescribeAclsResponse = message({
  name: "DescribeAclsResponse",
  apiKey: 29,
  type: "response",
  validVersions: "1-3",
  flexibleVersions: "2+",
  fields: {
    throttleTimeMs: field(int32),
    errorCode: field(int16),
    errorMessage: nullableField(string, { nullableVersions: "0+" }),
    resources: field(arrayOf(describeAclsResource)),
  },
});

/** A DescribeAcls response body. */
export type DescribeAclsResponse = MessageValue<typeof DescribeAclsResponse>;
/** The ACLs of one resource pattern in a DescribeAcls response. */
export type DescribeAclsResource = StructValue<typeof describeAclsResource.fields>;
