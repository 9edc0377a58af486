import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, cat, i16, i32, i64, str, tags } from "../../../../test/wire.js";
import { DeleteRecordsRequest } from "./delete-records-request.js";
import { DeleteRecordsResponse } from "./delete-records-response.js";

describeGolden("delete-records", [
  {
    schema: DeleteRecordsRequest,
    versions: versionsFrom(0, 2),
    sample: {
      topics: [
        {
          name: "orders",
          partitions: [
            { partitionIndex: 2, offset: 1_000 },
            { partitionIndex: 0, offset: -1 },
          ],
        },
      ],
      timeoutMs: 30_000,
    } satisfies DeleteRecordsRequest,
    wire: (v) => {
      const f = v >= 2;
      const partitions = arr(f, [cat(i32(2), i64(1_000), tags(f)), cat(i32(0), i64(-1), tags(f))]);
      return cat(arr(f, [cat(str(f, "orders"), partitions, tags(f))]), i32(30_000), tags(f));
    },
  },
  {
    schema: DeleteRecordsResponse,
    versions: versionsFrom(0, 2),
    sample: {
      throttleTimeMs: 0,
      topics: [
        {
          name: "orders",
          partitions: [
            { partitionIndex: 2, lowWatermark: 1_000, errorCode: 0 },
            { partitionIndex: 7, lowWatermark: -1, errorCode: 3 },
          ],
        },
      ],
    } satisfies DeleteRecordsResponse,
    wire: (v) => {
      const f = v >= 2;
      const partitions = arr(f, [cat(i32(2), i64(1_000), i16(0), tags(f)), cat(i32(7), i64(-1), i16(3), tags(f))]);
      return cat(i32(0), arr(f, [cat(str(f, "orders"), partitions, tags(f))]), tags(f));
    },
  },
]);
