// IncrementalAlterConfigs request body (api key 44): per resource (type and name) a list of operations on single
// configs — SET (0), DELETE (1, back to the default), APPEND (2) and SUBTRACT (3) for list configs — and whether to
// validate only.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bool, int8, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

/** The operations of an IncrementalAlterConfigs config entry. */
export const ConfigOperation = { set: 0, delete: 1, append: 2, subtract: 3 } as const;

const alterableConfig = struct("IncrementalAlterableConfig", {
  name: field(string),
  configOperation: field(int8),
  value: nullableField(string, { nullableVersions: "0+" }),
});

const alterConfigsResource = struct("IncrementalAlterConfigsResource", {
  resourceType: field(int8),
  resourceName: field(string),
  configs: field(arrayOf(alterableConfig)),
});

/**
 * Grammar:
 *
 *   IncrementalAlterConfigsRequest (api key 44), v0-1, flexible v1+
 *     resources: []IncrementalAlterConfigsResource
 *       resourceType: int8
 *       resourceName: string
 *       configs: []IncrementalAlterableConfig
 *         name: string
 *         configOperation: int8
 *         value: string (nullable v0+)
 *     validateOnly: bool
 */
export const IncrementalAlterConfigsRequest = message({
  name: "IncrementalAlterConfigsRequest",
  apiKey: 44,
  type: "request",
  validVersions: "0-1",
  flexibleVersions: "1+",
  fields: {
    resources: field(arrayOf(alterConfigsResource)),
    validateOnly: field(bool),
  },
});

/** A decoded IncrementalAlterConfigs request body. */
export type IncrementalAlterConfigsRequest = MessageValue<typeof IncrementalAlterConfigsRequest>;
/** One resource of an IncrementalAlterConfigs request. */
export type IncrementalAlterConfigsRequestResource = StructValue<typeof alterConfigsResource.fields>;
