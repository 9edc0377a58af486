import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { hex } from "../../../../test/hex.js";
import { arr, bool, bytes, cat, i16, i32, str, tags } from "../../../../test/wire.js";
import { JoinGroupRequest } from "./join-group-request.js";
import { JoinGroupResponse } from "./join-group-response.js";

const request: JoinGroupRequest = {
  groupId: "group-a",
  sessionTimeoutMs: 30_000,
  rebalanceTimeoutMs: 60_000,
  memberId: "member-1",
  groupInstanceId: "instance-1",
  protocolType: "consumer",
  protocols: [{ name: "range", metadata: hex("000100") }],
  reason: "starting",
};

const response: JoinGroupResponse = {
  throttleTimeMs: 3,
  errorCode: 0,
  generationId: 5,
  protocolType: "consumer",
  protocolName: "range",
  leader: "member-1",
  skipAssignment: true,
  memberId: "member-1",
  members: [{ memberId: "member-1", groupInstanceId: "instance-1", metadata: hex("000100") }],
};

describeGolden("join-group", [
  {
    schema: JoinGroupRequest,
    versions: versionsFrom(0, 9),
    sample: request,
    wire: (v) => {
      const f = v >= 6;
      return cat(
        str(f, "group-a"),
        i32(30_000),
        v >= 1 && i32(60_000),
        str(f, "member-1"),
        v >= 5 && str(f, "instance-1"),
        str(f, "consumer"),
        arr(f, [cat(str(f, "range"), bytes(f, "000100"), tags(f))]),
        v >= 8 && str(f, "starting"),
        tags(f),
      );
    },
  },
  {
    schema: JoinGroupResponse,
    versions: versionsFrom(0, 9),
    sample: response,
    wire: (v) => {
      const f = v >= 6;
      return cat(
        v >= 2 && i32(3),
        i16(0),
        i32(5),
        v >= 7 && str(f, "consumer"),
        str(f, "range"),
        str(f, "member-1"),
        v >= 9 && bool(true),
        str(f, "member-1"),
        arr(f, [cat(str(f, "member-1"), v >= 5 && str(f, "instance-1"), bytes(f, "000100"), tags(f))]),
        tags(f),
      );
    },
  },
]);
