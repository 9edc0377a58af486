// CreatePartitions response body (api key 37): per topic an error code and message (null when none).
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const createPartitionsTopicResult = struct("CreatePartitionsTopicResult", {
  name: field(string),
  errorCode: field(int16),
  errorMessage: nullableField(string, { nullableVersions: "0+" }),
});

/**
 * Grammar:
 *
 *   CreatePartitionsResponse (api key 37), v0-3, flexible v2+
 *     throttleTimeMs: int32
 *     results: []CreatePartitionsTopicResult
 *       name: string
 *       errorCode: int16
 *       errorMessage: string (nullable v0+)
 */
export const CreatePartitionsResponse = message({
  name: "CreatePartitionsResponse",
  apiKey: 37,
  type: "response",
  validVersions: "0-3",
  flexibleVersions: "2+",
  fields: {
    throttleTimeMs: field(int32),
    results: field(arrayOf(createPartitionsTopicResult)),
  },
});

/** A CreatePartitions response body. */
export type CreatePartitionsResponse = MessageValue<typeof CreatePartitionsResponse>;
/** The result of one topic. */
export type CreatePartitionsResponseTopic = StructValue<typeof createPartitionsTopicResult.fields>;
