// DescribeLogDirs response body (api key 35): per log directory an error code, its path, the size of every
// partition in it and (v4+) the volume's total and usable bytes (-1 when unknown).
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bool, int16, int32, int64, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const describeLogDirsPartition = struct("DescribeLogDirsPartition", {
  partitionIndex: field(int32),
  partitionSize: field(int64),
  offsetLag: field(int64),
  isFutureKey: field(bool),
});

const describeLogDirsTopic = struct("DescribeLogDirsTopic", {
  name: field(string),
  partitions: field(arrayOf(describeLogDirsPartition)),
});

const describeLogDirsResult = struct("DescribeLogDirsResult", {
  errorCode: field(int16),
  logDir: field(string),
  topics: field(arrayOf(describeLogDirsTopic)),
  totalBytes: field(int64, { versions: "4+", default: -1 }),
  usableBytes: field(int64, { versions: "4+", default: -1 }),
});

/**
 * Grammar:
 *
 *   DescribeLogDirsResponse (api key 35), v1-4, flexible v2+
 *     throttleTimeMs: int32
 *     errorCode: int16 (v3+)
 *     results: []DescribeLogDirsResult
 *       errorCode: int16
 *       logDir: string
 *       topics: []DescribeLogDirsTopic
 *         name: string
 *         partitions: []DescribeLogDirsPartition
 *           partitionIndex: int32
 *           partitionSize: int64
 *           offsetLag: int64
 *           isFutureKey: bool
 *       totalBytes: int64 (v4+)
 *       usableBytes: int64 (v4+)
 */
export const DescribeLogDirsResponse = message({
  name: "DescribeLogDirsResponse",
  apiKey: 35,
  type: "response",
  validVersions: "1-4",
  flexibleVersions: "2+",
  fields: {
    throttleTimeMs: field(int32),
    errorCode: field(int16, { versions: "3+" }),
    results: field(arrayOf(describeLogDirsResult)),
  },
});

/** A DescribeLogDirs response body. */
export type DescribeLogDirsResponse = MessageValue<typeof DescribeLogDirsResponse>;
/** One log directory of the response. */
export type DescribeLogDirsResult = StructValue<typeof describeLogDirsResult.fields>;
/** One topic of a log directory. */
export type DescribeLogDirsResponseTopic = StructValue<typeof describeLogDirsTopic.fields>;
/** One partition of a topic. */
export type DescribeLogDirsResponsePartition = StructValue<typeof describeLogDirsPartition.fields>;
