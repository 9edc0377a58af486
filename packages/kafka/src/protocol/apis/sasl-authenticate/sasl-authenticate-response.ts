// SaslAuthenticate response body (api key 36): the server's SASL token or SASL_AUTHENTICATION_FAILED with a message,
// and from v1 the session lifetime after which the client must re-authenticate (0 = no limit).
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bytes, int16, int64, string } from "../../schema/scalar-types.js";

/**
 * Grammar:
 *
 *   SaslAuthenticateResponse (api key 36), v0-2, flexible v2+
 *     errorCode: int16
 *     errorMessage: string (nullable v0+)
 *     authBytes: bytes
 *     sessionLifetimeMs: int64 (v1+)
 */
export const SaslAuthenticateResponse = message({
  name: "SaslAuthenticateResponse",
  apiKey: 36,
  type: "response",
  validVersions: "0-2",
  flexibleVersions: "2+",
  fields: {
    errorCode: field(int16),
    errorMessage: nullableField(string, { nullableVersions: "0+" }),
    authBytes: field(bytes),
    sessionLifetimeMs: field(int64, { versions: "1+" }),
  },
});

/** A SaslAuthenticate response body. */
export type SaslAuthenticateResponse = MessageValue<typeof SaslAuthenticateResponse>;
