import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, bool, cat, i16, i32, i8, str, tags, uuid } from "../../../../test/wire.js";
import { CreateTopicsRequest } from "./create-topics-request.js";
import { CreateTopicsResponse } from "./create-topics-response.js";

const TOPIC_ID = "5c3e8d2a-71b4-4f0e-9a6d-0b1c2d3e4f50";

const request: CreateTopicsRequest = {
  topics: [
    {
      name: "orders",
      numPartitions: 3,
      replicationFactor: 1,
      assignments: [{ partitionIndex: 0, brokerIds: [1] }],
      configs: [
        { name: "cleanup.policy", value: "compact" },
        { name: "retention.ms", value: null },
      ],
    },
  ],
  timeoutMs: 30_000,
  validateOnly: true,
};

const response: CreateTopicsResponse = {
  throttleTimeMs: 1,
  topics: [
    {
      name: "orders",
      topicId: TOPIC_ID,
      errorCode: 36,
      errorMessage: "exists",
      topicConfigErrorCode: 40,
      numPartitions: 3,
      replicationFactor: 1,
      configs: [{ name: "cleanup.policy", value: "compact", readOnly: false, configSource: 1, isSensitive: true }],
    },
  ],
};

describeGolden("create-topics", [
  {
    schema: CreateTopicsRequest,
    versions: versionsFrom(2, 7),
    sample: request,
    wire: (v) => {
      const f = v >= 5;
      const topic = cat(
        str(f, "orders"),
        i32(3),
        i16(1),
        arr(f, [cat(i32(0), arr(f, [i32(1)]), tags(f))]),
        arr(f, [
          cat(str(f, "cleanup.policy"), str(f, "compact"), tags(f)),
          cat(str(f, "retention.ms"), str(f, null), tags(f)),
        ]),
        tags(f),
      );
      return cat(arr(f, [topic]), i32(30_000), v >= 1 && bool(true), tags(f));
    },
  },
  {
    schema: CreateTopicsResponse,
    versions: versionsFrom(2, 7),
    sample: response,
    wire: (v) => {
      const f = v >= 5;
      const config = cat(str(f, "cleanup.policy"), str(f, "compact"), bool(false), i8(1), bool(true), tags(f));
      const topic = cat(
        str(f, "orders"),
        v >= 7 && uuid(TOPIC_ID),
        i16(36),
        v >= 1 && str(f, "exists"),
        v >= 5 && i32(3),
        v >= 5 && i16(1),
        v >= 5 && arr(f, [config]),
        tags(f, v >= 5 ? [[0, i16(40)]] : []),
      );
      return cat(v >= 2 && i32(1), arr(f, [topic]), tags(f));
    },
  },
]);
