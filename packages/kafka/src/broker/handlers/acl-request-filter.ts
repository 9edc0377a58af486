// Conversions between the ACL APIs' wire fields and the ACL model (security/acl/): a DescribeAcls or DeleteAcls
// filter into an AclBindingFilter, a CreateAcls creation into an AclBinding, and a binding back into the fields
// responses carry. Codes pass through unchanged (the wire uses Kafka's codes, as the model does).
import type { CreatableAcl } from "../../protocol/apis/create-acls/create-acls-request.js";
import type { DeleteAclsFilter } from "../../protocol/apis/delete-acls/delete-acls-request.js";
import type { AclBindingFilter } from "../../security/acl/acl-binding-filter.js";
import type { AclBinding, AclEntry, ResourcePattern } from "../../security/acl/acl-types.js";

/** The filter of a DescribeAcls request or of one DeleteAcls filter entry. */
export function bindingFilterOf(filter: DeleteAclsFilter): AclBindingFilter {
  return {
    resourceType: filter.resourceTypeFilter,
    name: filter.resourceNameFilter,
    patternType: filter.patternTypeFilter,
    principal: filter.principalFilter,
    host: filter.hostFilter,
    operation: filter.operation,
    permission: filter.permissionType,
  };
}

/** The binding a CreateAcls creation asks for (unchecked: see bindingProblem). */
export function bindingOf(creation: CreatableAcl): AclBinding {
  return {
    pattern: {
      resourceType: creation.resourceType,
      name: creation.resourceName,
      patternType: creation.resourcePatternType,
    } as ResourcePattern,
    entry: {
      principal: creation.principal,
      host: creation.host,
      operation: creation.operation,
      permission: creation.permissionType,
    } as AclEntry,
  };
}

/** The wire fields of a binding, as DeleteAcls matching ACLs carry them. */
export function bindingFields(binding: AclBinding): {
  resourceType: number;
  resourceName: string;
  patternType: number;
  principal: string;
  host: string;
  operation: number;
  permissionType: number;
} {
  return {
    resourceType: binding.pattern.resourceType,
    resourceName: binding.pattern.name,
    patternType: binding.pattern.patternType,
    principal: binding.entry.principal,
    host: binding.entry.host,
    operation: binding.entry.operation,
    permissionType: binding.entry.permission,
  };
}
