// AlterConfigs response body (api key 33): per resource an error code and message (null when none). The
// IncrementalAlterConfigs response (44) has the same per-resource result.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, int8, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

/** The result of one resource, shared with IncrementalAlterConfigs. */
export const alterConfigsResourceResult = struct("AlterConfigsResourceResponse", {
  errorCode: field(int16),
  errorMessage: nullableField(string, { nullableVersions: "0+" }),
  resourceType: field(int8),
  resourceName: field(string),
});

/**
 * Grammar:
 *
 *   AlterConfigsResponse (api key 33), v0-2, flexible v2+
 *     throttleTimeMs: int32
 *     responses: []AlterConfigsResourceResponse
 *       errorCode: int16
 *       errorMessage: string (nullable v0+)
 *       resourceType: int8
 *       resourceName: string
 */
export const AlterConfigsResponse = message({
  name: "AlterConfigsResponse",
  apiKey: 33,
  type: "response",
  validVersions: "0-2",
  flexibleVersions: "2+",
  fields: {
    throttleTimeMs: field(int32),
    responses: field(arrayOf(alterConfigsResourceResult)),
  },
});

/** An AlterConfigs response body. */
export type AlterConfigsResponse = MessageValue<typeof AlterConfigsResponse>;
/** The result of one resource (AlterConfigs and IncrementalAlterConfigs). */
export type AlterConfigsResourceResult = StructValue<typeof alterConfigsResourceResult.fields>;
