import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, cat, i16, i32, i64, str, tags } from "../../../../test/wire.js";
import { OffsetCommitRequest } from "./offset-commit-request.js";
import { OffsetCommitResponse } from "./offset-commit-response.js";

const request: OffsetCommitRequest = {
  groupId: "group-a",
  generationIdOrMemberEpoch: 5,
  memberId: "member-1",
  groupInstanceId: "instance-1",
  retentionTimeMs: 86_400_000,
  topics: [
    {
      name: "orders",
      partitions: [
        {
          partitionIndex: 0,
          committedOffset: 42,
          committedLeaderEpoch: 3,
          commitTimestamp: 1_700_000_000_000,
          committedMetadata: "meta",
        },
      ],
    },
  ],
};

const response: OffsetCommitResponse = {
  throttleTimeMs: 1,
  topics: [{ name: "orders", partitions: [{ partitionIndex: 0, errorCode: 22 }] }],
};

describeGolden("offset-commit", [
  {
    schema: OffsetCommitRequest,
    versions: versionsFrom(0, 9),
    sample: request,
    wire: (v) => {
      const f = v >= 8;
      const partition = cat(
        i32(0),
        i64(42),
        v >= 6 && i32(3),
        v === 1 && i64(1_700_000_000_000),
        str(f, "meta"),
        tags(f),
      );
      return cat(
        str(f, "group-a"),
        v >= 1 && i32(5),
        v >= 1 && str(f, "member-1"),
        v >= 7 && str(f, "instance-1"),
        v >= 2 && v <= 4 && i64(86_400_000),
        arr(f, [cat(str(f, "orders"), arr(f, [partition]), tags(f))]),
        tags(f),
      );
    },
  },
  {
    schema: OffsetCommitResponse,
    versions: versionsFrom(0, 9),
    sample: response,
    wire: (v) => {
      const f = v >= 8;
      return cat(
        v >= 3 && i32(1),
        arr(f, [cat(str(f, "orders"), arr(f, [cat(i32(0), i16(22), tags(f))]), tags(f))]),
        tags(f),
      );
    },
  },
]);
