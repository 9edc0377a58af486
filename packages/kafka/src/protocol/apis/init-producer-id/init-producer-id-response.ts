// InitProducerId response body (api key 22): the producer id (a bigint) and epoch to stamp on batches.
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, int64BigInt } from "../../schema/scalar-types.js";

/**
 * Grammar:
 *
 *   InitProducerIdResponse (api key 22), v0-5, flexible v2+
 *     throttleTimeMs: int32
 *     errorCode: int16
 *     producerId: int64
 *     producerEpoch: int16
 */
export const InitProducerIdResponse = message({
  name: "InitProducerIdResponse",
  apiKey: 22,
  type: "response",
  validVersions: "0-5",
  flexibleVersions: "2+",
  fields: {
    throttleTimeMs: field(int32),
    errorCode: field(int16),
    producerId: field(int64BigInt, { default: -1n }),
    producerEpoch: field(int16),
  },
});

/** An InitProducerId response body. */
export type InitProducerIdResponse = MessageValue<typeof InitProducerIdResponse>;
