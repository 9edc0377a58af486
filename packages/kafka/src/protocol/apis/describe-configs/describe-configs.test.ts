import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, bool, cat, i16, i32, i8, str, tags } from "../../../../test/wire.js";
import { DescribeConfigsRequest } from "./describe-configs-request.js";
import { DescribeConfigsResponse } from "./describe-configs-response.js";

const request: DescribeConfigsRequest = {
  resources: [
    { resourceType: 2, resourceName: "orders", configurationKeys: ["cleanup.policy"] },
    { resourceType: 4, resourceName: "1", configurationKeys: null },
  ],
  includeSynonyms: true,
  includeDocumentation: true,
};

const response: DescribeConfigsResponse = {
  throttleTimeMs: 1,
  results: [
    {
      errorCode: 0,
      errorMessage: null,
      resourceType: 2,
      resourceName: "orders",
      configs: [
        {
          name: "cleanup.policy",
          value: "compact",
          readOnly: false,
          isDefault: true,
          configSource: 1,
          isSensitive: false,
          synonyms: [{ name: "log.cleanup.policy", value: "delete", source: 5 }],
          configType: 7,
          documentation: "how old segments are discarded",
        },
      ],
    },
  ],
};

describeGolden("describe-configs", [
  {
    schema: DescribeConfigsRequest,
    versions: versionsFrom(1, 4),
    sample: request,
    wire: (v) => {
      const f = v >= 4;
      const resources = [
        cat(i8(2), str(f, "orders"), arr(f, [str(f, "cleanup.policy")]), tags(f)),
        cat(i8(4), str(f, "1"), arr(f, null), tags(f)),
      ];
      return cat(arr(f, resources), v >= 1 && bool(true), v >= 3 && bool(true), tags(f));
    },
  },
  {
    schema: DescribeConfigsResponse,
    versions: versionsFrom(1, 4),
    sample: response,
    wire: (v) => {
      const f = v >= 4;
      const config = cat(
        str(f, "cleanup.policy"),
        str(f, "compact"),
        bool(false),
        v === 0 && bool(true),
        v >= 1 && i8(1),
        bool(false),
        v >= 1 && arr(f, [cat(str(f, "log.cleanup.policy"), str(f, "delete"), i8(5), tags(f))]),
        v >= 3 && i8(7),
        v >= 3 && str(f, "how old segments are discarded"),
        tags(f),
      );
      return cat(
        i32(1),
        arr(f, [cat(i16(0), str(f, null), i8(2), str(f, "orders"), arr(f, [config]), tags(f))]),
        tags(f),
      );
    },
  },
]);
