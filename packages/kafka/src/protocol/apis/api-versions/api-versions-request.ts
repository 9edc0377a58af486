// ApiVersions request body (api key 18): the first request of every connection. v0-2 are empty; v3 (flexible)
// names the client software.
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { string } from "../../schema/scalar-types.js";

/**
 * Grammar:
 *
 *   ApiVersionsRequest (api key 18), v0-4, flexible v3+
 *     clientSoftwareName: string (v3+)
 *     clientSoftwareVersion: string (v3+)
 */
export const ApiVersionsRequest = message({
  name: "ApiVersionsRequest",
  apiKey: 18,
  type: "request",
  validVersions: "0-4",
  flexibleVersions: "3+",
  fields: {
    clientSoftwareName: field(string, { versions: "3+" }),
    clientSoftwareVersion: field(string, { versions: "3+" }),
  },
});

/** A decoded ApiVersions request body. */
export type ApiVersionsRequest = MessageValue<typeof ApiVersionsRequest>;
