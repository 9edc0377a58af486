import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, cat, i16, i32, i8, str, tags } from "../../../../test/wire.js";
import { DeleteAclsRequest } from "./delete-acls-request.js";
import { DeleteAclsResponse } from "./delete-acls-response.js";

describeGolden("delete-acls", [
  {
    schema: DeleteAclsRequest,
    versions: versionsFrom(1, 3),
    sample: {
      filters: [
        {
          resourceTypeFilter: 1,
          resourceNameFilter: null,
          patternTypeFilter: 1,
          principalFilter: "User:bob",
          hostFilter: null,
          operation: 4,
          permissionType: 1,
        },
      ],
    } satisfies DeleteAclsRequest,
    wire: (v) => {
      const f = v >= 2;
      return cat(
        arr(f, [cat(i8(1), str(f, null), i8(1), str(f, "User:bob"), str(f, null), i8(4), i8(1), tags(f))]),
        tags(f),
      );
    },
  },
  {
    schema: DeleteAclsResponse,
    versions: versionsFrom(1, 3),
    sample: {
      throttleTimeMs: 5,
      filterResults: [
        {
          errorCode: 0,
          errorMessage: null,
          matchingAcls: [
            {
              errorCode: 0,
              errorMessage: null,
              resourceType: 2,
              resourceName: "orders",
              patternType: 3,
              principal: "User:bob",
              host: "*",
              operation: 4,
              permissionType: 3,
            },
          ],
        },
        { errorCode: 31, errorMessage: "denied", matchingAcls: [] },
      ],
    } satisfies DeleteAclsResponse,
    wire: (v) => {
      const f = v >= 2;
      const matching = cat(
        i16(0),
        str(f, null),
        i8(2),
        str(f, "orders"),
        i8(3),
        str(f, "User:bob"),
        str(f, "*"),
        i8(4),
        i8(3),
        tags(f),
      );
      return cat(
        i32(5),
        arr(f, [
          cat(i16(0), str(f, null), arr(f, [matching]), tags(f)),
          cat(i16(31), str(f, "denied"), arr(f, []), tags(f)),
        ]),
        tags(f),
      );
    },
  },
]);
