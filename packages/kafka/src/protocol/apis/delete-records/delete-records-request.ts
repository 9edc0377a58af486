// DeleteRecords request body (api key 21): per topic partition, the offset every record below which is deleted
// (-1 = the high watermark).
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int32, int64, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const deleteRecordsPartition = struct("DeleteRecordsPartition", {
  partitionIndex: field(int32),
  offset: field(int64),
});

const deleteRecordsTopic = struct("DeleteRecordsTopic", {
  name: field(string),
  partitions: field(arrayOf(deleteRecordsPartition)),
});

/**
 * Grammar:
 *
 *   DeleteRecordsRequest (api key 21), v0-2, flexible v2+
 *     topics: []DeleteRecordsTopic
 *       name: string
 *       partitions: []DeleteRecordsPartition
 *         partitionIndex: int32
 *         offset: int64
 *     timeoutMs: int32
 */
export const DeleteRecordsRequest = message({
  name: "DeleteRecordsRequest",
  apiKey: 21,
  type: "request",
  validVersions: "0-2",
  flexibleVersions: "2+",
  fields: {
    topics: field(arrayOf(deleteRecordsTopic)),
    timeoutMs: field(int32),
  },
});

/** A decoded DeleteRecords request body. */
export type DeleteRecordsRequest = MessageValue<typeof DeleteRecordsRequest>;
/** One topic of a DeleteRecords request. */
export type DeleteRecordsRequestTopic = StructValue<typeof deleteRecordsTopic.fields>;
/** One partition of a DeleteRecords request. */
export type DeleteRecordsRequestPartition = StructValue<typeof deleteRecordsPartition.fields>;
