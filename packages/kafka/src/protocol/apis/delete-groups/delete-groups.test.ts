import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, cat, i16, i32, str, tags } from "../../../../test/wire.js";
import { DeleteGroupsRequest } from "./delete-groups-request.js";
import { DeleteGroupsResponse } from "./delete-groups-response.js";

describeGolden("delete-groups", [
  {
    schema: DeleteGroupsRequest,
    versions: versionsFrom(0, 2),
    sample: { groupsNames: ["billing", "audit"] } satisfies DeleteGroupsRequest,
    wire: (v) => {
      const f = v >= 2;
      return cat(arr(f, [str(f, "billing"), str(f, "audit")]), tags(f));
    },
  },
  {
    schema: DeleteGroupsResponse,
    versions: versionsFrom(0, 2),
    sample: {
      throttleTimeMs: 4,
      results: [
        { groupId: "billing", errorCode: 0 },
        { groupId: "audit", errorCode: 68 },
      ],
    } satisfies DeleteGroupsResponse,
    wire: (v) => {
      const f = v >= 2;
      return cat(
        i32(4),
        arr(f, [cat(str(f, "billing"), i16(0), tags(f)), cat(str(f, "audit"), i16(68), tags(f))]),
        tags(f),
      );
    },
  },
]);
