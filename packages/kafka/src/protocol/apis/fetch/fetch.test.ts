import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { hex } from "../../../../test/hex.js";
import { arr, bytes, cat, i16, i32, i64, i8, str, tags, uuid } from "../../../../test/wire.js";
import { FetchRequest } from "./fetch-request.js";
import { FetchResponse } from "./fetch-response.js";

const TOPIC_ID = "5c3e8d2a-71b4-4f0e-9a6d-0b1c2d3e4f50";
const OLD_TOPIC_ID = "00112233-4455-6677-8899-aabbccddeeff";
const DIRECTORY_ID = "ffeeddcc-bbaa-9988-7766-554433221100";

const request: FetchRequest = {
  clusterId: "cluster-1",
  replicaId: 5,
  replicaState: { replicaId: 5, replicaEpoch: 9 },
  maxWaitMs: 500,
  minBytes: 1,
  maxBytes: 1_048_576,
  isolationLevel: 1,
  sessionId: 3,
  sessionEpoch: 4,
  topics: [
    {
      topic: "orders",
      topicId: TOPIC_ID,
      partitions: [
        {
          partition: 0,
          currentLeaderEpoch: 2,
          fetchOffset: 100,
          lastFetchedEpoch: 1,
          logStartOffset: 0,
          partitionMaxBytes: 65_536,
          replicaDirectoryId: DIRECTORY_ID,
        },
      ],
    },
  ],
  forgottenTopicsData: [{ topic: "old", topicId: OLD_TOPIC_ID, partitions: [1, 2] }],
  rackId: "rack-a",
};

const response: FetchResponse = {
  throttleTimeMs: 1,
  errorCode: 0,
  sessionId: 3,
  responses: [
    {
      topic: "orders",
      topicId: TOPIC_ID,
      partitions: [
        {
          partitionIndex: 0,
          errorCode: 0,
          highWatermark: 200,
          lastStableOffset: 150,
          logStartOffset: 10,
          divergingEpoch: { epoch: 1, endOffset: 90 },
          currentLeader: { leaderId: 1, leaderEpoch: 2 },
          snapshotId: { endOffset: 80, epoch: 3 },
          abortedTransactions: [{ producerId: 2n ** 60n, firstOffset: 120 }],
          preferredReadReplica: 1,
          records: hex("0a0b"),
        },
      ],
    },
  ],
  nodeEndpoints: [{ nodeId: 1, host: "localhost", port: 9092, rack: "r" }],
};

describeGolden("fetch", [
  {
    schema: FetchRequest,
    versions: versionsFrom(4, 17),
    sample: request,
    wire: (v) => {
      const f = v >= 12;
      const partition = cat(
        i32(0),
        v >= 9 && i32(2),
        i64(100),
        v >= 12 && i32(1),
        v >= 5 && i64(0),
        i32(65_536),
        tags(f, v >= 17 ? [[0, uuid(DIRECTORY_ID)]] : []),
      );
      const topic = cat(v <= 12 && str(f, "orders"), v >= 13 && uuid(TOPIC_ID), arr(f, [partition]), tags(f));
      const forgotten = cat(v <= 12 && str(f, "old"), v >= 13 && uuid(OLD_TOPIC_ID), arr(f, [i32(1), i32(2)]), tags(f));
      const tagged: Array<[number, string]> = [];
      if (v >= 12) tagged.push([0, str(true, "cluster-1")]);
      if (v >= 15) tagged.push([1, cat(i32(5), i64(9), tags(true))]);
      return cat(
        v <= 14 && i32(5),
        i32(500),
        i32(1),
        v >= 3 && i32(1_048_576),
        v >= 4 && i8(1),
        v >= 7 && i32(3),
        v >= 7 && i32(4),
        arr(f, [topic]),
        v >= 7 && arr(f, [forgotten]),
        v >= 11 && str(f, "rack-a"),
        tags(f, tagged),
      );
    },
  },
  {
    schema: FetchResponse,
    versions: versionsFrom(4, 17),
    sample: response,
    wire: (v) => {
      const f = v >= 12;
      const partitionTags: Array<[number, string]> =
        v >= 12
          ? [
              [0, cat(i32(1), i64(90), tags(true))],
              [1, cat(i32(1), i32(2), tags(true))],
              [2, cat(i64(80), i32(3), tags(true))],
            ]
          : [];
      const partition = cat(
        i32(0),
        i16(0),
        i64(200),
        v >= 4 && i64(150),
        v >= 5 && i64(10),
        v >= 4 && arr(f, [cat(i64(2n ** 60n), i64(120), tags(f))]),
        v >= 11 && i32(1),
        bytes(f, "0a0b"),
        tags(f, partitionTags),
      );
      const topic = cat(v <= 12 && str(f, "orders"), v >= 13 && uuid(TOPIC_ID), arr(f, [partition]), tags(f));
      const endpoints = arr(true, [cat(i32(1), str(true, "localhost"), i32(9092), str(true, "r"), tags(true))]);
      return cat(
        v >= 1 && i32(1),
        v >= 7 && i16(0),
        v >= 7 && i32(3),
        arr(f, [topic]),
        tags(f, v >= 16 ? [[0, endpoints]] : []),
      );
    },
  },
]);
