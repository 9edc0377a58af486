// CreatePartitions request body (api key 37): per topic the partition count it should have afterwards (only ever
// more), optionally the replica assignment of each new partition, and whether to validate only.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bool, int32, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const createPartitionsAssignment = struct("CreatePartitionsAssignment", {
  brokerIds: field(arrayOf(int32)),
});

const createPartitionsTopic = struct("CreatePartitionsTopic", {
  name: field(string),
  count: field(int32),
  assignments: nullableField(arrayOf(createPartitionsAssignment), { nullableVersions: "0+" }),
});

/**
 * Grammar:
 *
 *   CreatePartitionsRequest (api key 37), v0-3, flexible v2+
 *     topics: []CreatePartitionsTopic
 *       name: string
 *       count: int32
 *       assignments: []CreatePartitionsAssignment (nullable v0+)
 *         brokerIds: []int32
 *     timeoutMs: int32
 *     validateOnly: bool
 */
export const CreatePartitionsRequest = message({
  name: "CreatePartitionsRequest",
  apiKey: 37,
  type: "request",
  validVersions: "0-3",
  flexibleVersions: "2+",
  fields: {
    topics: field(arrayOf(createPartitionsTopic)),
    timeoutMs: field(int32),
    validateOnly: field(bool),
  },
});

/** A decoded CreatePartitions request body. */
export type CreatePartitionsRequest = MessageValue<typeof CreatePartitionsRequest>;
/** One topic of a CreatePartitions request. */
export type CreatePartitionsRequestTopic = StructValue<typeof createPartitionsTopic.fields>;
