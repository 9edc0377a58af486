// DeleteTopics request body (api key 20): topics by name (v0-5) or by name and/or id (v6+).
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int32, string, uuid } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const deleteTopicState = struct("DeleteTopicState", {
  name: nullableField(string, { versions: "6+", nullableVersions: "6+", default: null }),
  topicId: field(uuid, { versions: "6+" }),
});

/**
 * Grammar:
 *
 *   DeleteTopicsRequest (api key 20), v0-6, flexible v4+
 *     topics: []DeleteTopicState (v6+)
 *       name: string (v6+, nullable v6+)
 *       topicId: uuid (v6+)
 *     topicNames: []string (v0-5)
 *     timeoutMs: int32
 */
export const DeleteTopicsRequest = message({
  name: "DeleteTopicsRequest",
  apiKey: 20,
  type: "request",
  validVersions: "0-6",
  flexibleVersions: "4+",
  fields: {
    topics: field(arrayOf(deleteTopicState), { versions: "6+" }),
    topicNames: field(arrayOf(string), { versions: "0-5" }),
    timeoutMs: field(int32),
  },
});

/** A decoded DeleteTopics request body. */
export type DeleteTopicsRequest = MessageValue<typeof DeleteTopicsRequest>;
/** One topic to delete (v6+). */
export type DeleteTopicsRequestTopic = StructValue<typeof deleteTopicState.fields>;
