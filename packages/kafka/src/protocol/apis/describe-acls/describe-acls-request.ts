// DescribeAcls request body (api key 29): one ACL binding filter; null strings match anything, and the enum
// fields take Kafka's ANY (and, for the pattern type, MATCH) codes (security/acl/acl-types.ts).
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int8, string } from "../../schema/scalar-types.js";

/**
 * Grammar:
 *
 *   DescribeAclsRequest (api key 29), v1-3, flexible v2+
 *     resourceTypeFilter: int8
 *     resourceNameFilter: string (nullable v0+)
 *     patternTypeFilter: int8
 *     principalFilter: string (nullable v0+)
 *     hostFilter: string (nullable v0+)
 *     operation: int8
 *     permissionType: int8
 */
export const DescribeAclsRequest = message({
  name: "DescribeAclsRequest",
  apiKey: 29,
  type: "request",
  validVersions: "1-3",
  flexibleVersions: "2+",
  fields: {
    resourceTypeFilter: field(int8),
    resourceNameFilter: nullableField(string, { nullableVersions: "0+" }),
    patternTypeFilter: field(int8),
    principalFilter: nullableField(string, { nullableVersions: "0+" }),
    hostFilter: nullableField(string, { nullableVersions: "0+" }),
    operation: field(int8),
    permissionType: field(int8),
  },
});

/** A decoded DescribeAcls request body. */
export type DescribeAclsRequest = MessageValue<typeof DescribeAclsRequest>;
