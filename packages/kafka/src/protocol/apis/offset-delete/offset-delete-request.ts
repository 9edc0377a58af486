// OffsetDelete request body (api key 47): the committed offsets of one consumer group to delete, by topic partition.
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int32, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const offsetDeleteRequestPartition = struct("OffsetDeleteRequestPartition", {
  partitionIndex: field(int32),
});

const offsetDeleteRequestTopic = struct("OffsetDeleteRequestTopic", {
  name: field(string),
  partitions: field(arrayOf(offsetDeleteRequestPartition)),
});

/**
 * Grammar:
 *
 *   OffsetDeleteRequest (api key 47), v0, never flexible
 *     groupId: string
 *     topics: []OffsetDeleteRequestTopic
 *       name: string
 *       partitions: []OffsetDeleteRequestPartition
 *         partitionIndex: int32
 */
export const OffsetDeleteRequest = message({
  name: "OffsetDeleteRequest",
  apiKey: 47,
  type: "request",
  validVersions: "0",
  flexibleVersions: "none",
  fields: {
    groupId: field(string),
    topics: field(arrayOf(offsetDeleteRequestTopic)),
  },
});

/** A decoded OffsetDelete request body. */
export type OffsetDeleteRequest = MessageValue<typeof OffsetDeleteRequest>;
/** One topic of an OffsetDelete request. */
export type OffsetDeleteRequestTopic = StructValue<typeof offsetDeleteRequestTopic.fields>;
