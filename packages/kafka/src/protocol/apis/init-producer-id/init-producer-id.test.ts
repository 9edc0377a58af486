import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { cat, i16, i32, i64, str, tags } from "../../../../test/wire.js";
import { InitProducerIdRequest } from "./init-producer-id-request.js";
import { InitProducerIdResponse } from "./init-producer-id-response.js";

// A producer id beyond 2^53: it must survive as a bigint.
const PRODUCER_ID = 2n ** 62n + 1n;

describeGolden("init-producer-id", [
  {
    schema: InitProducerIdRequest,
    versions: versionsFrom(0, 5),
    sample: {
      transactionalId: "txn-1",
      transactionTimeoutMs: 60_000,
      producerId: PRODUCER_ID,
      producerEpoch: 3,
    } satisfies InitProducerIdRequest,
    wire: (v) => {
      const f = v >= 2;
      return cat(str(f, "txn-1"), i32(60_000), v >= 3 && i64(PRODUCER_ID), v >= 3 && i16(3), tags(f));
    },
  },
  {
    schema: InitProducerIdResponse,
    versions: versionsFrom(0, 5),
    sample: {
      throttleTimeMs: 1,
      errorCode: 0,
      producerId: PRODUCER_ID,
      producerEpoch: 4,
    } satisfies InitProducerIdResponse,
    wire: (v) => cat(i32(1), i16(0), i64(PRODUCER_ID), i16(4), tags(v >= 2)),
  },
]);
