import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, bool, cat, i16, i32, str, tags, uuid } from "../../../../test/wire.js";
import { MetadataRequest } from "./metadata-request.js";
import { MetadataResponse } from "./metadata-response.js";

const TOPIC_ID = "5c3e8d2a-71b4-4f0e-9a6d-0b1c2d3e4f50";

const request: MetadataRequest = {
  topics: [{ topicId: TOPIC_ID, name: "orders" }],
  allowAutoTopicCreation: false,
  includeClusterAuthorizedOperations: true,
  includeTopicAuthorizedOperations: true,
};

const response: MetadataResponse = {
  throttleTimeMs: 3,
  brokers: [{ nodeId: 1, host: "localhost", port: 9092, rack: "r1" }],
  clusterId: "cluster-1",
  controllerId: 1,
  topics: [
    {
      errorCode: 0,
      name: "orders",
      topicId: TOPIC_ID,
      isInternal: true,
      partitions: [
        {
          errorCode: 0,
          partitionIndex: 2,
          leaderId: 1,
          leaderEpoch: 4,
          replicaNodes: [1],
          isrNodes: [1],
          offlineReplicas: [3],
        },
      ],
      topicAuthorizedOperations: 8,
    },
  ],
  clusterAuthorizedOperations: 9,
};

describeGolden("metadata", [
  {
    schema: MetadataRequest,
    versions: versionsFrom(0, 12),
    sample: request,
    wire: (v) => {
      const f = v >= 9;
      return cat(
        arr(f, [cat(v >= 10 && uuid(TOPIC_ID), str(f, "orders"), tags(f))]),
        v >= 4 && bool(false),
        v >= 8 && v <= 10 && bool(true),
        v >= 8 && bool(true),
        tags(f),
      );
    },
  },
  {
    schema: MetadataResponse,
    versions: versionsFrom(0, 12),
    sample: response,
    wire: (v) => {
      const f = v >= 9;
      const partition = cat(
        i16(0),
        i32(2),
        i32(1),
        v >= 7 && i32(4),
        arr(f, [i32(1)]),
        arr(f, [i32(1)]),
        v >= 5 && arr(f, [i32(3)]),
        tags(f),
      );
      const topic = cat(
        i16(0),
        str(f, "orders"),
        v >= 10 && uuid(TOPIC_ID),
        v >= 1 && bool(true),
        arr(f, [partition]),
        v >= 8 && i32(8),
        tags(f),
      );
      return cat(
        v >= 3 && i32(3),
        arr(f, [cat(i32(1), str(f, "localhost"), i32(9092), v >= 1 && str(f, "r1"), tags(f))]),
        v >= 2 && str(f, "cluster-1"),
        v >= 1 && i32(1),
        arr(f, [topic]),
        v >= 8 && v <= 10 && i32(9),
        tags(f),
      );
    },
  },
]);
