// OffsetCommit request body (api key 8): committed offsets (with optional metadata and leader epoch) for a group,
// checked against the member's generation; generation -1 is a simple commit outside group management. v9 carries
// a KIP-848 member epoch in the same field.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int32, int64, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const offsetCommitRequestPartition = struct("OffsetCommitRequestPartition", {
  partitionIndex: field(int32),
  committedOffset: field(int64),
  committedLeaderEpoch: field(int32, { versions: "6+", default: -1 }),
  commitTimestamp: field(int64, { versions: "1", default: -1 }),
  committedMetadata: nullableField(string, { nullableVersions: "0+" }),
});

const offsetCommitRequestTopic = struct("OffsetCommitRequestTopic", {
  name: field(string),
  partitions: field(arrayOf(offsetCommitRequestPartition)),
});

/**
 * Grammar:
 *
 *   OffsetCommitRequest (api key 8), v0-9, flexible v8+
 *     groupId: string
 *     generationIdOrMemberEpoch: int32 (v1+)
 *     memberId: string (v1+)
 *     groupInstanceId: string (v7+, nullable v7+)
 *     retentionTimeMs: int64 (v2-4)
 *     topics: []OffsetCommitRequestTopic
 *       name: string
 *       partitions: []OffsetCommitRequestPartition
 *         partitionIndex: int32
 *         committedOffset: int64
 *         committedLeaderEpoch: int32 (v6+)
 *         commitTimestamp: int64 (v1)
 *         committedMetadata: string (nullable v0+)
 */
export const OffsetCommitRequest = message({
  name: "OffsetCommitRequest",
  apiKey: 8,
  type: "request",
  validVersions: "0-9",
  flexibleVersions: "8+",
  fields: {
    groupId: field(string),
    generationIdOrMemberEpoch: field(int32, { versions: "1+", default: -1 }),
    memberId: field(string, { versions: "1+" }),
    groupInstanceId: nullableField(string, { versions: "7+", nullableVersions: "7+", default: null }),
    retentionTimeMs: field(int64, { versions: "2-4", default: -1 }),
    topics: field(arrayOf(offsetCommitRequestTopic)),
  },
});

/** A decoded OffsetCommit request body. */
export type OffsetCommitRequest = MessageValue<typeof OffsetCommitRequest>;
/** Offsets to commit for one topic. */
export type OffsetCommitRequestTopic = StructValue<typeof offsetCommitRequestTopic.fields>;
/** The offset to commit for one partition. */
export type OffsetCommitRequestPartition = StructValue<typeof offsetCommitRequestPartition.fields>;
