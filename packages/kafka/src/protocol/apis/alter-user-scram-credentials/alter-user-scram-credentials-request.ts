// AlterUserScramCredentials request body (api key 51): SCRAM credentials to delete (user, mechanism) and to create or
// replace (user, mechanism, iterations, salt and the salted password the client derived; never the password).
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bytes, int32, int8, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const scramCredentialDeletion = struct("ScramCredentialDeletion", {
  name: field(string),
  mechanism: field(int8),
});

const scramCredentialUpsertion = struct("ScramCredentialUpsertion", {
  name: field(string),
  mechanism: field(int8),
  iterations: field(int32),
  salt: field(bytes),
  saltedPassword: field(bytes),
});

/**
 * Grammar:
 *
 *   AlterUserScramCredentialsRequest (api key 51), v0, flexible v0+
 *     deletions: []ScramCredentialDeletion
 *       name: string
 *       mechanism: int8
 *     upsertions: []ScramCredentialUpsertion
 *       name: string
 *       mechanism: int8
 *       iterations: int32
 *       salt: bytes
 *       saltedPassword: bytes
 */
export const AlterUserScramCredentialsRequest = message({
  name: "AlterUserScramCredentialsRequest",
  apiKey: 51,
  type: "request",
  validVersions: "0",
  flexibleVersions: "0+",
  fields: {
    deletions: field(arrayOf(scramCredentialDeletion)),
    upsertions: field(arrayOf(scramCredentialUpsertion)),
  },
});

/** A decoded AlterUserScramCredentials request body (byte fields are views of the frame: copy before retaining). */
export type AlterUserScramCredentialsRequest = MessageValue<typeof AlterUserScramCredentialsRequest>;
/** One credential to create or replace. */
export type ScramCredentialUpsertion = StructValue<typeof scramCredentialUpsertion.fields>;
