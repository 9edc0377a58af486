import { describeGolden } from "../../../../test/golden.js";
import { arr, cat, i16, i32, str } from "../../../../test/wire.js";
import { OffsetDeleteRequest } from "./offset-delete-request.js";
import { OffsetDeleteResponse } from "./offset-delete-response.js";

describeGolden("offset-delete", [
  {
    schema: OffsetDeleteRequest,
    versions: [0],
    sample: {
      groupId: "billing",
      topics: [{ name: "orders", partitions: [{ partitionIndex: 0 }, { partitionIndex: 3 }] }],
    } satisfies OffsetDeleteRequest,
    wire: () => cat(str(false, "billing"), arr(false, [cat(str(false, "orders"), arr(false, [i32(0), i32(3)]))])),
  },
  {
    schema: OffsetDeleteResponse,
    versions: [0],
    sample: {
      errorCode: 0,
      throttleTimeMs: 2,
      topics: [
        {
          name: "orders",
          partitions: [
            { partitionIndex: 0, errorCode: 0 },
            { partitionIndex: 3, errorCode: 86 },
          ],
        },
      ],
    } satisfies OffsetDeleteResponse,
    wire: () =>
      cat(
        i16(0),
        i32(2),
        arr(false, [cat(str(false, "orders"), arr(false, [cat(i32(0), i16(0)), cat(i32(3), i16(86))]))]),
      ),
  },
]);
