// DeleteTopics response body (api key 20): one result per topic.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, string, uuid } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const deletableTopicResult = struct("DeletableTopicResult", {
  name: nullableField(string, { nullableVersions: "6+" }),
  topicId: field(uuid, { versions: "6+" }),
  errorCode: field(int16),
  errorMessage: nullableField(string, { versions: "5+", nullableVersions: "5+", default: null }),
});

/**
 * Grammar:
 *
 *   DeleteTopicsResponse (api key 20), v0-6, flexible v4+
 *     throttleTimeMs: int32 (v1+)
 *     responses: []DeletableTopicResult
 *       name: string (nullable v6+)
 *       topicId: uuid (v6+)
 *       errorCode: int16
 *       errorMessage: string (v5+, nullable v5+)
 */
export const DeleteTopicsResponse = message({
  name: "DeleteTopicsResponse",
  apiKey: 20,
  type: "response",
  validVersions: "0-6",
  flexibleVersions: "4+",
  fields: {
    throttleTimeMs: field(int32, { versions: "1+" }),
    responses: field(arrayOf(deletableTopicResult)),
  },
});

/** A DeleteTopics response body. */
export type DeleteTopicsResponse = MessageValue<typeof DeleteTopicsResponse>;
/** The result for one topic. */
export type DeleteTopicsResponseTopic = StructValue<typeof deletableTopicResult.fields>;
