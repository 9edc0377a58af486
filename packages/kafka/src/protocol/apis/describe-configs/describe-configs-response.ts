// DescribeConfigs response body (api key 32): per resource its configs with value, source (v1+), synonyms (v1+),
// type and documentation (v3+). v0 has an isDefault flag instead of the source.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bool, int16, int32, int8, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const describeConfigsSynonym = struct("DescribeConfigsSynonym", {
  name: field(string, { versions: "1+" }),
  value: nullableField(string, { versions: "1+", nullableVersions: "0+" }),
  source: field(int8, { versions: "1+" }),
});

const describeConfigsResourceResult = struct("DescribeConfigsResourceResult", {
  name: field(string),
  value: nullableField(string, { nullableVersions: "0+" }),
  readOnly: field(bool),
  isDefault: field(bool, { versions: "0" }),
  configSource: field(int8, { versions: "1+", default: -1 }),
  isSensitive: field(bool),
  synonyms: field(arrayOf(describeConfigsSynonym), { versions: "1+" }),
  configType: field(int8, { versions: "3+" }),
  documentation: nullableField(string, { versions: "3+", nullableVersions: "0+" }),
});

const describeConfigsResult = struct("DescribeConfigsResult", {
  errorCode: field(int16),
  errorMessage: nullableField(string, { nullableVersions: "0+" }),
  resourceType: field(int8),
  resourceName: field(string),
  configs: field(arrayOf(describeConfigsResourceResult)),
});

/**
 * Grammar:
 *
 *   DescribeConfigsResponse (api key 32), v0-4, flexible v4+
 *     throttleTimeMs: int32
 *     results: []DescribeConfigsResult
 *       errorCode: int16
 *       errorMessage: string (nullable v0+)
 *       resourceType: int8
 *       resourceName: string
 *       configs: []DescribeConfigsResourceResult
 *         name: string
 *         value: string (nullable v0+)
 *         readOnly: bool
 *         isDefault: bool (v0)
 *         configSource: int8 (v1+)
 *         isSensitive: bool
 *         synonyms: []DescribeConfigsSynonym (v1+)
 *           name: string (v1+)
 *           value: string (v1+, nullable v0+)
 *           source: int8 (v1+)
 *         configType: int8 (v3+)
 *         documentation: string (v3+, nullable v0+)
 */
export const DescribeConfigsResponse = message({
  name: "DescribeConfigsResponse",
  apiKey: 32,
  type: "response",
  validVersions: "0-4",
  flexibleVersions: "4+",
  fields: {
    throttleTimeMs: field(int32),
    results: field(arrayOf(describeConfigsResult)),
  },
});

/** A DescribeConfigs response body. */
export type DescribeConfigsResponse = MessageValue<typeof DescribeConfigsResponse>;
/** The result for one resource. */
export type DescribeConfigsResponseResult = StructValue<typeof describeConfigsResult.fields>;
/** One config entry. */
export type DescribeConfigsResponseConfig = StructValue<typeof describeConfigsResourceResult.fields>;
