import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { cat, i16, i32, str, tags } from "../../../../test/wire.js";
import { HeartbeatRequest } from "./heartbeat-request.js";
import { HeartbeatResponse } from "./heartbeat-response.js";

describeGolden("heartbeat", [
  {
    schema: HeartbeatRequest,
    versions: versionsFrom(0, 4),
    sample: {
      groupId: "group-a",
      generationId: 5,
      memberId: "member-1",
      groupInstanceId: "instance-1",
    } satisfies HeartbeatRequest,
    wire: (v) => {
      const f = v >= 4;
      return cat(str(f, "group-a"), i32(5), str(f, "member-1"), v >= 3 && str(f, "instance-1"), tags(f));
    },
  },
  {
    schema: HeartbeatResponse,
    versions: versionsFrom(0, 4),
    sample: { throttleTimeMs: 1, errorCode: 27 } satisfies HeartbeatResponse,
    wire: (v) => cat(v >= 1 && i32(1), i16(27), tags(v >= 4)),
  },
]);
