// DeleteAcls request body (api key 31): ACL binding filters; every stored binding a filter matches is deleted.
// Null strings match anything; the enum fields take Kafka's ANY (and MATCH) codes (security/acl/acl-types.ts).
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int8, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const deleteAclsFilter = struct("DeleteAclsFilter", {
  resourceTypeFilter: field(int8),
  resourceNameFilter: nullableField(string, { nullableVersions: "0+" }),
  patternTypeFilter: field(int8),
  principalFilter: nullableField(string, { nullableVersions: "0+" }),
  hostFilter: nullableField(string, { nullableVersions: "0+" }),
  operation: field(int8),
  permissionType: field(int8),
});

/**
 * Grammar:
 *
 *   DeleteAclsRequest (api key 31), v1-3, flexible v2+
 *     filters: []DeleteAclsFilter
 *       resourceTypeFilter: int8
 *       resourceNameFilter: string (nullable v0+)
 *       patternTypeFilter: int8
 *       principalFilter: string (nullable v0+)
 *       hostFilter: string (nullable v0+)
 *       operation: int8
 *       permissionType: int8
 */
export const DeleteAclsRequest = message({
  name: "DeleteAclsRequest",
  apiKey: 31,
  type: "request",
  validVersions: "1-3",
  flexibleVersions: "2+",
  fields: {
    filters: field(arrayOf(deleteAclsFilter)),
  },
});

/** A decoded DeleteAcls request body. */
export type DeleteAclsRequest = MessageValue<typeof DeleteAclsRequest>;
/** One filter of a DeleteAcls request. */
export type DeleteAclsFilter = StructValue<typeof deleteAclsFilter.fields>;
