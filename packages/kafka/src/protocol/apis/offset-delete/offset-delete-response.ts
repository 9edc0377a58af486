// OffsetDelete response body (api key 47): a group-level error code, then per topic partition an error code.
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const offsetDeleteResponsePartition = struct("OffsetDeleteResponsePartition", {
  partitionIndex: field(int32),
  errorCode: field(int16),
});

const offsetDeleteResponseTopic = struct("OffsetDeleteResponseTopic", {
  name: field(string),
  partitions: field(arrayOf(offsetDeleteResponsePartition)),
});

/**
 * Grammar:
 *
 *   OffsetDeleteResponse (api key 47), v0, never flexible
 *     errorCode: int16
 *     throttleTimeMs: int32
 *     topics: []OffsetDeleteResponseTopic
 *       name: string
 *       partitions: []OffsetDeleteResponsePartition
 *         partitionIndex: int32
 *         errorCode: int16
 */
export const OffsetDeleteResponse = message({
  name: "OffsetDeleteResponse",
  apiKey: 47,
  type: "response",
  validVersions: "0",
  flexibleVersions: "none",
  fields: {
    errorCode: field(int16),
    throttleTimeMs: field(int32),
    topics: field(arrayOf(offsetDeleteResponseTopic)),
  },
});

/** An OffsetDelete response body. */
export type OffsetDeleteResponse = MessageValue<typeof OffsetDeleteResponse>;
/** The results of one topic. */
export type OffsetDeleteResponseTopic = StructValue<typeof offsetDeleteResponseTopic.fields>;
