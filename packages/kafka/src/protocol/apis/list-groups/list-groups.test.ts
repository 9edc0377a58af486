import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, cat, i16, i32, str, tags } from "../../../../test/wire.js";
import { ListGroupsRequest } from "./list-groups-request.js";
import { ListGroupsResponse } from "./list-groups-response.js";

describeGolden("list-groups", [
  {
    schema: ListGroupsRequest,
    versions: versionsFrom(0, 5),
    sample: { statesFilter: ["Stable"], typesFilter: ["classic"] } satisfies ListGroupsRequest,
    wire: (v) => {
      const f = v >= 3;
      return cat(v >= 4 && arr(f, [str(f, "Stable")]), v >= 5 && arr(f, [str(f, "classic")]), tags(f));
    },
  },
  {
    schema: ListGroupsResponse,
    versions: versionsFrom(0, 5),
    sample: {
      throttleTimeMs: 1,
      errorCode: 0,
      groups: [{ groupId: "group-a", protocolType: "consumer", groupState: "Stable", groupType: "classic" }],
    } satisfies ListGroupsResponse,
    wire: (v) => {
      const f = v >= 3;
      const group = cat(
        str(f, "group-a"),
        str(f, "consumer"),
        v >= 4 && str(f, "Stable"),
        v >= 5 && str(f, "classic"),
        tags(f),
      );
      return cat(v >= 1 && i32(1), i16(0), arr(f, [group]), tags(f));
    },
  },
]);
