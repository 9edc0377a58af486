import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, bool, cat, i16, i32, i64, str, tags } from "../../../../test/wire.js";
import { OffsetFetchRequest } from "./offset-fetch-request.js";
import { OffsetFetchResponse } from "./offset-fetch-response.js";

const request: OffsetFetchRequest = {
  groupId: "group-a",
  topics: [{ name: "orders", partitionIndexes: [0, 1] }],
  groups: [
    {
      groupId: "group-a",
      memberId: "member-1",
      memberEpoch: 7,
      topics: [{ name: "orders", partitionIndexes: [0, 1] }],
    },
  ],
  requireStable: true,
};

const response: OffsetFetchResponse = {
  throttleTimeMs: 1,
  topics: [
    {
      name: "orders",
      partitions: [{ partitionIndex: 0, committedOffset: 42, committedLeaderEpoch: 3, metadata: "meta", errorCode: 0 }],
    },
  ],
  errorCode: 14,
  groups: [
    {
      groupId: "group-a",
      topics: [
        {
          name: "orders",
          partitions: [
            { partitionIndex: 0, committedOffset: 42, committedLeaderEpoch: 3, metadata: null, errorCode: 0 },
          ],
        },
      ],
      errorCode: 14,
    },
  ],
};

describeGolden("offset-fetch", [
  {
    schema: OffsetFetchRequest,
    versions: versionsFrom(0, 9),
    sample: request,
    wire: (v) => {
      const f = v >= 6;
      const topic = cat(str(f, "orders"), arr(f, [i32(0), i32(1)]), tags(f));
      const group = cat(str(f, "group-a"), v >= 9 && str(f, "member-1"), v >= 9 && i32(7), arr(f, [topic]), tags(f));
      return cat(
        v <= 7 && str(f, "group-a"),
        v <= 7 && arr(f, [topic]),
        v >= 8 && arr(f, [group]),
        v >= 7 && bool(true),
        tags(f),
      );
    },
  },
  {
    schema: OffsetFetchResponse,
    versions: versionsFrom(0, 9),
    sample: response,
    wire: (v) => {
      const f = v >= 6;
      const oldPartition = cat(i32(0), i64(42), v >= 5 && i32(3), str(f, "meta"), i16(0), tags(f));
      const newPartition = cat(i32(0), i64(42), i32(3), str(f, null), i16(0), tags(f));
      const group = cat(
        str(f, "group-a"),
        arr(f, [cat(str(f, "orders"), arr(f, [newPartition]), tags(f))]),
        i16(14),
        tags(f),
      );
      return cat(
        v >= 3 && i32(1),
        v <= 7 && arr(f, [cat(str(f, "orders"), arr(f, [oldPartition]), tags(f))]),
        v >= 2 && v <= 7 && i16(14),
        v >= 8 && arr(f, [group]),
        tags(f),
      );
    },
  },
]);
