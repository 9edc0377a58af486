import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, bool, cat, i16, i32, i8, str, tags } from "../../../../test/wire.js";
import { IncrementalAlterConfigsRequest } from "./incremental-alter-configs-request.js";
import { IncrementalAlterConfigsResponse } from "./incremental-alter-configs-response.js";

describeGolden("incremental-alter-configs", [
  {
    schema: IncrementalAlterConfigsRequest,
    versions: versionsFrom(0, 1),
    sample: {
      resources: [
        {
          resourceType: 2,
          resourceName: "orders",
          configs: [
            { name: "retention.ms", configOperation: 0, value: "60000" },
            { name: "max.message.bytes", configOperation: 1, value: null },
            { name: "cleanup.policy", configOperation: 2, value: "compact" },
          ],
        },
      ],
      validateOnly: true,
    } satisfies IncrementalAlterConfigsRequest,
    wire: (v) => {
      const f = v >= 1;
      const configs = arr(f, [
        cat(str(f, "retention.ms"), i8(0), str(f, "60000"), tags(f)),
        cat(str(f, "max.message.bytes"), i8(1), str(f, null), tags(f)),
        cat(str(f, "cleanup.policy"), i8(2), str(f, "compact"), tags(f)),
      ]);
      return cat(arr(f, [cat(i8(2), str(f, "orders"), configs, tags(f))]), bool(true), tags(f));
    },
  },
  {
    schema: IncrementalAlterConfigsResponse,
    versions: versionsFrom(0, 1),
    sample: {
      throttleTimeMs: 5,
      responses: [
        { errorCode: 0, errorMessage: null, resourceType: 2, resourceName: "orders" },
        { errorCode: 3, errorMessage: "unknown topic", resourceType: 2, resourceName: "gone" },
      ],
    } satisfies IncrementalAlterConfigsResponse,
    wire: (v) => {
      const f = v >= 1;
      const results = [
        cat(i16(0), str(f, null), i8(2), str(f, "orders"), tags(f)),
        cat(i16(3), str(f, "unknown topic"), i8(2), str(f, "gone"), tags(f)),
      ];
      return cat(i32(5), arr(f, results), tags(f));
    },
  },
]);
