// The durable store of namespace and topic policies (policies-codec.ts records in the metadata store). Reads may be
// served from a per-key cache no older than the caller allows (the broker's per-message lookups), writes go through
// a compare-and-swap loop and refresh the cache; a change leaving no policy set deletes the record. A topic's
// policies are stored under its partitioned topic's name, so a partition reads and writes those. It does not own the
// metadata store.
import { ErrorCode, MetadataAmbiguousError, type MetadataStore, NereusError, type WriteOp } from "@nereus/core";
import type { RecordCodec } from "@nereus/core/internal";
import {
  type StoredNamespacePolicies,
  type StoredTopicPolicies,
  namespacePoliciesCodec,
  topicPoliciesCodec,
} from "./policies-codec.js";
import type { PulsarKeyspace } from "./pulsar-keys.js";
import { type NamespaceName, type TopicName, parseTopicName } from "./topic-name.js";
import {
  type NamespacePolicies,
  type NamespacePolicyPatch,
  type TopicPolicies,
  type TopicPolicyPatch,
  applyPolicyPatch,
} from "./topic-policies.js";

/** Options of a policy read. */
export interface PolicyReadOptions {
  readonly signal?: AbortSignal;
  /** Serve a cached value read less than this long ago (default 0: read the store). */
  readonly maxAgeMs?: number;
}

interface CachedPolicies {
  readonly policies: NamespacePolicies;
  readonly readAtMillis: number;
}

const MAX_CAS_ATTEMPTS = 16;

/** Namespace- and topic-level policies of one cluster. */
export class PolicyStore {
  readonly #metadata: MetadataStore;
  readonly #keyspace: PulsarKeyspace;
  readonly #namespaceCodec: RecordCodec<StoredNamespacePolicies>;
  readonly #topicCodec: RecordCodec<StoredTopicPolicies>;
  readonly #clock: () => number;
  readonly #cache = new Map<string, CachedPolicies>();

  constructor(metadata: MetadataStore, keyspace: PulsarKeyspace, clock: () => number = Date.now) {
    this.#metadata = metadata;
    this.#keyspace = keyspace;
    this.#namespaceCodec = namespacePoliciesCodec(keyspace);
    this.#topicCodec = topicPoliciesCodec(keyspace);
    this.#clock = clock;
  }

  /** The policies set on `namespace` ({} when none). */
  async namespacePolicies(namespace: NamespaceName, options: PolicyReadOptions = {}): Promise<NamespacePolicies> {
    return this.#read(this.#namespaceKey(namespace), this.#namespaceCodec, options);
  }

  /**
   * Changes the policies of `namespace` (a value sets a policy, null removes it) and returns them. INVALID_ARGUMENT
   * or UNSUPPORTED_STORAGE_PROFILE for a bad value, before any I/O.
   */
  async updateNamespacePolicies(
    namespace: NamespaceName,
    patch: NamespacePolicyPatch,
    signal?: AbortSignal,
  ): Promise<NamespacePolicies> {
    applyPolicyPatch("namespace", {}, patch);
    return this.#update(this.#namespaceKey(namespace), this.#namespaceCodec, signal, (current) => {
      const policies = applyPolicyPatch("namespace", current, patch);
      return { name: namespace.name, policies };
    });
  }

  /** Removes every policy of `namespace`. */
  async removeNamespacePolicies(namespace: NamespaceName, signal?: AbortSignal): Promise<void> {
    await this.#update(this.#namespaceKey(namespace), this.#namespaceCodec, signal, () => ({
      name: namespace.name,
      policies: {},
    }));
  }

  /** The policies set on `topic` — for a partition, on its partitioned topic ({} when none). */
  async topicPolicies(topic: TopicName, options: PolicyReadOptions = {}): Promise<TopicPolicies> {
    return this.#read(this.#topicKey(topic), this.#topicCodec, options);
  }

  /**
   * Changes the policies of `topic` (for a partition: of its partitioned topic); a value sets a policy, null removes
   * it. INVALID_ARGUMENT for a bad value or a namespace-only policy, before any I/O. The topic need not exist: a
   * storage profile set before the topic is created is the profile it is created with.
   */
  async updateTopicPolicies(topic: TopicName, patch: TopicPolicyPatch, signal?: AbortSignal): Promise<TopicPolicies> {
    applyPolicyPatch("topic", {}, patch);
    const name = topic.partitionedTopicName;
    return this.#update(this.#topicKey(topic), this.#topicCodec, signal, (current) => ({
      name,
      policies: applyPolicyPatch("topic", current, patch),
    }));
  }

  /** Removes every policy of `topic` (for a partition: of its partitioned topic). */
  async removeTopicPolicies(topic: TopicName, signal?: AbortSignal): Promise<void> {
    const name = topic.partitionedTopicName;
    await this.#update(this.#topicKey(topic), this.#topicCodec, signal, () => ({ name, policies: {} }));
  }

  #namespaceKey(namespace: NamespaceName): string {
    return this.#keyspace.namespacePoliciesKey(namespace.tenant, namespace.namespace);
  }

  #topicKey(topic: TopicName): string {
    const partitioned = topic.partitionIndex < 0 ? topic : parseTopicName(topic.partitionedTopicName);
    return this.#keyspace.topicPoliciesKey(partitioned);
  }

  async #read<T extends { readonly policies: NamespacePolicies }>(
    key: string,
    codec: RecordCodec<T>,
    options: PolicyReadOptions,
  ): Promise<NamespacePolicies> {
    const cached = this.#cache.get(key);
    if (cached !== undefined && this.#clock() - cached.readAtMillis < (options.maxAgeMs ?? 0)) {
      return cached.policies;
    }
    const readAtMillis = this.#clock();
    const item = await this.#metadata.get(key, { signal: options.signal });
    const policies = item === undefined ? {} : codec.decode(item.value, item.key).policies;
    this.#cache.set(key, { policies, readAtMillis });
    return policies;
  }

  /** CAS loop: `change` maps the stored policies to the record to store (no policy left: the record is deleted). */
  async #update<T extends { readonly policies: NamespacePolicies }>(
    key: string,
    codec: RecordCodec<T>,
    signal: AbortSignal | undefined,
    change: (current: NamespacePolicies) => T,
  ): Promise<T["policies"]> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const item = await this.#metadata.get(key, { signal });
      const current = item === undefined ? {} : codec.decode(item.value, item.key).policies;
      const next = change(current);
      const empty = Object.keys(next.policies).length === 0;
      if (empty && item === undefined) return next.policies;
      const write: WriteOp = empty ? { type: "delete", key } : { type: "put", key, value: codec.encode(next) };
      try {
        const result = await this.#metadata.txn(
          { compares: [{ key, modRevision: item?.modRevision ?? 0 }], writes: [write] },
          { signal },
        );
        if (result.succeeded) {
          this.#cache.set(key, { policies: next.policies, readAtMillis: this.#clock() });
          return next.policies;
        }
      } catch (error) {
        // A lost response: read again (the change is idempotent, so applying it to what was stored is right).
        if (!MetadataAmbiguousError.isAmbiguous(error)) throw error;
      }
    }
    throw new NereusError(ErrorCode.METADATA_CONDITION_FAILED, `policies at ${key} kept changing`, {
      retryable: true,
    });
  }
}
