// Produce response body (api key 0): per partition the error, the base offset assigned to the batch, the log
// append time (-1 for CreateTime topics, v2+), the log start offset (v5+), per-record errors (v8+) and, in v10+,
// the new leader as tagged fields when the error is NOT_LEADER_OR_FOLLOWER.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, int64, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const batchIndexAndErrorMessage = struct("BatchIndexAndErrorMessage", {
  batchIndex: field(int32, { versions: "8+" }),
  batchIndexErrorMessage: nullableField(string, { versions: "8+", nullableVersions: "8+", default: null }),
});

const leaderIdAndEpoch = struct("LeaderIdAndEpoch", {
  leaderId: field(int32, { versions: "10+", default: -1 }),
  leaderEpoch: field(int32, { versions: "10+", default: -1 }),
});

const partitionProduceResponse = struct("PartitionProduceResponse", {
  index: field(int32),
  errorCode: field(int16),
  baseOffset: field(int64),
  logAppendTimeMs: field(int64, { versions: "2+", default: -1 }),
  logStartOffset: field(int64, { versions: "5+", default: -1 }),
  recordErrors: field(arrayOf(batchIndexAndErrorMessage), { versions: "8+" }),
  errorMessage: nullableField(string, { versions: "8+", nullableVersions: "8+", default: null }),
  currentLeader: field(leaderIdAndEpoch, { versions: "10+", tag: 0, taggedVersions: "10+" }),
});

const topicProduceResponse = struct("TopicProduceResponse", {
  name: field(string),
  partitionResponses: field(arrayOf(partitionProduceResponse)),
});

const nodeEndpoint = struct("NodeEndpoint", {
  nodeId: field(int32, { versions: "10+" }),
  host: field(string, { versions: "10+" }),
  port: field(int32, { versions: "10+" }),
  rack: nullableField(string, { versions: "10+", nullableVersions: "10+", default: null }),
});

/**
 * Grammar:
 *
 *   ProduceResponse (api key 0), v0-11, flexible v9+
 *     responses: []TopicProduceResponse
 *       name: string
 *       partitionResponses: []PartitionProduceResponse
 *         index: int32
 *         errorCode: int16
 *         baseOffset: int64
 *         logAppendTimeMs: int64 (v2+)
 *         logStartOffset: int64 (v5+)
 *         recordErrors: []BatchIndexAndErrorMessage (v8+)
 *           batchIndex: int32 (v8+)
 *           batchIndexErrorMessage: string (v8+, nullable v8+)
 *         errorMessage: string (v8+, nullable v8+)
 *         currentLeader: LeaderIdAndEpoch (v10+, tag 0 v10+)
 *           leaderId: int32 (v10+)
 *           leaderEpoch: int32 (v10+)
 *     throttleTimeMs: int32 (v1+)
 *     nodeEndpoints: []NodeEndpoint (v10+, tag 0 v10+)
 *       nodeId: int32 (v10+)
 *       host: string (v10+)
 *       port: int32 (v10+)
 *       rack: string (v10+, nullable v10+)
 */
export const ProduceResponse = message({
  name: "ProduceResponse",
  apiKey: 0,
  type: "response",
  validVersions: "0-11",
  flexibleVersions: "9+",
  fields: {
    responses: field(arrayOf(topicProduceResponse)),
    throttleTimeMs: field(int32, { versions: "1+" }),
    nodeEndpoints: field(arrayOf(nodeEndpoint), { versions: "10+", tag: 0, taggedVersions: "10+" }),
  },
});

/** A Produce response body. */
export type ProduceResponse = MessageValue<typeof ProduceResponse>;
/** Results for one topic. */
export type ProduceResponseTopic = StructValue<typeof topicProduceResponse.fields>;
/** Result for one partition. */
export type ProduceResponsePartition = StructValue<typeof partitionProduceResponse.fields>;
