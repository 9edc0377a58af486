// CreateAcls request body (api key 30): the ACL bindings to add, each a resource pattern (type, name, pattern type)
// with one entry (principal, host, operation, permission). Enum codes are Kafka's (security/acl/acl-types.ts).
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int8, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const creatableAcl = struct("CreatableAcl", {
  resourceType: field(int8),
  resourceName: field(string),
  resourcePatternType: field(int8),
  principal: field(string),
  host: field(string),
  operation: field(int8),
  permissionType: field(int8),
});

/**
 * Grammar:
 *
 *   CreateAclsRequest (api key 30), v1-3, flexible v2+
 *     creations: []CreatableAcl
 *       resourceType: int8
 *       resourceName: string
 *       resourcePatternType: int8
 *       principal: string
 *       host: string
 *       operation: int8
 *       permissionType: int8
 */
export const CreateAclsRequest = message({
  name: "CreateAclsRequest",
  apiKey: 30,
  type: "request",
  validVersions: "1-3",
  flexibleVersions: "2+",
  fields: {
    creations: field(arrayOf(creatableAcl)),
  },
});

/** A decoded CreateAcls request body. */
export type CreateAclsRequest = MessageValue<typeof CreateAclsRequest>;
/** One ACL binding to create. */
export type CreatableAcl = StructValue<typeof creatableAcl.fields>;
