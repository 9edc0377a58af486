// What the broker asks of the policies while it serves clients: a topic's effective policies (its own, else its
// namespace's, else the broker's defaults), read through the policy store's cache so that per-producer and
// per-message lookups cost no metadata read most of the time. A change made on another broker is seen within the
// cache's age; one made through the same PolicyStore at once.
import type { PolicyStore } from "./policy-store.js";
import type { NamespaceName, TopicName } from "./topic-name.js";
import { type AutoTopicCreation, type EffectivePolicies, effectivePolicies } from "./topic-policies.js";

/** How long a policy read may be reused (milliseconds) unless the resolver is told otherwise. */
export const DEFAULT_POLICY_CACHE_MS = 1_000;

/** Effective policies of topics over a policy store and the broker's defaults. */
export class PolicyResolver {
  readonly store: PolicyStore;
  readonly defaults: EffectivePolicies;
  readonly #maxAgeMs: number;

  constructor(store: PolicyStore, defaults: EffectivePolicies, maxAgeMs = DEFAULT_POLICY_CACHE_MS) {
    this.store = store;
    this.defaults = defaults;
    this.#maxAgeMs = maxAgeMs;
  }

  /** The effective policies of `topic` (a partition's are its partitioned topic's). */
  async effective(topic: TopicName, signal?: AbortSignal): Promise<EffectivePolicies> {
    const options = { signal, maxAgeMs: this.#maxAgeMs };
    const [namespace, own] = await Promise.all([
      this.store.namespacePolicies(namespaceOf(topic), options),
      this.store.topicPolicies(topic, options),
    ]);
    return effectivePolicies(this.defaults, namespace, own);
  }

  /** Whether the broker deduplicates the producers of `topic`. */
  async deduplicationEnabled(topic: TopicName, signal?: AbortSignal): Promise<boolean> {
    return (await this.effective(topic, signal)).deduplicationEnabled;
  }

  /** Whether and how a topic of `namespace` that does not exist is created when a client uses it. */
  async autoTopicCreation(namespace: NamespaceName, signal?: AbortSignal): Promise<AutoTopicCreation> {
    const policies = await this.store.namespacePolicies(namespace, { signal, maxAgeMs: this.#maxAgeMs });
    return policies.autoTopicCreation ?? this.defaults.autoTopicCreation;
  }
}

/** The namespace of `topic`. */
export function namespaceOf(topic: TopicName): NamespaceName {
  return { name: `${topic.tenant}/${topic.namespace}`, tenant: topic.tenant, namespace: topic.namespace };
}
