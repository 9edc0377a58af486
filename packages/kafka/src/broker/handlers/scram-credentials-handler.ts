// DescribeUserScramCredentials (50) and AlterUserScramCredentials (51) over the SCRAM credential store, with Kafka's
// per-user errors: a user named twice (DUPLICATE_RESOURCE), a user or credential that does not exist
// (RESOURCE_NOT_FOUND), an unknown mechanism (UNSUPPORTED_SASL_MECHANISM), an empty name, iterations out of
// bounds or a malformed salted password (UNACCEPTABLE_CREDENTIAL). The changes of one user apply together or not at
// all. Descriptions name mechanisms and iterations only. Who may call them is the authorizer's concern.
import type { AlterUserScramCredentialsRequest } from "../../protocol/apis/alter-user-scram-credentials/alter-user-scram-credentials-request.js";
import type { AlterUserScramCredentialsResult } from "../../protocol/apis/alter-user-scram-credentials/alter-user-scram-credentials-response.js";
import type { DescribeUserScramCredentialsResult } from "../../protocol/apis/describe-user-scram-credentials/describe-user-scram-credentials-response.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";
import { credentialFromSaltedPassword } from "../../security/sasl/scram-credential.js";
import type { ScramCredentialStore, ScramUserChange } from "../../security/sasl/scram-credential-store.js";
import { type ScramMechanism, scramMechanismOfType } from "../../security/sasl/scram-mechanism.js";
import type { ScramUser, ScramUserCredential } from "../../security/sasl/scram-user-record-codec.js";

function describeResult(user: ScramUser): DescribeUserScramCredentialsResult {
  return {
    user: user.userName,
    errorCode: KafkaErrorCode.NONE,
    errorMessage: null,
    credentialInfos: user.credentials.map((credential) => ({
      mechanism: credential.mechanism.type,
      iterations: credential.iterations,
    })),
  };
}

function userError(user: string, errorCode: number, errorMessage: string): DescribeUserScramCredentialsResult {
  return { user, errorCode, errorMessage, credentialInfos: [] };
}

/** DescribeUserScramCredentials: null or empty users = every user with a credential. */
export function createDescribeUserScramCredentialsHandler(store: ScramCredentialStore): KafkaApiHandler<50> {
  return {
    async handle(context, request) {
      const named = request.body.users;
      if (named === null || named.length === 0) {
        const users = await store.list(context.signal);
        return { throttleTimeMs: 0, errorCode: 0, errorMessage: null, results: users.map(describeResult) };
      }
      const counts = new Map<string, number>();
      for (const { name } of named) counts.set(name, (counts.get(name) ?? 0) + 1);
      const results: DescribeUserScramCredentialsResult[] = [];
      for (const [name, count] of counts) {
        if (count > 1) {
          results.push(
            userError(
              name,
              KafkaErrorCode.DUPLICATE_RESOURCE,
              "Cannot describe SCRAM credentials for the same user twice in a single request",
            ),
          );
          continue;
        }
        const user = await store.user(name, context.signal);
        results.push(
          user === undefined
            ? userError(
                name,
                KafkaErrorCode.RESOURCE_NOT_FOUND,
                "Attempt to describe a user credential that does not exist",
              )
            : describeResult(user),
        );
      }
      return { throttleTimeMs: 0, errorCode: 0, errorMessage: null, results };
    },
  };
}

interface Refusal {
  readonly errorCode: number;
  readonly errorMessage: string;
}

type PlannedChange = { readonly change: ScramUserChange } | { readonly refusal: Refusal };

function refuse(errorCode: number, errorMessage: string): { readonly refusal: Refusal } {
  return { refusal: { errorCode, errorMessage } };
}

function mechanismOf(type: number): ScramMechanism | { readonly refusal: Refusal } {
  return scramMechanismOfType(type) ?? refuse(KafkaErrorCode.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism");
}

/** Checks and converts the deletions and upsertions of one user (everything of one user passes, or none). */
function planUserChange(
  userName: string,
  deletions: AlterUserScramCredentialsRequest["deletions"],
  upsertions: AlterUserScramCredentialsRequest["upsertions"],
): PlannedChange {
  if (userName.length === 0) return refuse(KafkaErrorCode.UNACCEPTABLE_CREDENTIAL, "Username must not be empty");
  const seen = new Set<number>();
  for (const { mechanism } of [...deletions, ...upsertions]) {
    if (seen.has(mechanism)) {
      return refuse(KafkaErrorCode.DUPLICATE_RESOURCE, "A user credential cannot be altered twice in the same request");
    }
    seen.add(mechanism);
  }
  const deleted: ScramMechanism[] = [];
  for (const deletion of deletions) {
    const mechanism = mechanismOf(deletion.mechanism);
    if ("refusal" in mechanism) return mechanism;
    deleted.push(mechanism);
  }
  const upserted: ScramUserCredential[] = [];
  for (const upsertion of upsertions) {
    const mechanism = mechanismOf(upsertion.mechanism);
    if ("refusal" in mechanism) return mechanism;
    if (upsertion.iterations < mechanism.minIterations) {
      return refuse(KafkaErrorCode.UNACCEPTABLE_CREDENTIAL, "Too few iterations");
    }
    if (upsertion.iterations > mechanism.maxIterations) {
      return refuse(KafkaErrorCode.UNACCEPTABLE_CREDENTIAL, "Too many iterations");
    }
    if (upsertion.salt.length === 0 || upsertion.salt.length > 1024) {
      return refuse(KafkaErrorCode.UNACCEPTABLE_CREDENTIAL, "Invalid salt");
    }
    if (upsertion.saltedPassword.length !== mechanism.keyBytes) {
      return refuse(KafkaErrorCode.UNACCEPTABLE_CREDENTIAL, "Invalid salted password");
    }
    const credential = credentialFromSaltedPassword(
      mechanism,
      upsertion.saltedPassword,
      upsertion.salt,
      upsertion.iterations,
    );
    upserted.push({ mechanism, ...credential });
  }
  return { change: { userName, deletions: deleted, upsertions: upserted } };
}

/** AlterUserScramCredentials: one result per user, in the order users first appear in the request. */
export function createAlterUserScramCredentialsHandler(store: ScramCredentialStore): KafkaApiHandler<51> {
  return {
    async handle(context, request) {
      const { deletions, upsertions } = request.body;
      const users = [...new Set([...deletions, ...upsertions].map((entry) => entry.name))];
      const results: AlterUserScramCredentialsResult[] = [];
      for (const userName of users) {
        const planned = planUserChange(
          userName,
          deletions.filter((entry) => entry.name === userName),
          upsertions.filter((entry) => entry.name === userName),
        );
        if ("refusal" in planned) {
          results.push({ user: userName, ...planned.refusal });
          continue;
        }
        const outcome = await store.change(planned.change, context.signal);
        results.push(
          outcome.ok
            ? { user: userName, errorCode: KafkaErrorCode.NONE, errorMessage: null }
            : {
                user: userName,
                errorCode: KafkaErrorCode.RESOURCE_NOT_FOUND,
                errorMessage: "Attempt to delete a user credential that does not exist",
              },
        );
        context.logger.info("SCRAM credentials altered", {
          user: userName,
          by: `${context.principal.type}:${context.principal.name}`,
          outcome: outcome.ok ? "applied" : "credential not found",
        });
      }
      return { throttleTimeMs: 0, results };
    },
  };
}
