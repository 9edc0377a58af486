import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, cat, i16, i32, i8, str, tags } from "../../../../test/wire.js";
import { CreateAclsRequest } from "./create-acls-request.js";
import { CreateAclsResponse } from "./create-acls-response.js";

describeGolden("create-acls", [
  {
    schema: CreateAclsRequest,
    versions: versionsFrom(1, 3),
    sample: {
      creations: [
        {
          resourceType: 2,
          resourceName: "orders",
          resourcePatternType: 4,
          principal: "User:alice",
          host: "*",
          operation: 3,
          permissionType: 3,
        },
      ],
    } satisfies CreateAclsRequest,
    wire: (v) => {
      const f = v >= 2;
      return cat(
        arr(f, [cat(i8(2), str(f, "orders"), i8(4), str(f, "User:alice"), str(f, "*"), i8(3), i8(3), tags(f))]),
        tags(f),
      );
    },
  },
  {
    schema: CreateAclsResponse,
    versions: versionsFrom(1, 3),
    sample: {
      throttleTimeMs: 7,
      results: [
        { errorCode: 0, errorMessage: null },
        { errorCode: 42, errorMessage: "bad principal" },
      ],
    } satisfies CreateAclsResponse,
    wire: (v) => {
      const f = v >= 2;
      return cat(
        i32(7),
        arr(f, [cat(i16(0), str(f, null), tags(f)), cat(i16(42), str(f, "bad principal"), tags(f))]),
        tags(f),
      );
    },
  },
]);
