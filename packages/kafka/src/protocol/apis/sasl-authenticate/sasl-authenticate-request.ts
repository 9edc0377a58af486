// SaslAuthenticate request body (api key 36): one SASL token from the client, as the negotiated mechanism defines it.
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bytes } from "../../schema/scalar-types.js";

/**
 * Grammar:
 *
 *   SaslAuthenticateRequest (api key 36), v0-2, flexible v2+
 *     authBytes: bytes
 */
export const SaslAuthenticateRequest = message({
  name: "SaslAuthenticateRequest",
  apiKey: 36,
  type: "request",
  validVersions: "0-2",
  flexibleVersions: "2+",
  fields: {
    authBytes: field(bytes),
  },
});

/** A decoded SaslAuthenticate request body (`authBytes` is a view of the frame: copy before retaining). */
export type SaslAuthenticateRequest = MessageValue<typeof SaslAuthenticateRequest>;
