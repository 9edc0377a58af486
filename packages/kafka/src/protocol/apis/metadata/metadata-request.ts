// Metadata request body (api key 3): topics to describe (null = all topics from v1; empty = all in v0) and
// whether to auto-create them (v4+). Topic ids appear in v10+ (usable from v12).
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bool, string, uuid } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const metadataRequestTopic = struct("MetadataRequestTopic", {
  topicId: field(uuid, { versions: "10+" }),
  name: nullableField(string, { nullableVersions: "10+" }),
});

/**
 * Grammar:
 *
 *   MetadataRequest (api key 3), v0-12, flexible v9+
 *     topics: []MetadataRequestTopic (nullable v1+)
 *       topicId: uuid (v10+)
 *       name: string (nullable v10+)
 *     allowAutoTopicCreation: bool (v4+)
 *     includeClusterAuthorizedOperations: bool (v8-10)
 *     includeTopicAuthorizedOperations: bool (v8+)
 */
export const MetadataRequest = message({
  name: "MetadataRequest",
  apiKey: 3,
  type: "request",
  validVersions: "0-12",
  flexibleVersions: "9+",
  fields: {
    /** Null (v1+) asks for every topic; in v0 an empty array does. */
    topics: nullableField(arrayOf(metadataRequestTopic), { nullableVersions: "1+" }),
    allowAutoTopicCreation: field(bool, { versions: "4+", default: true }),
    includeClusterAuthorizedOperations: field(bool, { versions: "8-10" }),
    includeTopicAuthorizedOperations: field(bool, { versions: "8+" }),
  },
});

/** A decoded Metadata request body. */
export type MetadataRequest = MessageValue<typeof MetadataRequest>;
/** One requested topic. */
export type MetadataRequestTopic = StructValue<typeof metadataRequestTopic.fields>;
