import { describeGolden } from "../../../../test/golden.js";
import { arr, bytes, cat, i16, i32, i8, str, tags } from "../../../../test/wire.js";
import { AlterUserScramCredentialsRequest } from "./alter-user-scram-credentials-request.js";
import { AlterUserScramCredentialsResponse } from "./alter-user-scram-credentials-response.js";

describeGolden("alter-user-scram-credentials", [
  {
    schema: AlterUserScramCredentialsRequest,
    versions: [0],
    sample: {
      deletions: [{ name: "bob", mechanism: 1 }],
      upsertions: [
        {
          name: "alice",
          mechanism: 2,
          iterations: 8192,
          salt: new Uint8Array([0xaa, 0xbb]),
          saltedPassword: new Uint8Array([1, 2, 3, 4]),
        },
      ],
    } satisfies AlterUserScramCredentialsRequest,
    wire: () =>
      cat(
        arr(true, [cat(str(true, "bob"), i8(1), tags(true))]),
        arr(true, [
          cat(str(true, "alice"), i8(2), i32(8192), bytes(true, "aabb"), bytes(true, "01020304"), tags(true)),
        ]),
        tags(true),
      ),
  },
  {
    schema: AlterUserScramCredentialsResponse,
    versions: [0],
    sample: {
      throttleTimeMs: 0,
      results: [
        { user: "alice", errorCode: 0, errorMessage: null },
        { user: "bob", errorCode: 95, errorMessage: "Unknown SCRAM mechanism" },
      ],
    } satisfies AlterUserScramCredentialsResponse,
    wire: () =>
      cat(
        i32(0),
        arr(true, [
          cat(str(true, "alice"), i16(0), str(true, null), tags(true)),
          cat(str(true, "bob"), i16(95), str(true, "Unknown SCRAM mechanism"), tags(true)),
        ]),
        tags(true),
      ),
  },
]);
