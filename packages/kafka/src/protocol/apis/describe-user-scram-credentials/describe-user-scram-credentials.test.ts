import { describeGolden } from "../../../../test/golden.js";
import { arr, cat, i16, i32, i8, str, tags } from "../../../../test/wire.js";
import { DescribeUserScramCredentialsRequest } from "./describe-user-scram-credentials-request.js";
import { DescribeUserScramCredentialsResponse } from "./describe-user-scram-credentials-response.js";

describeGolden("describe-user-scram-credentials", [
  {
    schema: DescribeUserScramCredentialsRequest,
    versions: [0],
    sample: { users: [{ name: "alice" }, { name: "bob" }] } satisfies DescribeUserScramCredentialsRequest,
    wire: () => cat(arr(true, [cat(str(true, "alice"), tags(true)), cat(str(true, "bob"), tags(true))]), tags(true)),
  },
  {
    schema: DescribeUserScramCredentialsResponse,
    versions: [0],
    sample: {
      throttleTimeMs: 4,
      errorCode: 0,
      errorMessage: "none",
      results: [
        {
          user: "alice",
          errorCode: 0,
          errorMessage: null,
          credentialInfos: [
            { mechanism: 1, iterations: 4096 },
            { mechanism: 2, iterations: 8192 },
          ],
        },
        {
          user: "carol",
          errorCode: 91,
          errorMessage: "Attempt to describe a user credential that does not exist",
          credentialInfos: [],
        },
      ],
    } satisfies DescribeUserScramCredentialsResponse,
    wire: () =>
      cat(
        i32(4),
        i16(0),
        str(true, "none"),
        arr(true, [
          cat(
            str(true, "alice"),
            i16(0),
            str(true, null),
            arr(true, [cat(i8(1), i32(4096), tags(true)), cat(i8(2), i32(8192), tags(true))]),
            tags(true),
          ),
          cat(
            str(true, "carol"),
            i16(91),
            str(true, "Attempt to describe a user credential that does not exist"),
            arr(true, []),
            tags(true),
          ),
        ]),
        tags(true),
      ),
  },
]);
