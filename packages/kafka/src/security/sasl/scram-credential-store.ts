// The SCRAM credentials of a cluster in its metadata store: one KafkaScramUser record per user
// (scram-user-record-codec.ts). Changes of one user are one compare-and-swap on that user's record (retried on
// contention), so concurrent changes of different mechanisms of one user never lose each other. Reads go to the
// store every time: a credential changed or deleted on any broker applies to the next authentication everywhere.
import { ErrorCode, type MetadataStore, NereusError } from "@nereus/core";
import type { RecordCodec } from "@nereus/core/internal";
import type { ScramCredential } from "./scram-credential.js";
import { ScramCredentialKeys } from "./scram-credential-keys.js";
import type { ScramMechanism } from "./scram-mechanism.js";
import { type ScramUser, type ScramUserCredential, scramUserCodec } from "./scram-user-record-codec.js";

/** The changes of one user: mechanisms to delete, credentials to create or replace. */
export interface ScramUserChange {
  readonly userName: string;
  readonly deletions: readonly ScramMechanism[];
  readonly upsertions: readonly ScramUserCredential[];
}

/** The outcome of a change: applied, or refused because a deleted credential does not exist. */
export type ScramUserChangeOutcome = { readonly ok: true } | { readonly ok: false; readonly missing: ScramMechanism };

const MAX_CAS_ATTEMPTS = 32;
const SCAN_PAGE = 500;

/** SCRAM credentials over a metadata store (not owned). */
export class ScramCredentialStore {
  readonly #metadata: MetadataStore;
  readonly #keys: ScramCredentialKeys;
  readonly #codec: RecordCodec<ScramUser>;

  constructor(metadata: MetadataStore, cluster: string) {
    this.#metadata = metadata;
    this.#keys = new ScramCredentialKeys(cluster);
    this.#codec = scramUserCodec(this.#keys);
  }

  /** The credentials of `userName`, or undefined when it has none. */
  async user(userName: string, signal?: AbortSignal): Promise<ScramUser | undefined> {
    const key = this.#keys.userKey(userName);
    const stored = await this.#metadata.get(key, { signal });
    return stored === undefined ? undefined : this.#codec.decode(stored.value, stored.key);
  }

  /** The credential of `userName` for `mechanism`, or undefined. */
  async credential(
    mechanism: ScramMechanism,
    userName: string,
    signal?: AbortSignal,
  ): Promise<ScramCredential | undefined> {
    const user = await this.user(userName, signal);
    return user?.credentials.find((credential) => credential.mechanism.type === mechanism.type);
  }

  /** Every user with a credential, in key order. */
  async list(signal?: AbortSignal): Promise<ScramUser[]> {
    const users: ScramUser[] = [];
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.#metadata.scan(this.#keys.prefix, { limit: SCAN_PAGE, startAfter, signal });
      for (const item of page.items) users.push(this.#codec.decode(item.value, item.key));
      if (!page.more || page.items.length === 0) return users;
      startAfter = page.items[page.items.length - 1]!.key;
    }
  }

  /** Applies the change of one user atomically; a user left without credentials is removed. */
  async change(change: ScramUserChange, signal?: AbortSignal): Promise<ScramUserChangeOutcome> {
    return this.#update(
      change.userName,
      (current) => {
        for (const mechanism of change.deletions) {
          if (!current.some((credential) => credential.mechanism.type === mechanism.type)) {
            return { ok: false, missing: mechanism };
          }
        }
        const deleted = new Set(change.deletions.map((mechanism) => mechanism.type));
        const replaced = new Set(change.upsertions.map((credential) => credential.mechanism.type));
        const kept = current.filter(
          (credential) => !deleted.has(credential.mechanism.type) && !replaced.has(credential.mechanism.type),
        );
        return { ok: true, credentials: [...kept, ...change.upsertions] };
      },
      signal,
    );
  }

  /**
   * Stores `credential` for the user unless the user already has one of that mechanism (start-up bootstrap: a
   * password changed through AlterUserScramCredentials is not reset). Resolves true when it stored it.
   */
  async createIfAbsent(userName: string, credential: ScramUserCredential, signal?: AbortSignal): Promise<boolean> {
    let created = false;
    await this.#update(
      userName,
      (current) => {
        created = !current.some((existing) => existing.mechanism.type === credential.mechanism.type);
        return { ok: true, credentials: created ? [...current, credential] : current };
      },
      signal,
    );
    return created;
  }

  async #update(
    userName: string,
    apply: (
      current: readonly ScramUserCredential[],
    ) => { readonly ok: true; readonly credentials: readonly ScramUserCredential[] } | ScramUserChangeOutcome,
    signal?: AbortSignal,
  ): Promise<ScramUserChangeOutcome> {
    const key = this.#keys.userKey(userName);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const stored = await this.#metadata.get(key, { signal });
      const current = stored === undefined ? [] : this.#codec.decode(stored.value, stored.key).credentials;
      const outcome = apply(current);
      if (!outcome.ok) return outcome;
      if (!("credentials" in outcome)) return outcome;
      const credentials = [...outcome.credentials].sort((left, right) => left.mechanism.type - right.mechanism.type);
      if (stored === undefined && credentials.length === 0) return { ok: true };
      const result = await this.#metadata.txn(
        {
          compares: [{ key, modRevision: stored?.modRevision ?? 0 }],
          writes:
            credentials.length === 0
              ? [{ type: "delete", key }]
              : [{ type: "put", key, value: this.#codec.encode({ userName, credentials }) }],
        },
        { signal },
      );
      if (result.succeeded) return { ok: true };
    }
    throw new NereusError(
      ErrorCode.METADATA_CONDITION_FAILED,
      `could not change the SCRAM credentials of ${JSON.stringify(userName)} (contention)`,
      { retryable: true },
    );
  }
}
