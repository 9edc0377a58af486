// OffsetFetch response body (api key 9): committed offset, leader epoch and metadata per partition (-1 when
// nothing is committed), for one group (v0-7) or per group (v8+).
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, int64, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const offsetFetchResponsePartition = struct("OffsetFetchResponsePartition", {
  partitionIndex: field(int32, { versions: "0-7" }),
  committedOffset: field(int64, { versions: "0-7" }),
  committedLeaderEpoch: field(int32, { versions: "5-7", default: -1 }),
  metadata: nullableField(string, { versions: "0-7", nullableVersions: "0-7" }),
  errorCode: field(int16, { versions: "0-7" }),
});

const offsetFetchResponseTopic = struct("OffsetFetchResponseTopic", {
  name: field(string, { versions: "0-7" }),
  partitions: field(arrayOf(offsetFetchResponsePartition), { versions: "0-7" }),
});

const offsetFetchResponsePartitions = struct("OffsetFetchResponsePartitions", {
  partitionIndex: field(int32, { versions: "8+" }),
  committedOffset: field(int64, { versions: "8+" }),
  committedLeaderEpoch: field(int32, { versions: "8+", default: -1 }),
  metadata: nullableField(string, { versions: "8+", nullableVersions: "8+" }),
  errorCode: field(int16, { versions: "8+" }),
});

const offsetFetchResponseTopics = struct("OffsetFetchResponseTopics", {
  name: field(string, { versions: "8+" }),
  partitions: field(arrayOf(offsetFetchResponsePartitions), { versions: "8+" }),
});

const offsetFetchResponseGroup = struct("OffsetFetchResponseGroup", {
  groupId: field(string, { versions: "8+" }),
  topics: field(arrayOf(offsetFetchResponseTopics), { versions: "8+" }),
  errorCode: field(int16, { versions: "8+" }),
});

/**
 * Grammar:
 *
 *   OffsetFetchResponse (api key 9), v0-9, flexible v6+
 *     throttleTimeMs: int32 (v3+)
 *     topics: []OffsetFetchResponseTopic (v0-7)
 *       name: string (v0-7)
 *       partitions: []OffsetFetchResponsePartition (v0-7)
 *         partitionIndex: int32 (v0-7)
 *         committedOffset: int64 (v0-7)
 *         committedLeaderEpoch: int32 (v5-7)
 *         metadata: string (v0-7, nullable v0-7)
 *         errorCode: int16 (v0-7)
 *     errorCode: int16 (v2-7)
 *     groups: []OffsetFetchResponseGroup (v8+)
 *       groupId: string (v8+)
 *       topics: []OffsetFetchResponseTopics (v8+)
 *         name: string (v8+)
 *         partitions: []OffsetFetchResponsePartitions (v8+)
 *           partitionIndex: int32 (v8+)
 *           committedOffset: int64 (v8+)
 *           committedLeaderEpoch: int32 (v8+)
 *           metadata: string (v8+, nullable v8+)
 *           errorCode: int16 (v8+)
 *       errorCode: int16 (v8+)
 */
export const OffsetFetchResponse = message({
  name: "OffsetFetchResponse",
  apiKey: 9,
  type: "response",
  validVersions: "0-9",
  flexibleVersions: "6+",
  fields: {
    throttleTimeMs: field(int32, { versions: "3+" }),
    topics: field(arrayOf(offsetFetchResponseTopic), { versions: "0-7" }),
    errorCode: field(int16, { versions: "2-7" }),
    groups: field(arrayOf(offsetFetchResponseGroup), { versions: "8+" }),
  },
});

/** An OffsetFetch response body. */
export type OffsetFetchResponse = MessageValue<typeof OffsetFetchResponse>;
/** One topic (v0-7). */
export type OffsetFetchResponseTopic = StructValue<typeof offsetFetchResponseTopic.fields>;
/** One partition (v0-7). */
export type OffsetFetchResponsePartition = StructValue<typeof offsetFetchResponsePartition.fields>;
/** One group (v8+). */
export type OffsetFetchResponseGroup = StructValue<typeof offsetFetchResponseGroup.fields>;
