// InitProducerId request body (api key 22): allocates a producer id and epoch for an idempotent producer
// (transactionalId null) or fences older epochs of a transactional one. From v3 a producer may send its current
// id and epoch to have the epoch bumped instead (KIP-360). Producer ids are bigints.
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, int64BigInt, string } from "../../schema/scalar-types.js";

/**
 * Grammar:
 *
 *   InitProducerIdRequest (api key 22), v0-5, flexible v2+
 *     transactionalId: string (nullable v0+)
 *     transactionTimeoutMs: int32
 *     producerId: int64 (v3+)
 *     producerEpoch: int16 (v3+)
 */
export const InitProducerIdRequest = message({
  name: "InitProducerIdRequest",
  apiKey: 22,
  type: "request",
  validVersions: "0-5",
  flexibleVersions: "2+",
  fields: {
    transactionalId: nullableField(string, { nullableVersions: "0+" }),
    transactionTimeoutMs: field(int32),
    producerId: field(int64BigInt, { versions: "3+", default: -1n }),
    producerEpoch: field(int16, { versions: "3+", default: -1 }),
  },
});

/** A decoded InitProducerId request body. */
export type InitProducerIdRequest = MessageValue<typeof InitProducerIdRequest>;
