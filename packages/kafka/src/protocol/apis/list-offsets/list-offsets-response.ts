// ListOffsets response body (api key 2): per partition the resolved offset and the timestamp of that record
// (-1 for the special timestamps). v0 returned a list of offsets instead (`oldStyleOffsets`).
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, int64, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const listOffsetsPartitionResponse = struct("ListOffsetsPartitionResponse", {
  partitionIndex: field(int32),
  errorCode: field(int16),
  oldStyleOffsets: field(arrayOf(int64), { versions: "0" }),
  timestamp: field(int64, { versions: "1+", default: -1 }),
  offset: field(int64, { versions: "1+", default: -1 }),
  leaderEpoch: field(int32, { versions: "4+", default: -1 }),
});

const listOffsetsTopicResponse = struct("ListOffsetsTopicResponse", {
  name: field(string),
  partitions: field(arrayOf(listOffsetsPartitionResponse)),
});

/**
 * Grammar:
 *
 *   ListOffsetsResponse (api key 2), v0-10, flexible v6+
 *     throttleTimeMs: int32 (v2+)
 *     topics: []ListOffsetsTopicResponse
 *       name: string
 *       partitions: []ListOffsetsPartitionResponse
 *         partitionIndex: int32
 *         errorCode: int16
 *         oldStyleOffsets: []int64 (v0)
 *         timestamp: int64 (v1+)
 *         offset: int64 (v1+)
 *         leaderEpoch: int32 (v4+)
 */
export const ListOffsetsResponse = message({
  name: "ListOffsetsResponse",
  apiKey: 2,
  type: "response",
  validVersions: "0-10",
  flexibleVersions: "6+",
  fields: {
    throttleTimeMs: field(int32, { versions: "2+" }),
    topics: field(arrayOf(listOffsetsTopicResponse)),
  },
});

/** A ListOffsets response body. */
export type ListOffsetsResponse = MessageValue<typeof ListOffsetsResponse>;
/** Results for one topic. */
export type ListOffsetsResponseTopic = StructValue<typeof listOffsetsTopicResponse.fields>;
/** Result for one partition. */
export type ListOffsetsResponsePartition = StructValue<typeof listOffsetsPartitionResponse.fields>;
