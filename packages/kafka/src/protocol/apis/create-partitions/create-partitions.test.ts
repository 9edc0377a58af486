import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, bool, cat, i16, i32, str, tags } from "../../../../test/wire.js";
import { CreatePartitionsRequest } from "./create-partitions-request.js";
import { CreatePartitionsResponse } from "./create-partitions-response.js";

describeGolden("create-partitions", [
  {
    schema: CreatePartitionsRequest,
    versions: versionsFrom(0, 3),
    sample: {
      topics: [
        { name: "orders", count: 6, assignments: [{ brokerIds: [1] }, { brokerIds: [1, 2] }] },
        { name: "events", count: 3, assignments: null },
      ],
      timeoutMs: 30_000,
      validateOnly: true,
    } satisfies CreatePartitionsRequest,
    wire: (v) => {
      const f = v >= 2;
      const assignments = arr(f, [cat(arr(f, [i32(1)]), tags(f)), cat(arr(f, [i32(1), i32(2)]), tags(f))]);
      const topics = arr(f, [
        cat(str(f, "orders"), i32(6), assignments, tags(f)),
        cat(str(f, "events"), i32(3), arr(f, null), tags(f)),
      ]);
      return cat(topics, i32(30_000), bool(true), tags(f));
    },
  },
  {
    schema: CreatePartitionsResponse,
    versions: versionsFrom(0, 3),
    sample: {
      throttleTimeMs: 2,
      results: [
        { name: "orders", errorCode: 0, errorMessage: null },
        { name: "events", errorCode: 37, errorMessage: "Topic already has 3 partitions." },
      ],
    } satisfies CreatePartitionsResponse,
    wire: (v) => {
      const f = v >= 2;
      const results = [
        cat(str(f, "orders"), i16(0), str(f, null), tags(f)),
        cat(str(f, "events"), i16(37), str(f, "Topic already has 3 partitions."), tags(f)),
      ];
      return cat(i32(2), arr(f, results), tags(f));
    },
  },
]);
