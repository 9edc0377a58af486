// Start-up creation of SCRAM users named in the broker's configuration, so that the first administrator can log in
// before anyone could call AlterUserScramCredentials. A credential is created only where the user has none of that
// mechanism yet: a password changed later through AlterUserScramCredentials is not reset by a restart, and a user
// deleted through it comes back at the next start while the configuration still names it.
import { ErrorCode, type MetadataStore, NereusError } from "@nereus/core";
import { credentialFromPassword } from "./scram-credential.js";
import { ScramCredentialStore } from "./scram-credential-store.js";
import { type ScramMechanismName, scramMechanismNamed } from "./scram-mechanism.js";

/** A SCRAM user of the configuration. */
export interface InitialScramUser {
  readonly name: string;
  readonly password: string;
  readonly mechanism: ScramMechanismName;
  /** PBKDF2 iterations (default 8192; Kafka accepts 4096 to 16384). */
  readonly iterations?: number;
}

/** Default iterations of configured SCRAM users. */
const DEFAULT_ITERATIONS = 8192;

/**
 * Creates the missing credentials of `users` in the cluster's SCRAM store; resolves with the "user/mechanism" pairs
 * it created. Throws INVALID_ARGUMENT for iterations out of bounds or an empty name or password, before any write.
 */
export async function bootstrapScramUsers(
  metadata: MetadataStore,
  cluster: string,
  users: readonly InitialScramUser[],
  signal?: AbortSignal,
): Promise<string[]> {
  const credentials = users.map((user) => {
    const mechanism = scramMechanismNamed(user.mechanism);
    if (mechanism === undefined || user.name.length === 0 || user.password.length === 0) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `initial SCRAM user ${JSON.stringify(user.name)} (${user.mechanism}) needs a name, a password and a SCRAM mechanism`,
        { retryable: false },
      );
    }
    const credential = credentialFromPassword(mechanism, user.password, user.iterations ?? DEFAULT_ITERATIONS);
    return { userName: user.name, credential: { mechanism, ...credential } };
  });
  const store = new ScramCredentialStore(metadata, cluster);
  const created: string[] = [];
  for (const { userName, credential } of credentials) {
    if (await store.createIfAbsent(userName, credential, signal))
      created.push(`${userName}/${credential.mechanism.name}`);
  }
  return created;
}
