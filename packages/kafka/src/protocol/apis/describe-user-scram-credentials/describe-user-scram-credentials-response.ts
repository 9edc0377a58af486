// DescribeUserScramCredentials response body (api key 50): per user, its SCRAM mechanisms and iteration counts
// (never salts or keys), or a user-level error (RESOURCE_NOT_FOUND, DUPLICATE_RESOURCE).
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, int8, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const credentialInfo = struct("CredentialInfo", {
  mechanism: field(int8),
  iterations: field(int32),
});

const describeUserScramCredentialsResult = struct("DescribeUserScramCredentialsResult", {
  user: field(string),
  errorCode: field(int16),
  errorMessage: nullableField(string, { nullableVersions: "0+" }),
  credentialInfos: field(arrayOf(credentialInfo)),
});

/**
 * Grammar:
 *
 *   DescribeUserScramCredentialsResponse (api key 50), v0, flexible v0+
 *     throttleTimeMs: int32
 *     errorCode: int16
 *     errorMessage: string (nullable v0+)
 *     results: []DescribeUserScramCredentialsResult
 *       user: string
 *       errorCode: int16
 *       errorMessage: string (nullable v0+)
 *       credentialInfos: []CredentialInfo
 *         mechanism: int8
 *         iterations: int32
 */
export const DescribeUserScramCredentialsResponse = message({
  name: "DescribeUserScramCredentialsResponse",
  apiKey: 50,
  type: "response",
  validVersions: "0",
  flexibleVersions: "0+",
  fields: {
    throttleTimeMs: field(int32),
    errorCode: field(int16),
    errorMessage: nullableField(string, { nullableVersions: "0+" }),
    results: field(arrayOf(describeUserScramCredentialsResult)),
  },
});

/** A DescribeUserScramCredentials response body. */
export type DescribeUserScramCredentialsResponse = MessageValue<typeof DescribeUserScramCredentialsResponse>;
/** The description of one user. */
export type DescribeUserScramCredentialsResult = StructValue<typeof describeUserScramCredentialsResult.fields>;
