import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { bytes, cat, i16, i64, str, tags } from "../../../../test/wire.js";
import { SaslAuthenticateRequest } from "./sasl-authenticate-request.js";
import { SaslAuthenticateResponse } from "./sasl-authenticate-response.js";

const CLIENT_FIRST = Buffer.from("n,,n=alice,r=abc").toString("hex");

describeGolden("sasl-authenticate", [
  {
    schema: SaslAuthenticateRequest,
    versions: versionsFrom(0, 2),
    sample: { authBytes: new TextEncoder().encode("n,,n=alice,r=abc") } satisfies SaslAuthenticateRequest,
    wire: (v) => cat(bytes(v >= 2, CLIENT_FIRST), tags(v >= 2)),
  },
  {
    schema: SaslAuthenticateResponse,
    versions: versionsFrom(0, 2),
    sample: {
      errorCode: 58,
      errorMessage: "Authentication failed: Invalid username or password",
      authBytes: new Uint8Array([1, 2, 3]),
      sessionLifetimeMs: 3_600_000,
    } satisfies SaslAuthenticateResponse,
    wire: (v) => {
      const f = v >= 2;
      return cat(
        i16(58),
        str(f, "Authentication failed: Invalid username or password"),
        bytes(f, "010203"),
        v >= 1 && i64(3_600_000),
        tags(f),
      );
    },
  },
]);
