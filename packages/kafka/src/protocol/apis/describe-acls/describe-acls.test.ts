import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, cat, i16, i32, i8, str, tags } from "../../../../test/wire.js";
import { DescribeAclsRequest } from "./describe-acls-request.js";
import { DescribeAclsResponse } from "./describe-acls-response.js";

describeGolden("describe-acls", [
  {
    schema: DescribeAclsRequest,
    versions: versionsFrom(1, 3),
    sample: {
      resourceTypeFilter: 2,
      resourceNameFilter: "orders",
      patternTypeFilter: 2,
      principalFilter: null,
      hostFilter: "10.0.0.1",
      operation: 1,
      permissionType: 3,
    } satisfies DescribeAclsRequest,
    wire: (v) => {
      const f = v >= 2;
      return cat(i8(2), str(f, "orders"), i8(2), str(f, null), str(f, "10.0.0.1"), i8(1), i8(3), tags(f));
    },
  },
  {
    schema: DescribeAclsResponse,
    versions: versionsFrom(1, 3),
    sample: {
      throttleTimeMs: 3,
      errorCode: 0,
      errorMessage: null,
      resources: [
        {
          resourceType: 3,
          resourceName: "billing-",
          patternType: 4,
          acls: [{ principal: "User:*", host: "*", operation: 8, permissionType: 2 }],
        },
      ],
    } satisfies DescribeAclsResponse,
    wire: (v) => {
      const f = v >= 2;
      const acl = cat(str(f, "User:*"), str(f, "*"), i8(8), i8(2), tags(f));
      return cat(
        i32(3),
        i16(0),
        str(f, null),
        arr(f, [cat(i8(3), str(f, "billing-"), i8(4), arr(f, [acl]), tags(f))]),
        tags(f),
      );
    },
  },
]);
