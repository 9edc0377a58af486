import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, bool, cat, i16, i32, i8, str, tags } from "../../../../test/wire.js";
import { AlterConfigsRequest } from "./alter-configs-request.js";
import { AlterConfigsResponse } from "./alter-configs-response.js";

describeGolden("alter-configs", [
  {
    schema: AlterConfigsRequest,
    versions: versionsFrom(0, 2),
    sample: {
      resources: [
        {
          resourceType: 2,
          resourceName: "orders",
          configs: [
            { name: "retention.ms", value: "60000" },
            { name: "cleanup.policy", value: null },
          ],
        },
      ],
      validateOnly: true,
    } satisfies AlterConfigsRequest,
    wire: (v) => {
      const f = v >= 2;
      const configs = arr(f, [
        cat(str(f, "retention.ms"), str(f, "60000"), tags(f)),
        cat(str(f, "cleanup.policy"), str(f, null), tags(f)),
      ]);
      return cat(arr(f, [cat(i8(2), str(f, "orders"), configs, tags(f))]), bool(true), tags(f));
    },
  },
  {
    schema: AlterConfigsResponse,
    versions: versionsFrom(0, 2),
    sample: {
      throttleTimeMs: 3,
      responses: [
        { errorCode: 0, errorMessage: null, resourceType: 2, resourceName: "orders" },
        { errorCode: 40, errorMessage: "Invalid value", resourceType: 2, resourceName: "bad" },
      ],
    } satisfies AlterConfigsResponse,
    wire: (v) => {
      const f = v >= 2;
      const results = [
        cat(i16(0), str(f, null), i8(2), str(f, "orders"), tags(f)),
        cat(i16(40), str(f, "Invalid value"), i8(2), str(f, "bad"), tags(f)),
      ];
      return cat(i32(3), arr(f, results), tags(f));
    },
  },
]);
