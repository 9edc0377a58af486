import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { hex } from "../../../../test/hex.js";
import { arr, bytes, cat, i16, i32, str, tags } from "../../../../test/wire.js";
import { SyncGroupRequest } from "./sync-group-request.js";
import { SyncGroupResponse } from "./sync-group-response.js";

const request: SyncGroupRequest = {
  groupId: "group-a",
  generationId: 5,
  memberId: "member-1",
  groupInstanceId: "instance-1",
  protocolType: "consumer",
  protocolName: "range",
  assignments: [{ memberId: "member-1", assignment: hex("0001ff") }],
};

const response: SyncGroupResponse = {
  throttleTimeMs: 2,
  errorCode: 0,
  protocolType: "consumer",
  protocolName: "range",
  assignment: hex("0001ff"),
};

describeGolden("sync-group", [
  {
    schema: SyncGroupRequest,
    versions: versionsFrom(0, 5),
    sample: request,
    wire: (v) => {
      const f = v >= 4;
      return cat(
        str(f, "group-a"),
        i32(5),
        str(f, "member-1"),
        v >= 3 && str(f, "instance-1"),
        v >= 5 && str(f, "consumer"),
        v >= 5 && str(f, "range"),
        arr(f, [cat(str(f, "member-1"), bytes(f, "0001ff"), tags(f))]),
        tags(f),
      );
    },
  },
  {
    schema: SyncGroupResponse,
    versions: versionsFrom(0, 5),
    sample: response,
    wire: (v) => {
      const f = v >= 4;
      return cat(
        v >= 1 && i32(2),
        i16(0),
        v >= 5 && str(f, "consumer"),
        v >= 5 && str(f, "range"),
        bytes(f, "0001ff"),
        tags(f),
      );
    },
  },
]);
