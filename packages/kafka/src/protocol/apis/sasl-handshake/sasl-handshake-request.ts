// SaslHandshake request body (api key 17): the SASL mechanism the client wants to authenticate with. From v1 the
// tokens that follow travel in SaslAuthenticate requests; after a v0 handshake they travel as raw size-prefixed frames.
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { string } from "../../schema/scalar-types.js";

/**
 * Grammar:
 *
 *   SaslHandshakeRequest (api key 17), v0-1, never flexible
 *     mechanism: string
 */
export const SaslHandshakeRequest = message({
  name: "SaslHandshakeRequest",
  apiKey: 17,
  type: "request",
  validVersions: "0-1",
  flexibleVersions: "none",
  fields: {
    mechanism: field(string),
  },
});

/** A decoded SaslHandshake request body. */
export type SaslHandshakeRequest = MessageValue<typeof SaslHandshakeRequest>;
