// AlterUserScramCredentials response body (api key 51): one result per user named in the request.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const alterUserScramCredentialsResult = struct("AlterUserScramCredentialsResult", {
  user: field(string),
  errorCode: field(int16),
  errorMessage: nullableField(string, { nullableVersions: "0+" }),
});

/**
 * Grammar:
 *
 *   AlterUserScramCredentialsResponse (api key 51), v0, flexible v0+
 *     throttleTimeMs: int32
 *     results: []AlterUserScramCredentialsResult
 *       user: string
 *       errorCode: int16
 *       errorMessage: string (nullable v0+)
 */
export const AlterUserScramCredentialsResponse = message({
  name: "AlterUserScramCredentialsResponse",
  apiKey: 51,
  type: "response",
  validVersions: "0",
  flexibleVersions: "0+",
  fields: {
    throttleTimeMs: field(int32),
    results: field(arrayOf(alterUserScramCredentialsResult)),
  },
});

/** An AlterUserScramCredentials response body. */
export type AlterUserScramCredentialsResponse = MessageValue<typeof AlterUserScramCredentialsResponse>;
/** The result for one user. */
export type AlterUserScramCredentialsResult = StructValue<typeof alterUserScramCredentialsResult.fields>;
