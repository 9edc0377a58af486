// OffsetFetch request body (api key 9): the committed offsets of one group (v0-7; null topics = all, v2+) or of
// several groups at once (v8+, a different shape). requireStable (v7+) asks for UNSTABLE_OFFSET_COMMIT while a
// transactional offset commit is pending.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bool, int32, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const offsetFetchRequestTopic = struct("OffsetFetchRequestTopic", {
  name: field(string, { versions: "0-7" }),
  partitionIndexes: field(arrayOf(int32), { versions: "0-7" }),
});

const offsetFetchRequestTopics = struct("OffsetFetchRequestTopics", {
  name: field(string, { versions: "8+" }),
  partitionIndexes: field(arrayOf(int32), { versions: "8+" }),
});

const offsetFetchRequestGroup = struct("OffsetFetchRequestGroup", {
  groupId: field(string, { versions: "8+" }),
  memberId: nullableField(string, { versions: "9+", nullableVersions: "9+", default: null }),
  memberEpoch: field(int32, { versions: "9+", default: -1 }),
  topics: nullableField(arrayOf(offsetFetchRequestTopics), { versions: "8+", nullableVersions: "8+" }),
});

/**
 * Grammar:
 *
 *   OffsetFetchRequest (api key 9), v0-9, flexible v6+
 *     groupId: string (v0-7)
 *     topics: []OffsetFetchRequestTopic (v0-7, nullable v2-7)
 *       name: string (v0-7)
 *       partitionIndexes: []int32 (v0-7)
 *     groups: []OffsetFetchRequestGroup (v8+)
 *       groupId: string (v8+)
 *       memberId: string (v9+, nullable v9+)
 *       memberEpoch: int32 (v9+)
 *       topics: []OffsetFetchRequestTopics (v8+, nullable v8+)
 *         name: string (v8+)
 *         partitionIndexes: []int32 (v8+)
 *     requireStable: bool (v7+)
 */
export const OffsetFetchRequest = message({
  name: "OffsetFetchRequest",
  apiKey: 9,
  type: "request",
  validVersions: "0-9",
  flexibleVersions: "6+",
  fields: {
    groupId: field(string, { versions: "0-7" }),
    topics: nullableField(arrayOf(offsetFetchRequestTopic), { versions: "0-7", nullableVersions: "2-7" }),
    groups: field(arrayOf(offsetFetchRequestGroup), { versions: "8+" }),
    requireStable: field(bool, { versions: "7+" }),
  },
});

/** A decoded OffsetFetch request body. */
export type OffsetFetchRequest = MessageValue<typeof OffsetFetchRequest>;
/** One topic (v0-7). */
export type OffsetFetchRequestTopic = StructValue<typeof offsetFetchRequestTopic.fields>;
/** One group (v8+). */
export type OffsetFetchRequestGroup = StructValue<typeof offsetFetchRequestGroup.fields>;
/** One topic of a group (v8+). */
export type OffsetFetchRequestGroupTopic = StructValue<typeof offsetFetchRequestTopics.fields>;
