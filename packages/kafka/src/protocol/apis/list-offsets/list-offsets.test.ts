import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, cat, i16, i32, i64, i8, str, tags } from "../../../../test/wire.js";
import { ListOffsetsRequest } from "./list-offsets-request.js";
import { ListOffsetsResponse } from "./list-offsets-response.js";

const request: ListOffsetsRequest = {
  replicaId: -1,
  isolationLevel: 1,
  topics: [
    {
      name: "orders",
      partitions: [{ partitionIndex: 0, currentLeaderEpoch: 3, timestamp: 1_700_000_000_000, maxNumOffsets: 1 }],
    },
  ],
  timeoutMs: 1000,
};

const response: ListOffsetsResponse = {
  throttleTimeMs: 2,
  topics: [
    {
      name: "orders",
      partitions: [
        {
          partitionIndex: 0,
          errorCode: 0,
          oldStyleOffsets: [],
          timestamp: 1_700_000_000_000,
          offset: 42,
          leaderEpoch: 3,
        },
      ],
    },
  ],
};

describeGolden("list-offsets", [
  {
    schema: ListOffsetsRequest,
    versions: versionsFrom(1, 10),
    sample: request,
    wire: (v) => {
      const f = v >= 6;
      const partition = cat(i32(0), v >= 4 && i32(3), i64(1_700_000_000_000), tags(f));
      return cat(
        i32(-1),
        v >= 2 && i8(1),
        arr(f, [cat(str(f, "orders"), arr(f, [partition]), tags(f))]),
        v >= 10 && i32(1000),
        tags(f),
      );
    },
  },
  {
    schema: ListOffsetsResponse,
    versions: versionsFrom(1, 10),
    sample: response,
    wire: (v) => {
      const f = v >= 6;
      const partition = cat(i32(0), i16(0), i64(1_700_000_000_000), i64(42), v >= 4 && i32(3), tags(f));
      return cat(v >= 2 && i32(2), arr(f, [cat(str(f, "orders"), arr(f, [partition]), tags(f))]), tags(f));
    },
  },
]);
