import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, cat, i16, i32, str, tags, uuid } from "../../../../test/wire.js";
import { DeleteTopicsRequest } from "./delete-topics-request.js";
import { DeleteTopicsResponse } from "./delete-topics-response.js";

const TOPIC_ID = "5c3e8d2a-71b4-4f0e-9a6d-0b1c2d3e4f50";

describeGolden("delete-topics", [
  {
    schema: DeleteTopicsRequest,
    versions: versionsFrom(1, 6),
    sample: {
      topics: [{ name: "orders", topicId: TOPIC_ID }],
      topicNames: ["orders", "events"],
      timeoutMs: 30_000,
    } satisfies DeleteTopicsRequest,
    wire: (v) => {
      const f = v >= 4;
      return cat(
        v >= 6 && arr(f, [cat(str(f, "orders"), uuid(TOPIC_ID), tags(f))]),
        v <= 5 && arr(f, [str(f, "orders"), str(f, "events")]),
        i32(30_000),
        tags(f),
      );
    },
  },
  {
    schema: DeleteTopicsResponse,
    versions: versionsFrom(1, 6),
    sample: {
      throttleTimeMs: 1,
      responses: [{ name: "orders", topicId: TOPIC_ID, errorCode: 3, errorMessage: "unknown" }],
    } satisfies DeleteTopicsResponse,
    wire: (v) => {
      const f = v >= 4;
      const result = cat(str(f, "orders"), v >= 6 && uuid(TOPIC_ID), i16(3), v >= 5 && str(f, "unknown"), tags(f));
      return cat(v >= 1 && i32(1), arr(f, [result]), tags(f));
    },
  },
]);
