// IncrementalAlterConfigs response body (api key 44): per resource an error code and message (null when none);
// the same shape as AlterConfigs'.
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int32 } from "../../schema/scalar-types.js";
import { alterConfigsResourceResult } from "../alter-configs/alter-configs-response.js";

/**
 * Grammar:
 *
 *   IncrementalAlterConfigsResponse (api key 44), v0-1, flexible v1+
 *     throttleTimeMs: int32
 *     responses: []AlterConfigsResourceResponse
 *       errorCode: int16
 *       errorMessage: string (nullable v0+)
 *       resourceType: int8
 *       resourceName: string
 */
export const IncrementalAlterConfigsResponse = message({
  name: "IncrementalAlterConfigsResponse",
  apiKey: 44,
  type: "response",
  validVersions: "0-1",
  flexibleVersions: "1+",
  fields: {
    throttleTimeMs: field(int32),
    responses: field(arrayOf(alterConfigsResourceResult)),
  },
});

/** An IncrementalAlterConfigs response body. */
export type IncrementalAlterConfigsResponse = MessageValue<typeof IncrementalAlterConfigsResponse>;
