// OffsetCommit response body (api key 8): one error code per committed partition.
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const offsetCommitResponsePartition = struct("OffsetCommitResponsePartition", {
  partitionIndex: field(int32),
  errorCode: field(int16),
});

const offsetCommitResponseTopic = struct("OffsetCommitResponseTopic", {
  name: field(string),
  partitions: field(arrayOf(offsetCommitResponsePartition)),
});

/**
 * Grammar:
 *
 *   OffsetCommitResponse (api key 8), v0-9, flexible v8+
 *     throttleTimeMs: int32 (v3+)
 *     topics: []OffsetCommitResponseTopic
 *       name: string
 *       partitions: []OffsetCommitResponsePartition
 *         partitionIndex: int32
 *         errorCode: int16
 */
export const OffsetCommitResponse = message({
  name: "OffsetCommitResponse",
  apiKey: 8,
  type: "response",
  validVersions: "0-9",
  flexibleVersions: "8+",
  fields: {
    throttleTimeMs: field(int32, { versions: "3+" }),
    topics: field(arrayOf(offsetCommitResponseTopic)),
  },
});

/** An OffsetCommit response body. */
export type OffsetCommitResponse = MessageValue<typeof OffsetCommitResponse>;
/** Results for one topic. */
export type OffsetCommitResponseTopic = StructValue<typeof offsetCommitResponseTopic.fields>;
/** Result for one partition. */
export type OffsetCommitResponsePartition = StructValue<typeof offsetCommitResponsePartition.fields>;
