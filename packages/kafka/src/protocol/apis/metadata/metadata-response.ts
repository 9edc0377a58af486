// Metadata response body (api key 3): brokers, cluster id, controller, and per topic its partitions with leader,
// replicas and ISR. Leader epochs from v7, topic ids from v10, authorized operations v8+.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bool, int16, int32, string, uuid } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

/** "Authorized operations not requested" marker (INT32_MIN). */
export const AUTHORIZED_OPERATIONS_OMITTED = -2147483648;

const metadataResponseBroker = struct("MetadataResponseBroker", {
  nodeId: field(int32),
  host: field(string),
  port: field(int32),
  rack: nullableField(string, { versions: "1+", nullableVersions: "1+", default: null }),
});

const metadataResponsePartition = struct("MetadataResponsePartition", {
  errorCode: field(int16),
  partitionIndex: field(int32),
  leaderId: field(int32),
  leaderEpoch: field(int32, { versions: "7+", default: -1 }),
  replicaNodes: field(arrayOf(int32)),
  isrNodes: field(arrayOf(int32)),
  offlineReplicas: field(arrayOf(int32), { versions: "5+" }),
});

const metadataResponseTopic = struct("MetadataResponseTopic", {
  errorCode: field(int16),
  name: nullableField(string, { nullableVersions: "12+" }),
  topicId: field(uuid, { versions: "10+" }),
  isInternal: field(bool, { versions: "1+" }),
  partitions: field(arrayOf(metadataResponsePartition)),
  topicAuthorizedOperations: field(int32, { versions: "8+", default: AUTHORIZED_OPERATIONS_OMITTED }),
});

/**
 * Grammar:
 *
 *   MetadataResponse (api key 3), v0-12, flexible v9+
 *     throttleTimeMs: int32 (v3+)
 *     brokers: []MetadataResponseBroker
 *       nodeId: int32
 *       host: string
 *       port: int32
 *       rack: string (v1+, nullable v1+)
 *     clusterId: string (v2+, nullable v2+)
 *     controllerId: int32 (v1+)
 *     topics: []MetadataResponseTopic
 *       errorCode: int16
 *       name: string (nullable v12+)
 *       topicId: uuid (v10+)
 *       isInternal: bool (v1+)
 *       partitions: []MetadataResponsePartition
 *         errorCode: int16
 *         partitionIndex: int32
 *         leaderId: int32
 *         leaderEpoch: int32 (v7+)
 *         replicaNodes: []int32
 *         isrNodes: []int32
 *         offlineReplicas: []int32 (v5+)
 *       topicAuthorizedOperations: int32 (v8+)
 *     clusterAuthorizedOperations: int32 (v8-10)
 */
export const MetadataResponse = message({
  name: "MetadataResponse",
  apiKey: 3,
  type: "response",
  validVersions: "0-12",
  flexibleVersions: "9+",
  fields: {
    throttleTimeMs: field(int32, { versions: "3+" }),
    brokers: field(arrayOf(metadataResponseBroker)),
    clusterId: nullableField(string, { versions: "2+", nullableVersions: "2+", default: null }),
    controllerId: field(int32, { versions: "1+", default: -1 }),
    topics: field(arrayOf(metadataResponseTopic)),
    clusterAuthorizedOperations: field(int32, { versions: "8-10", default: AUTHORIZED_OPERATIONS_OMITTED }),
  },
});

/** A decoded Metadata response body. */
export type MetadataResponse = MessageValue<typeof MetadataResponse>;
/** One broker of the cluster. */
export type MetadataResponseBroker = StructValue<typeof metadataResponseBroker.fields>;
/** One topic and its partitions. */
export type MetadataResponseTopic = StructValue<typeof metadataResponseTopic.fields>;
/** One partition: leader, replicas, ISR. */
export type MetadataResponsePartition = StructValue<typeof metadataResponsePartition.fields>;
