import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { hex } from "../../../../test/hex.js";
import { arr, bytes, cat, i16, i32, i64, str, tags } from "../../../../test/wire.js";
import { ProduceRequest } from "./produce-request.js";
import { ProduceResponse } from "./produce-response.js";

// The records blob is opaque to the message codec (records/ parses it); any bytes do here.
const RECORDS = "0102030405";

const request: ProduceRequest = {
  transactionalId: "txn-1",
  acks: -1,
  timeoutMs: 30_000,
  topicData: [{ name: "orders", partitionData: [{ index: 0, records: hex(RECORDS) }] }],
};

const response: ProduceResponse = {
  responses: [
    {
      name: "orders",
      partitionResponses: [
        {
          index: 0,
          errorCode: 0,
          baseOffset: 42,
          logAppendTimeMs: 1_700_000_000_000,
          logStartOffset: 7,
          recordErrors: [{ batchIndex: 1, batchIndexErrorMessage: "bad" }],
          errorMessage: "oops",
          currentLeader: { leaderId: 1, leaderEpoch: 2 },
        },
      ],
    },
  ],
  throttleTimeMs: 10,
  nodeEndpoints: [{ nodeId: 1, host: "localhost", port: 9092, rack: null }],
};

describeGolden("produce", [
  {
    schema: ProduceRequest,
    versions: versionsFrom(0, 11),
    sample: request,
    wire: (v) => {
      const f = v >= 9;
      const partition = cat(i32(0), bytes(f, RECORDS), tags(f));
      return cat(
        v >= 3 && str(f, "txn-1"),
        i16(-1),
        i32(30_000),
        arr(f, [cat(str(f, "orders"), arr(f, [partition]), tags(f))]),
        tags(f),
      );
    },
  },
  {
    schema: ProduceResponse,
    versions: versionsFrom(0, 11),
    sample: response,
    wire: (v) => {
      const f = v >= 9;
      const partition = cat(
        i32(0),
        i16(0),
        i64(42),
        v >= 2 && i64(1_700_000_000_000),
        v >= 5 && i64(7),
        v >= 8 && arr(f, [cat(i32(1), str(f, "bad"), tags(f))]),
        v >= 8 && str(f, "oops"),
        tags(f, v >= 10 ? [[0, cat(i32(1), i32(2), tags(true))]] : []),
      );
      const endpoints = arr(true, [cat(i32(1), str(true, "localhost"), i32(9092), str(true, null), tags(true))]);
      return cat(
        arr(f, [cat(str(f, "orders"), arr(f, [partition]), tags(f))]),
        v >= 1 && i32(10),
        tags(f, v >= 10 ? [[0, endpoints]] : []),
      );
    },
  },
]);
