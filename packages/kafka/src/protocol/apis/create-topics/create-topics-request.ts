// CreateTopics request body (api key 19): topics with a partition count and replication factor (-1 = broker
// default, v4+) or explicit replica assignments, and per-topic configs; validateOnly (v1+) checks without
// creating.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bool, int16, int32, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const creatableReplicaAssignment = struct("CreatableReplicaAssignment", {
  partitionIndex: field(int32),
  brokerIds: field(arrayOf(int32)),
});

const creatableTopicConfig = struct("CreatableTopicConfig", {
  name: field(string),
  value: nullableField(string, { nullableVersions: "0+" }),
});

const creatableTopic = struct("CreatableTopic", {
  name: field(string),
  numPartitions: field(int32),
  replicationFactor: field(int16),
  assignments: field(arrayOf(creatableReplicaAssignment)),
  configs: field(arrayOf(creatableTopicConfig)),
});

/**
 * Grammar:
 *
 *   CreateTopicsRequest (api key 19), v0-7, flexible v5+
 *     topics: []CreatableTopic
 *       name: string
 *       numPartitions: int32
 *       replicationFactor: int16
 *       assignments: []CreatableReplicaAssignment
 *         partitionIndex: int32
 *         brokerIds: []int32
 *       configs: []CreatableTopicConfig
 *         name: string
 *         value: string (nullable v0+)
 *     timeoutMs: int32
 *     validateOnly: bool (v1+)
 */
export const CreateTopicsRequest = message({
  name: "CreateTopicsRequest",
  apiKey: 19,
  type: "request",
  validVersions: "0-7",
  flexibleVersions: "5+",
  fields: {
    topics: field(arrayOf(creatableTopic)),
    timeoutMs: field(int32, { default: 60_000 }),
    validateOnly: field(bool, { versions: "1+" }),
  },
});

/** A decoded CreateTopics request body. */
export type CreateTopicsRequest = MessageValue<typeof CreateTopicsRequest>;
/** One topic to create. */
export type CreateTopicsRequestTopic = StructValue<typeof creatableTopic.fields>;
