// The durable permissions of namespaces and topics (permission-record-codec.ts records in the metadata store the
// policies use): which roles may do which actions. Reads may be served from a per-key cache no older than the caller
// allows (the broker's per-request authorization checks); writes go through a compare-and-swap loop and refresh the
// cache; a change leaving no grant deletes the record. A topic's permissions are stored under its partitioned
// topic's name, so a partition reads and writes those. It does not own the metadata store.
import { ErrorCode, MetadataAmbiguousError, type MetadataStore, NereusError, type WriteOp } from "@nereus/core";
import { type RecordCodec, isWellFormedString } from "@nereus/core/internal";
import type { NamespaceName, TopicName } from "../topics/topic-name.js";
import { type AuthAction, actionBits, actionsOf } from "./auth-actions.js";
import { PermissionKeyspace } from "./permission-keys.js";
import {
  MAX_GRANTS,
  MAX_ROLE_BYTES,
  type PermissionGrant,
  type StoredPermissions,
  namespacePermissionsCodec,
  topicPermissionsCodec,
} from "./permission-record-codec.js";

/** Options of a permission read. */
export interface PermissionReadOptions {
  readonly signal?: AbortSignal;
  /** Serve a cached value read less than this long ago (default 0: read the store). */
  readonly maxAgeMs?: number;
}

interface CachedGrants {
  readonly grants: readonly PermissionGrant[];
  readonly readAtMillis: number;
}

const MAX_CAS_ATTEMPTS = 16;

/** Namespace- and topic-level permissions of one cluster. */
export class PermissionStore {
  readonly #metadata: MetadataStore;
  readonly #keyspace: PermissionKeyspace;
  readonly #namespaceCodec: RecordCodec<StoredPermissions>;
  readonly #topicCodec: RecordCodec<StoredPermissions>;
  readonly #clock: () => number;
  readonly #cache = new Map<string, CachedGrants>();

  /** `pulsarRoot` is P/pulsar of the cluster (PulsarKeyspace.root). */
  constructor(metadata: MetadataStore, pulsarRoot: string, clock: () => number = Date.now) {
    this.#metadata = metadata;
    this.#keyspace = new PermissionKeyspace(pulsarRoot);
    this.#namespaceCodec = namespacePermissionsCodec(this.#keyspace);
    this.#topicCodec = topicPermissionsCodec(this.#keyspace);
    this.#clock = clock;
  }

  /** The grants on `namespace`, sorted by role ([] when none). */
  namespacePermissions(
    namespace: NamespaceName,
    options: PermissionReadOptions = {},
  ): Promise<readonly PermissionGrant[]> {
    return this.#read(this.#keyspace.namespaceKey(namespace), this.#namespaceCodec, options);
  }

  /** The grants on `topic` itself (a partition: on its partitioned topic), sorted by role ([] when none). */
  topicPermissions(topic: TopicName, options: PermissionReadOptions = {}): Promise<readonly PermissionGrant[]> {
    return this.#read(this.#keyspace.topicKey(topic), this.#topicCodec, options);
  }

  /** Gives `role` exactly `actions` on `namespace` (non-empty); INVALID_ARGUMENT before any I/O for a bad grant. */
  async grantOnNamespace(
    namespace: NamespaceName,
    role: string,
    actions: readonly AuthAction[],
    signal?: AbortSignal,
  ): Promise<void> {
    const grant = grantOf(role, actions);
    await this.#update(
      this.#keyspace.namespaceKey(namespace),
      this.#namespaceCodec,
      signal,
      namespace.name,
      (current) => withGrant(current, grant),
    );
  }

  /** Takes every action on `namespace` from `role`; false when it had none. */
  async revokeOnNamespace(namespace: NamespaceName, role: string, signal?: AbortSignal): Promise<boolean> {
    const key = this.#keyspace.namespaceKey(namespace);
    return this.#revoke(key, this.#namespaceCodec, namespace.name, role, signal);
  }

  /** Gives `role` exactly `actions` on `topic` (a partition: its partitioned topic). */
  async grantOnTopic(
    topic: TopicName,
    role: string,
    actions: readonly AuthAction[],
    signal?: AbortSignal,
  ): Promise<void> {
    const grant = grantOf(role, actions);
    await this.#update(
      this.#keyspace.topicKey(topic),
      this.#topicCodec,
      signal,
      topic.partitionedTopicName,
      (current) => withGrant(current, grant),
    );
  }

  /** Takes every action on `topic` itself from `role`; false when it had none there. */
  async revokeOnTopic(topic: TopicName, role: string, signal?: AbortSignal): Promise<boolean> {
    return this.#revoke(this.#keyspace.topicKey(topic), this.#topicCodec, topic.partitionedTopicName, role, signal);
  }

  /** Removes every grant on `namespace` (the namespace is deleted). */
  async removeNamespace(namespace: NamespaceName, signal?: AbortSignal): Promise<void> {
    await this.#update(this.#keyspace.namespaceKey(namespace), this.#namespaceCodec, signal, namespace.name, () => []);
  }

  /** Removes every grant on `topic` (the topic is deleted). */
  async removeTopic(topic: TopicName, signal?: AbortSignal): Promise<void> {
    const name = topic.partitionedTopicName;
    await this.#update(this.#keyspace.topicKey(topic), this.#topicCodec, signal, name, () => []);
  }

  async #revoke(
    key: string,
    codec: RecordCodec<StoredPermissions>,
    name: string,
    role: string,
    signal: AbortSignal | undefined,
  ): Promise<boolean> {
    let had = false;
    await this.#update(key, codec, signal, name, (current) => {
      had = current.some((grant) => grant.role === role);
      return current.filter((grant) => grant.role !== role);
    });
    return had;
  }

  async #read(
    key: string,
    codec: RecordCodec<StoredPermissions>,
    options: PermissionReadOptions,
  ): Promise<readonly PermissionGrant[]> {
    const cached = this.#cache.get(key);
    if (cached !== undefined && this.#clock() - cached.readAtMillis < (options.maxAgeMs ?? 0)) return cached.grants;
    const readAtMillis = this.#clock();
    const item = await this.#metadata.get(key, { signal: options.signal });
    const grants = item === undefined ? [] : codec.decode(item.value, item.key).grants;
    this.#cache.set(key, { grants, readAtMillis });
    return grants;
  }

  /** CAS loop: `change` maps the stored grants to the grants to store (none left: the record is deleted). */
  async #update(
    key: string,
    codec: RecordCodec<StoredPermissions>,
    signal: AbortSignal | undefined,
    name: string,
    change: (current: readonly PermissionGrant[]) => readonly PermissionGrant[],
  ): Promise<void> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const item = await this.#metadata.get(key, { signal });
      const current = item === undefined ? [] : codec.decode(item.value, item.key).grants;
      const grants = change(current);
      if (grants.length === 0 && item === undefined) return;
      if (grants.length > MAX_GRANTS) {
        throw new NereusError(
          ErrorCode.METADATA_LIMIT_EXCEEDED,
          `${name} grants more than ${String(MAX_GRANTS)} roles`,
          {
            retryable: false,
          },
        );
      }
      const write: WriteOp =
        grants.length === 0 ? { type: "delete", key } : { type: "put", key, value: codec.encode({ name, grants }) };
      try {
        const result = await this.#metadata.txn(
          { compares: [{ key, modRevision: item?.modRevision ?? 0 }], writes: [write] },
          { signal },
        );
        if (result.succeeded) {
          this.#cache.set(key, { grants, readAtMillis: this.#clock() });
          return;
        }
      } catch (error) {
        // A lost response: read again (the change is idempotent, so applying it to what was stored is right).
        if (!MetadataAmbiguousError.isAmbiguous(error)) throw error;
      }
    }
    throw new NereusError(ErrorCode.METADATA_CONDITION_FAILED, `permissions at ${key} kept changing`, {
      retryable: true,
    });
  }
}

/** A checked grant: a non-empty role and at least one action, in canonical order. */
function grantOf(role: string, actions: readonly AuthAction[]): PermissionGrant {
  const canonical = actionsOf(actionBits(actions));
  if (typeof role !== "string" || role.length === 0 || canonical.length === 0) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, "a grant needs a non-empty role and at least one action", {
      retryable: false,
    });
  }
  if (!isWellFormedString(role) || Buffer.byteLength(role) > MAX_ROLE_BYTES) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `a role must be well-formed text of at most ${String(MAX_ROLE_BYTES)} UTF-8 bytes`,
      { retryable: false },
    );
  }
  return { role, actions: canonical };
}

function withGrant(current: readonly PermissionGrant[], grant: PermissionGrant): PermissionGrant[] {
  return [...current.filter((existing) => existing.role !== grant.role), grant].sort((a, b) =>
    a.role < b.role ? -1 : a.role > b.role ? 1 : 0,
  );
}
