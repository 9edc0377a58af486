// ListOffsets request body (api key 2): per partition a timestamp to resolve to an offset: -1 latest (high
// watermark, or last stable offset under read_committed), -2 earliest, -3 max timestamp (v7+), -4 earliest local
// (v8+), -5 latest tiered (v9+), otherwise the first offset whose timestamp is ≥ the given one.
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int32, int64, int8, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

/** Special timestamps of ListOffsets. */
export const ListOffsetsTimestamp = {
  latest: -1,
  earliest: -2,
  maxTimestamp: -3,
  earliestLocal: -4,
  latestTiered: -5,
} as const;

const listOffsetsPartition = struct("ListOffsetsPartition", {
  partitionIndex: field(int32),
  currentLeaderEpoch: field(int32, { versions: "4+", default: -1 }),
  timestamp: field(int64),
  maxNumOffsets: field(int32, { versions: "0", default: 1 }),
});

const listOffsetsTopic = struct("ListOffsetsTopic", {
  name: field(string),
  partitions: field(arrayOf(listOffsetsPartition)),
});

/**
 * Grammar:
 *
 *   ListOffsetsRequest (api key 2), v0-10, flexible v6+
 *     replicaId: int32
 *     isolationLevel: int8 (v2+)
 *     topics: []ListOffsetsTopic
 *       name: string
 *       partitions: []ListOffsetsPartition
 *         partitionIndex: int32
 *         currentLeaderEpoch: int32 (v4+)
 *         timestamp: int64
 *         maxNumOffsets: int32 (v0)
 *     timeoutMs: int32 (v10+)
 */
export const ListOffsetsRequest = message({
  name: "ListOffsetsRequest",
  apiKey: 2,
  type: "request",
  validVersions: "0-10",
  flexibleVersions: "6+",
  fields: {
    replicaId: field(int32),
    isolationLevel: field(int8, { versions: "2+" }),
    topics: field(arrayOf(listOffsetsTopic)),
    timeoutMs: field(int32, { versions: "10+" }),
  },
});

/** A decoded ListOffsets request body. */
export type ListOffsetsRequest = MessageValue<typeof ListOffsetsRequest>;
/** One topic. */
export type ListOffsetsRequestTopic = StructValue<typeof listOffsetsTopic.fields>;
/** One partition and the timestamp to resolve. */
export type ListOffsetsRequestPartition = StructValue<typeof listOffsetsPartition.fields>;
