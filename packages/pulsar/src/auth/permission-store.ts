// The durable permissions of namespaces and topics (permission-record-codec.ts records in the metadata store the
// policies use): which roles may do which actions, and a namespace's subscription auth mode. Reads may be served
// from a per-key cache no older than the caller allows (the broker's per-request authorization checks); writes go
// through a compare-and-swap loop and refresh the cache; a change leaving no grant (and no mode) deletes the record.
// A topic's permissions are stored under its partitioned topic's name, so a partition reads and writes those. It
// does not own the metadata store.
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
  type SubscriptionAuthMode,
  namespacePermissionsCodec,
  topicPermissionsCodec,
} from "./permission-record-codec.js";

/** Options of a permission read. */
export interface PermissionReadOptions {
  readonly signal?: AbortSignal;
  /** Serve a cached value read less than this long ago (default 0: read the store). */
  readonly maxAgeMs?: number;
}

/** What a record holds, without its name. */
type PermissionContent = Omit<StoredPermissions, "name">;

interface CachedContent {
  readonly content: PermissionContent;
  readonly readAtMillis: number;
}

const EMPTY: PermissionContent = Object.freeze({ grants: [] });
const MAX_CAS_ATTEMPTS = 16;

/** Namespace- and topic-level permissions of one cluster. */
export class PermissionStore {
  readonly #metadata: MetadataStore;
  readonly #keyspace: PermissionKeyspace;
  readonly #namespaceCodec: RecordCodec<StoredPermissions>;
  readonly #topicCodec: RecordCodec<StoredPermissions>;
  readonly #clock: () => number;
  readonly #cache = new Map<string, CachedContent>();

  /** `pulsarRoot` is P/pulsar of the cluster (PulsarKeyspace.root). */
  constructor(metadata: MetadataStore, pulsarRoot: string, clock: () => number = Date.now) {
    this.#metadata = metadata;
    this.#keyspace = new PermissionKeyspace(pulsarRoot);
    this.#namespaceCodec = namespacePermissionsCodec(this.#keyspace);
    this.#topicCodec = topicPermissionsCodec(this.#keyspace);
    this.#clock = clock;
  }

  /** The grants on `namespace`, sorted by role ([] when none). */
  async namespacePermissions(
    namespace: NamespaceName,
    options: PermissionReadOptions = {},
  ): Promise<readonly PermissionGrant[]> {
    return (await this.#readNamespace(namespace, options)).grants;
  }

  /** The subscription auth mode of `namespace` (None when never set). */
  async subscriptionAuthMode(
    namespace: NamespaceName,
    options: PermissionReadOptions = {},
  ): Promise<SubscriptionAuthMode> {
    return (await this.#readNamespace(namespace, options)).subscriptionAuthMode ?? "None";
  }

  /** The grants on `topic` itself (a partition: on its partitioned topic), sorted by role ([] when none). */
  async topicPermissions(topic: TopicName, options: PermissionReadOptions = {}): Promise<readonly PermissionGrant[]> {
    return (await this.#read(this.#keyspace.topicKey(topic), this.#topicCodec, options)).grants;
  }

  /** Gives `role` exactly `actions` on `namespace` (non-empty); INVALID_ARGUMENT before any I/O for a bad grant. */
  async grantOnNamespace(
    namespace: NamespaceName,
    role: string,
    actions: readonly AuthAction[],
    signal?: AbortSignal,
  ): Promise<void> {
    const grant = grantOf(role, actions);
    await this.#updateNamespace(namespace, signal, (current) => withGrant(current, grant));
  }

  /** Takes every action on `namespace` from `role`; false when it had none. */
  async revokeOnNamespace(namespace: NamespaceName, role: string, signal?: AbortSignal): Promise<boolean> {
    const key = this.#keyspace.namespaceKey(namespace);
    return this.#revoke(key, this.#namespaceCodec, namespace.name, role, signal);
  }

  /** Sets the subscription auth mode of `namespace`. */
  async setSubscriptionAuthMode(
    namespace: NamespaceName,
    mode: SubscriptionAuthMode,
    signal?: AbortSignal,
  ): Promise<void> {
    await this.#updateNamespace(namespace, signal, (current) => ({
      grants: current.grants,
      ...(mode === "Prefix" ? { subscriptionAuthMode: mode } : {}),
    }));
  }

  /** Gives `role` exactly `actions` on `topic` (a partition: its partitioned topic). */
  async grantOnTopic(
    topic: TopicName,
    role: string,
    actions: readonly AuthAction[],
    signal?: AbortSignal,
  ): Promise<void> {
    const grant = grantOf(role, actions);
    const key = this.#keyspace.topicKey(topic);
    await this.#update(key, this.#topicCodec, signal, topic.partitionedTopicName, (current) =>
      withGrant(current, grant),
    );
  }

  /** Takes every action on `topic` itself from `role`; false when it had none there. */
  async revokeOnTopic(topic: TopicName, role: string, signal?: AbortSignal): Promise<boolean> {
    return this.#revoke(this.#keyspace.topicKey(topic), this.#topicCodec, topic.partitionedTopicName, role, signal);
  }

  /** Removes every grant on `namespace` and its mode (the namespace is deleted). */
  async removeNamespace(namespace: NamespaceName, signal?: AbortSignal): Promise<void> {
    await this.#updateNamespace(namespace, signal, () => EMPTY);
  }

  /** Removes every grant on `topic` (the topic is deleted). */
  async removeTopic(topic: TopicName, signal?: AbortSignal): Promise<void> {
    const name = topic.partitionedTopicName;
    await this.#update(this.#keyspace.topicKey(topic), this.#topicCodec, signal, name, () => EMPTY);
  }

  #readNamespace(namespace: NamespaceName, options: PermissionReadOptions): Promise<PermissionContent> {
    return this.#read(this.#keyspace.namespaceKey(namespace), this.#namespaceCodec, options);
  }

  #updateNamespace(
    namespace: NamespaceName,
    signal: AbortSignal | undefined,
    change: (current: PermissionContent) => PermissionContent,
  ): Promise<void> {
    const key = this.#keyspace.namespaceKey(namespace);
    return this.#update(key, this.#namespaceCodec, signal, namespace.name, change);
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
      had = current.grants.some((grant) => grant.role === role);
      return { ...current, grants: current.grants.filter((grant) => grant.role !== role) };
    });
    return had;
  }

  async #read(
    key: string,
    codec: RecordCodec<StoredPermissions>,
    options: PermissionReadOptions,
  ): Promise<PermissionContent> {
    const cached = this.#cache.get(key);
    if (cached !== undefined && this.#clock() - cached.readAtMillis < (options.maxAgeMs ?? 0)) return cached.content;
    const readAtMillis = this.#clock();
    const item = await this.#metadata.get(key, { signal: options.signal });
    const content = item === undefined ? EMPTY : contentOf(codec.decode(item.value, item.key));
    this.#cache.set(key, { content, readAtMillis });
    return content;
  }

  /** CAS loop: `change` maps the stored content to the content to store (nothing left: the record is deleted). */
  async #update(
    key: string,
    codec: RecordCodec<StoredPermissions>,
    signal: AbortSignal | undefined,
    name: string,
    change: (current: PermissionContent) => PermissionContent,
  ): Promise<void> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const item = await this.#metadata.get(key, { signal });
      const current = item === undefined ? EMPTY : contentOf(codec.decode(item.value, item.key));
      const content = change(current);
      const empty = content.grants.length === 0 && content.subscriptionAuthMode === undefined;
      if (empty && item === undefined) return;
      if (content.grants.length > MAX_GRANTS) {
        throw new NereusError(
          ErrorCode.METADATA_LIMIT_EXCEEDED,
          `${name} grants more than ${String(MAX_GRANTS)} roles`,
          { retryable: false },
        );
      }
      const write: WriteOp = empty
        ? { type: "delete", key }
        : { type: "put", key, value: codec.encode({ name, ...content }) };
      try {
        const result = await this.#metadata.txn(
          { compares: [{ key, modRevision: item?.modRevision ?? 0 }], writes: [write] },
          { signal },
        );
        if (result.succeeded) {
          this.#cache.set(key, { content, readAtMillis: this.#clock() });
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

function withGrant(current: PermissionContent, grant: PermissionGrant): PermissionContent {
  const grants = [...current.grants.filter((existing) => existing.role !== grant.role), grant].sort((a, b) =>
    a.role < b.role ? -1 : a.role > b.role ? 1 : 0,
  );
  return { ...current, grants };
}

function contentOf(record: StoredPermissions): PermissionContent {
  return record.subscriptionAuthMode === undefined
    ? { grants: record.grants }
    : { grants: record.grants, subscriptionAuthMode: record.subscriptionAuthMode };
}
