// DescribeUserScramCredentials request body (api key 50): the users whose SCRAM credentials to describe (null or
// empty = every user).
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { string } from "../../schema/scalar-types.js";
import { struct } from "../../schema/struct-schema.js";

const userName = struct("UserName", {
  name: field(string),
});

/**
 * Grammar:
 *
 *   DescribeUserScramCredentialsRequest (api key 50), v0, flexible v0+
 *     users: []UserName (nullable v0+)
 *       name: string
 */
export const DescribeUserScramCredentialsRequest = message({
  name: "DescribeUserScramCredentialsRequest",
  apiKey: 50,
  type: "request",
  validVersions: "0",
  flexibleVersions: "0+",
  fields: {
    users: nullableField(arrayOf(userName), { nullableVersions: "0+" }),
  },
});

/** A decoded DescribeUserScramCredentials request body. */
export type DescribeUserScramCredentialsRequest = MessageValue<typeof DescribeUserScramCredentialsRequest>;
