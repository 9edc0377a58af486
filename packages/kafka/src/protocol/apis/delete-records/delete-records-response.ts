// DeleteRecords response body (api key 21): per topic partition, the new low watermark (log start) or an error.
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, int64, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const deleteRecordsPartitionResult = struct("DeleteRecordsPartitionResult", {
  partitionIndex: field(int32),
  lowWatermark: field(int64),
  errorCode: field(int16),
});

const deleteRecordsTopicResult = struct("DeleteRecordsTopicResult", {
  name: field(string),
  partitions: field(arrayOf(deleteRecordsPartitionResult)),
});

/**
 * Grammar:
 *
 *   DeleteRecordsResponse (api key 21), v0-2, flexible v2+
 *     throttleTimeMs: int32
 *     topics: []DeleteRecordsTopicResult
 *       name: string
 *       partitions: []DeleteRecordsPartitionResult
 *         partitionIndex: int32
 *         lowWatermark: int64
 *         errorCode: int16
 */
export const DeleteRecordsResponse = message({
  name: "DeleteRecordsResponse",
  apiKey: 21,
  type: "response",
  validVersions: "0-2",
  flexibleVersions: "2+",
  fields: {
    throttleTimeMs: field(int32),
    topics: field(arrayOf(deleteRecordsTopicResult)),
  },
});

/** A DeleteRecords response body. */
export type DeleteRecordsResponse = MessageValue<typeof DeleteRecordsResponse>;
/** The results of one topic. */
export type DeleteRecordsResponseTopic = StructValue<typeof deleteRecordsTopicResult.fields>;
/** The result of one partition. */
export type DeleteRecordsResponsePartition = StructValue<typeof deleteRecordsPartitionResult.fields>;
