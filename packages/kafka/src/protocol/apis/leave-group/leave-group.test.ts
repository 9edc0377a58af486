import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, cat, i16, i32, str, tags } from "../../../../test/wire.js";
import { LeaveGroupRequest } from "./leave-group-request.js";
import { LeaveGroupResponse } from "./leave-group-response.js";

const request: LeaveGroupRequest = {
  groupId: "group-a",
  memberId: "member-1",
  members: [{ memberId: "member-1", groupInstanceId: "instance-1", reason: "closing" }],
};

const response: LeaveGroupResponse = {
  throttleTimeMs: 1,
  errorCode: 0,
  members: [{ memberId: "member-1", groupInstanceId: null, errorCode: 25 }],
};

describeGolden("leave-group", [
  {
    schema: LeaveGroupRequest,
    versions: versionsFrom(0, 5),
    sample: request,
    wire: (v) => {
      const f = v >= 4;
      const member = cat(str(f, "member-1"), str(f, "instance-1"), v >= 5 && str(f, "closing"), tags(f));
      return cat(str(f, "group-a"), v <= 2 && str(f, "member-1"), v >= 3 && arr(f, [member]), tags(f));
    },
  },
  {
    schema: LeaveGroupResponse,
    versions: versionsFrom(0, 5),
    sample: response,
    wire: (v) => {
      const f = v >= 4;
      return cat(
        v >= 1 && i32(1),
        i16(0),
        v >= 3 && arr(f, [cat(str(f, "member-1"), str(f, null), i16(25), tags(f))]),
        tags(f),
      );
    },
  },
]);
