// CreateTopics response body (api key 19): per topic the error and, from v5, the resulting partition count,
// replication factor and configs (v7 adds the topic id).
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bool, int16, int32, int8, string, uuid } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const creatableTopicConfigs = struct("CreatableTopicConfigs", {
  name: field(string, { versions: "5+" }),
  value: nullableField(string, { versions: "5+", nullableVersions: "5+" }),
  readOnly: field(bool, { versions: "5+" }),
  configSource: field(int8, { versions: "5+", default: -1 }),
  isSensitive: field(bool, { versions: "5+" }),
});

const creatableTopicResult = struct("CreatableTopicResult", {
  name: field(string),
  topicId: field(uuid, { versions: "7+" }),
  errorCode: field(int16),
  errorMessage: nullableField(string, { versions: "1+", nullableVersions: "0+" }),
  topicConfigErrorCode: field(int16, { versions: "5+", tag: 0, taggedVersions: "5+" }),
  numPartitions: field(int32, { versions: "5+", default: -1 }),
  replicationFactor: field(int16, { versions: "5+", default: -1 }),
  configs: nullableField(arrayOf(creatableTopicConfigs), { versions: "5+", nullableVersions: "5+" }),
});

/**
 * Grammar:
 *
 *   CreateTopicsResponse (api key 19), v0-7, flexible v5+
 *     throttleTimeMs: int32 (v2+)
 *     topics: []CreatableTopicResult
 *       name: string
 *       topicId: uuid (v7+)
 *       errorCode: int16
 *       errorMessage: string (v1+, nullable v0+)
 *       topicConfigErrorCode: int16 (v5+, tag 0 v5+)
 *       numPartitions: int32 (v5+)
 *       replicationFactor: int16 (v5+)
 *       configs: []CreatableTopicConfigs (v5+, nullable v5+)
 *         name: string (v5+)
 *         value: string (v5+, nullable v5+)
 *         readOnly: bool (v5+)
 *         configSource: int8 (v5+)
 *         isSensitive: bool (v5+)
 */
export const CreateTopicsResponse = message({
  name: "CreateTopicsResponse",
  apiKey: 19,
  type: "response",
  validVersions: "0-7",
  flexibleVersions: "5+",
  fields: {
    throttleTimeMs: field(int32, { versions: "2+" }),
    topics: field(arrayOf(creatableTopicResult)),
  },
});

/** A CreateTopics response body. */
export type CreateTopicsResponse = MessageValue<typeof CreateTopicsResponse>;
/** The result for one topic. */
export type CreateTopicsResponseTopic = StructValue<typeof creatableTopicResult.fields>;
