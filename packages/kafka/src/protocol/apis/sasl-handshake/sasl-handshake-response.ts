// SaslHandshake response body (api key 17): NONE or UNSUPPORTED_SASL_MECHANISM, and the mechanisms the broker enables.
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, string } from "../../schema/scalar-types.js";

/**
 * Grammar:
 *
 *   SaslHandshakeResponse (api key 17), v0-1, never flexible
 *     errorCode: int16
 *     mechanisms: []string
 */
export const SaslHandshakeResponse = message({
  name: "SaslHandshakeResponse",
  apiKey: 17,
  type: "response",
  validVersions: "0-1",
  flexibleVersions: "none",
  fields: {
    errorCode: field(int16),
    mechanisms: field(arrayOf(string)),
  },
});

/** A SaslHandshake response body. */
export type SaslHandshakeResponse = MessageValue<typeof SaslHandshakeResponse>;
