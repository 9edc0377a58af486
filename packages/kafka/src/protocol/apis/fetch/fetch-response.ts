// Fetch response body (api key 1): per partition the error, high watermark, last stable offset (v4+), log start
// offset (v5+), aborted transactions overlapping the returned range (read_committed), and the records: whole
// stored batches, base offsets rewritten (a batch may start before the fetch offset; clients skip the records
// below it). Topics by id from v13.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, int64, int64BigInt, recordParts, string, uuid } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const epochEndOffset = struct("EpochEndOffset", {
  epoch: field(int32, { versions: "12+", default: -1 }),
  endOffset: field(int64, { versions: "12+", default: -1 }),
});

const leaderIdAndEpoch = struct("LeaderIdAndEpoch", {
  leaderId: field(int32, { versions: "12+", default: -1 }),
  leaderEpoch: field(int32, { versions: "12+", default: -1 }),
});

const snapshotId = struct("SnapshotId", {
  endOffset: field(int64, { default: -1 }),
  epoch: field(int32, { default: -1 }),
});

const abortedTransaction = struct("AbortedTransaction", {
  producerId: field(int64BigInt, { versions: "4+" }),
  firstOffset: field(int64, { versions: "4+" }),
});

const partitionData = struct("PartitionData", {
  partitionIndex: field(int32),
  errorCode: field(int16),
  highWatermark: field(int64),
  lastStableOffset: field(int64, { versions: "4+", default: -1 }),
  logStartOffset: field(int64, { versions: "5+", default: -1 }),
  divergingEpoch: field(epochEndOffset, { versions: "12+", tag: 0, taggedVersions: "12+" }),
  currentLeader: field(leaderIdAndEpoch, { versions: "12+", tag: 1, taggedVersions: "12+" }),
  snapshotId: field(snapshotId, { versions: "12+", tag: 2, taggedVersions: "12+" }),
  abortedTransactions: nullableField(arrayOf(abortedTransaction), { versions: "4+", nullableVersions: "4+" }),
  preferredReadReplica: field(int32, { versions: "11+", default: -1 }),
  records: nullableField(recordParts, { nullableVersions: "0+" }),
});

const fetchableTopicResponse = struct("FetchableTopicResponse", {
  topic: field(string, { versions: "0-12" }),
  topicId: field(uuid, { versions: "13+" }),
  partitions: field(arrayOf(partitionData)),
});

const nodeEndpoint = struct("NodeEndpoint", {
  nodeId: field(int32, { versions: "16+" }),
  host: field(string, { versions: "16+" }),
  port: field(int32, { versions: "16+" }),
  rack: nullableField(string, { versions: "16+", nullableVersions: "16+", default: null }),
});

/**
 * Grammar:
 *
 *   FetchResponse (api key 1), v0-17, flexible v12+
 *     throttleTimeMs: int32 (v1+)
 *     errorCode: int16 (v7+)
 *     sessionId: int32 (v7+)
 *     responses: []FetchableTopicResponse
 *       topic: string (v0-12)
 *       topicId: uuid (v13+)
 *       partitions: []PartitionData
 *         partitionIndex: int32
 *         errorCode: int16
 *         highWatermark: int64
 *         lastStableOffset: int64 (v4+)
 *         logStartOffset: int64 (v5+)
 *         divergingEpoch: EpochEndOffset (v12+, tag 0 v12+)
 *           epoch: int32 (v12+)
 *           endOffset: int64 (v12+)
 *         currentLeader: LeaderIdAndEpoch (v12+, tag 1 v12+)
 *           leaderId: int32 (v12+)
 *           leaderEpoch: int32 (v12+)
 *         snapshotId: SnapshotId (v12+, tag 2 v12+)
 *           endOffset: int64
 *           epoch: int32
 *         abortedTransactions: []AbortedTransaction (v4+, nullable v4+)
 *           producerId: int64 (v4+)
 *           firstOffset: int64 (v4+)
 *         preferredReadReplica: int32 (v11+)
 *         records: records (nullable v0+)
 *     nodeEndpoints: []NodeEndpoint (v16+, tag 0 v16+)
 *       nodeId: int32 (v16+)
 *       host: string (v16+)
 *       port: int32 (v16+)
 *       rack: string (v16+, nullable v16+)
 */
export const FetchResponse = message({
  name: "FetchResponse",
  apiKey: 1,
  type: "response",
  validVersions: "0-17",
  flexibleVersions: "12+",
  fields: {
    throttleTimeMs: field(int32, { versions: "1+" }),
    errorCode: field(int16, { versions: "7+" }),
    sessionId: field(int32, { versions: "7+" }),
    responses: field(arrayOf(fetchableTopicResponse)),
    nodeEndpoints: field(arrayOf(nodeEndpoint), { versions: "16+", tag: 0, taggedVersions: "16+" }),
  },
});

/** A Fetch response body. */
export type FetchResponse = MessageValue<typeof FetchResponse>;
/** Results for one topic. */
export type FetchResponseTopic = StructValue<typeof fetchableTopicResponse.fields>;
/** Result for one partition. */
export type FetchResponsePartition = StructValue<typeof partitionData.fields>;
