import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, cat, i16, str } from "../../../../test/wire.js";
import { SaslHandshakeRequest } from "./sasl-handshake-request.js";
import { SaslHandshakeResponse } from "./sasl-handshake-response.js";

describeGolden("sasl-handshake", [
  {
    schema: SaslHandshakeRequest,
    versions: versionsFrom(0, 1),
    sample: { mechanism: "SCRAM-SHA-512" } satisfies SaslHandshakeRequest,
    wire: () => str(false, "SCRAM-SHA-512"),
  },
  {
    schema: SaslHandshakeResponse,
    versions: versionsFrom(0, 1),
    sample: { errorCode: 33, mechanisms: ["PLAIN", "SCRAM-SHA-256"] } satisfies SaslHandshakeResponse,
    wire: () => cat(i16(33), arr(false, [str(false, "PLAIN"), str(false, "SCRAM-SHA-256")])),
  },
]);
