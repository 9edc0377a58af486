// The topic lookup every partition-addressed request starts with (Produce, Fetch, ListOffsets, DeleteRecords): by
// name (the registry's cache first) or by topic id. A topic that does not exist is `absent`; a lookup that fails in
// storage is that failure, mapped once (map-storage-error.ts) and logged, never reported as an unknown topic (a
// client that hears "unknown" may give up or recreate the topic; a storage error is retriable).
import type { KafkaTopic } from "../topics/kafka-topic.js";
import type { BrokerServices } from "./broker-services.js";
import { mapStorageError } from "../log/map-storage-error.js";

/** What a topic lookup came to. */
export type TopicLookup =
  | { readonly kind: "found"; readonly topic: KafkaTopic }
  | { readonly kind: "absent" }
  | { readonly kind: "failed"; readonly errorCode: number };

/** How a request names its topic. */
export type TopicReference = { readonly name: string } | { readonly topicId: string };

/** Looks `reference` up; never throws (a storage failure is `failed` with the Kafka error code it maps to). */
export async function lookupTopic(
  services: BrokerServices,
  reference: TopicReference,
  signal: AbortSignal,
): Promise<TopicLookup> {
  try {
    const topic =
      "name" in reference
        ? (services.registry.cached(reference.name) ?? (await services.registry.lookup(reference.name, signal)))
        : await services.registry.lookupById(reference.topicId, signal);
    return topic === undefined ? { kind: "absent" } : { kind: "found", topic };
  } catch (error) {
    const mapped = mapStorageError(error);
    services.logger.warn("topic lookup failed", { ...reference, error: mapped.message });
    return { kind: "failed", errorCode: mapped.errorCode };
  }
}
