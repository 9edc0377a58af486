import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, cat, i16, i32, i8, str, tags } from "../../../../test/wire.js";
import { FindCoordinatorRequest } from "./find-coordinator-request.js";
import { FindCoordinatorResponse } from "./find-coordinator-response.js";

const request: FindCoordinatorRequest = { key: "group-a", keyType: 1, coordinatorKeys: ["group-a", "group-b"] };

const response: FindCoordinatorResponse = {
  throttleTimeMs: 4,
  errorCode: 15,
  errorMessage: "loading",
  nodeId: 1,
  host: "localhost",
  port: 9092,
  coordinators: [{ key: "group-a", nodeId: 1, host: "localhost", port: 9092, errorCode: 0, errorMessage: null }],
};

describeGolden("find-coordinator", [
  {
    schema: FindCoordinatorRequest,
    versions: versionsFrom(0, 6),
    sample: request,
    wire: (v) => {
      const f = v >= 3;
      return cat(
        v <= 3 && str(f, "group-a"),
        v >= 1 && i8(1),
        v >= 4 && arr(f, [str(f, "group-a"), str(f, "group-b")]),
        tags(f),
      );
    },
  },
  {
    schema: FindCoordinatorResponse,
    versions: versionsFrom(0, 6),
    sample: response,
    wire: (v) => {
      const f = v >= 3;
      const coordinator = cat(str(f, "group-a"), i32(1), str(f, "localhost"), i32(9092), i16(0), str(f, null), tags(f));
      return cat(
        v >= 1 && i32(4),
        v <= 3 && i16(15),
        v >= 1 && v <= 3 && str(f, "loading"),
        v <= 3 && i32(1),
        v <= 3 && str(f, "localhost"),
        v <= 3 && i32(9092),
        v >= 4 && arr(f, [coordinator]),
        tags(f),
      );
    },
  },
]);
