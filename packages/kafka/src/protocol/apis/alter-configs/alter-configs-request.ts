// AlterConfigs request body (api key 33): per resource (type and name) the complete set of configs it should have
// afterwards (configs not named return to their defaults), and whether to validate only.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bool, int8, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const alterableConfig = struct("AlterableConfig", {
  name: field(string),
  value: nullableField(string, { nullableVersions: "0+" }),
});

const alterConfigsResource = struct("AlterConfigsResource", {
  resourceType: field(int8),
  resourceName: field(string),
  configs: field(arrayOf(alterableConfig)),
});

/**
 * Grammar:
 *
 *   AlterConfigsRequest (api key 33), v0-2, flexible v2+
 *     resources: []AlterConfigsResource
 *       resourceType: int8
 *       resourceName: string
 *       configs: []AlterableConfig
 *         name: string
 *         value: string (nullable v0+)
 *     validateOnly: bool
 */
export const AlterConfigsRequest = message({
  name: "AlterConfigsRequest",
  apiKey: 33,
  type: "request",
  validVersions: "0-2",
  flexibleVersions: "2+",
  fields: {
    resources: field(arrayOf(alterConfigsResource)),
    validateOnly: field(bool),
  },
});

/** A decoded AlterConfigs request body. */
export type AlterConfigsRequest = MessageValue<typeof AlterConfigsRequest>;
/** One resource of an AlterConfigs request. */
export type AlterConfigsRequestResource = StructValue<typeof alterConfigsResource.fields>;
