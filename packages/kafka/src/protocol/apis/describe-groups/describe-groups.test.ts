import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { hex } from "../../../../test/hex.js";
import { arr, bool, bytes, cat, i16, i32, str, tags } from "../../../../test/wire.js";
import { DescribeGroupsRequest } from "./describe-groups-request.js";
import { DescribeGroupsResponse } from "./describe-groups-response.js";

const response: DescribeGroupsResponse = {
  throttleTimeMs: 1,
  groups: [
    {
      errorCode: 0,
      groupId: "group-a",
      groupState: "Stable",
      protocolType: "consumer",
      protocolData: "range",
      members: [
        {
          memberId: "member-1",
          groupInstanceId: "instance-1",
          clientId: "client-1",
          clientHost: "/127.0.0.1",
          memberMetadata: hex("0001"),
          memberAssignment: hex("0002"),
        },
      ],
      authorizedOperations: 8,
    },
  ],
};

describeGolden("describe-groups", [
  {
    schema: DescribeGroupsRequest,
    versions: versionsFrom(0, 5),
    sample: { groups: ["group-a", "group-b"], includeAuthorizedOperations: true } satisfies DescribeGroupsRequest,
    wire: (v) => {
      const f = v >= 5;
      return cat(arr(f, [str(f, "group-a"), str(f, "group-b")]), v >= 3 && bool(true), tags(f));
    },
  },
  {
    schema: DescribeGroupsResponse,
    versions: versionsFrom(0, 5),
    sample: response,
    wire: (v) => {
      const f = v >= 5;
      const member = cat(
        str(f, "member-1"),
        v >= 4 && str(f, "instance-1"),
        str(f, "client-1"),
        str(f, "/127.0.0.1"),
        bytes(f, "0001"),
        bytes(f, "0002"),
        tags(f),
      );
      const group = cat(
        i16(0),
        str(f, "group-a"),
        str(f, "Stable"),
        str(f, "consumer"),
        str(f, "range"),
        arr(f, [member]),
        v >= 3 && i32(8),
        tags(f),
      );
      return cat(v >= 1 && i32(1), arr(f, [group]), tags(f));
    },
  },
]);
