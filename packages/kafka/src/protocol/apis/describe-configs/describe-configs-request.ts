// DescribeConfigs request body (api key 32): configs of topics (resource type 2), brokers (4) or broker loggers
// (8); null configurationKeys asks for all of them.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bool, int8, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

/** Config resource types. */
export const ConfigResourceType = {
  unknown: 0,
  any: 1,
  topic: 2,
  group: 3,
  broker: 4,
  brokerLogger: 8,
  clientMetrics: 16,
} as const;

const describeConfigsResource = struct("DescribeConfigsResource", {
  resourceType: field(int8),
  resourceName: field(string),
  configurationKeys: nullableField(arrayOf(string), { nullableVersions: "0+" }),
});

/**
 * Grammar:
 *
 *   DescribeConfigsRequest (api key 32), v0-4, flexible v4+
 *     resources: []DescribeConfigsResource
 *       resourceType: int8
 *       resourceName: string
 *       configurationKeys: []string (nullable v0+)
 *     includeSynonyms: bool (v1+)
 *     includeDocumentation: bool (v3+)
 */
export const DescribeConfigsRequest = message({
  name: "DescribeConfigsRequest",
  apiKey: 32,
  type: "request",
  validVersions: "0-4",
  flexibleVersions: "4+",
  fields: {
    resources: field(arrayOf(describeConfigsResource)),
    includeSynonyms: field(bool, { versions: "1+" }),
    includeDocumentation: field(bool, { versions: "3+" }),
  },
});

/** A decoded DescribeConfigs request body. */
export type DescribeConfigsRequest = MessageValue<typeof DescribeConfigsRequest>;
/** One resource to describe. */
export type DescribeConfigsRequestResource = StructValue<typeof describeConfigsResource.fields>;
