// DescribeLogDirs request body (api key 35): the topic partitions whose log directories and sizes are wanted, or
// null for every partition the broker holds.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int32, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const describableLogDirTopic = struct("DescribableLogDirTopic", {
  topic: field(string),
  partitions: field(arrayOf(int32)),
});

/**
 * Grammar:
 *
 *   DescribeLogDirsRequest (api key 35), v1-4, flexible v2+
 *     topics: []DescribableLogDirTopic (nullable v1+)
 *       topic: string
 *       partitions: []int32
 */
export const DescribeLogDirsRequest = message({
  name: "DescribeLogDirsRequest",
  apiKey: 35,
  type: "request",
  validVersions: "1-4",
  flexibleVersions: "2+",
  fields: {
    topics: nullableField(arrayOf(describableLogDirTopic), { nullableVersions: "1+" }),
  },
});

/** A decoded DescribeLogDirs request body. */
export type DescribeLogDirsRequest = MessageValue<typeof DescribeLogDirsRequest>;
/** One topic of a DescribeLogDirs request. */
export type DescribeLogDirsRequestTopic = StructValue<typeof describableLogDirTopic.fields>;
