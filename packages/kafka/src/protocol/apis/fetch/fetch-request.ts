// Fetch request body (api key 1): per topic and partition the offset to read from and a byte limit, plus the
// long-poll parameters (maxWaitMs, minBytes), the isolation level (v4+), fetch-session ids (v7+; a broker may
// always answer sessionId 0) and, from v13, topics addressed by id instead of name.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int32, int64, int8, string, uuid } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

/** Fetch isolation levels. */
export const IsolationLevel = { readUncommitted: 0, readCommitted: 1 } as const;

const replicaState = struct("ReplicaState", {
  replicaId: field(int32, { versions: "15+", default: -1 }),
  replicaEpoch: field(int64, { versions: "15+", default: -1 }),
});

const fetchPartition = struct("FetchPartition", {
  partition: field(int32),
  currentLeaderEpoch: field(int32, { versions: "9+", default: -1 }),
  fetchOffset: field(int64),
  lastFetchedEpoch: field(int32, { versions: "12+", default: -1 }),
  logStartOffset: field(int64, { versions: "5+", default: -1 }),
  partitionMaxBytes: field(int32),
  replicaDirectoryId: field(uuid, { versions: "17+", tag: 0, taggedVersions: "17+" }),
});

const fetchTopic = struct("FetchTopic", {
  topic: field(string, { versions: "0-12" }),
  topicId: field(uuid, { versions: "13+" }),
  partitions: field(arrayOf(fetchPartition)),
});

const forgottenTopic = struct("ForgottenTopic", {
  topic: field(string, { versions: "7-12" }),
  topicId: field(uuid, { versions: "13+" }),
  partitions: field(arrayOf(int32), { versions: "7+" }),
});

/**
 * Grammar:
 *
 *   FetchRequest (api key 1), v0-17, flexible v12+
 *     clusterId: string (v12+, nullable v12+, tag 0 v12+)
 *     replicaId: int32 (v0-14)
 *     replicaState: ReplicaState (v15+, tag 1 v15+)
 *       replicaId: int32 (v15+)
 *       replicaEpoch: int64 (v15+)
 *     maxWaitMs: int32
 *     minBytes: int32
 *     maxBytes: int32 (v3+)
 *     isolationLevel: int8 (v4+)
 *     sessionId: int32 (v7+)
 *     sessionEpoch: int32 (v7+)
 *     topics: []FetchTopic
 *       topic: string (v0-12)
 *       topicId: uuid (v13+)
 *       partitions: []FetchPartition
 *         partition: int32
 *         currentLeaderEpoch: int32 (v9+)
 *         fetchOffset: int64
 *         lastFetchedEpoch: int32 (v12+)
 *         logStartOffset: int64 (v5+)
 *         partitionMaxBytes: int32
 *         replicaDirectoryId: uuid (v17+, tag 0 v17+)
 *     forgottenTopicsData: []ForgottenTopic (v7+)
 *       topic: string (v7-12)
 *       topicId: uuid (v13+)
 *       partitions: []int32 (v7+)
 *     rackId: string (v11+)
 */
export const FetchRequest = message({
  name: "FetchRequest",
  apiKey: 1,
  type: "request",
  validVersions: "0-17",
  flexibleVersions: "12+",
  fields: {
    clusterId: nullableField(string, {
      versions: "12+",
      nullableVersions: "12+",
      tag: 0,
      taggedVersions: "12+",
      default: null,
    }),
    /** -1 for consumers; brokers replicating send their id (v0-14). */
    replicaId: field(int32, { versions: "0-14", default: -1 }),
    replicaState: field(replicaState, { versions: "15+", tag: 1, taggedVersions: "15+" }),
    maxWaitMs: field(int32),
    minBytes: field(int32),
    maxBytes: field(int32, { versions: "3+", default: 0x7fffffff }),
    /** {@link IsolationLevel}: 1 = read_committed (only below the last stable offset). */
    isolationLevel: field(int8, { versions: "4+" }),
    sessionId: field(int32, { versions: "7+" }),
    sessionEpoch: field(int32, { versions: "7+", default: -1 }),
    topics: field(arrayOf(fetchTopic)),
    forgottenTopicsData: field(arrayOf(forgottenTopic), { versions: "7+" }),
    rackId: field(string, { versions: "11+" }),
  },
});

/** A decoded Fetch request body. */
export type FetchRequest = MessageValue<typeof FetchRequest>;
/** One topic to fetch from. */
export type FetchRequestTopic = StructValue<typeof fetchTopic.fields>;
/** One partition to fetch from. */
export type FetchRequestPartition = StructValue<typeof fetchPartition.fields>;
