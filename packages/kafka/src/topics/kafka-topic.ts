// The adapter's own view of a Kafka topic as stored in metadata: its identity (name and a random UUID topic id),
// lifecycle state, partition count, storage profile and explicit topic configs. One stream per partition holds the
// data (see `partitionStreamName`); Kafka-specific types stay in the adapter, the core only sees streams.
import type { StorageProfile } from "@nereus/core";

/** Lifecycle of a topic record: CREATING → ACTIVE → DELETING → (record removed). */
export type KafkaTopicState = "CREATING" | "ACTIVE" | "DELETING";

/** A stored topic. Invariants: `partitionCount >= 1`; `topicId` is a non-zero lowercase UUID; configs sorted. */
export interface KafkaTopic {
  readonly name: string;
  readonly topicId: string;
  readonly state: KafkaTopicState;
  readonly partitionCount: number;
  /** Canonical profile of every partition stream (immutable; `nereus.storage.profile` at creation). */
  readonly profile: StorageProfile;
  /** Topic configs set explicitly at creation (Kafka names), excluding `nereus.storage.profile`. */
  readonly configs: Readonly<Record<string, string>>;
  readonly createdAtMillis: number;
}

/**
 * The stream name of one partition: `kafka/{topicId}/{partition}`. Keyed by the topic id, not the name, so a
 * topic deleted and created again under the same name gets fresh streams.
 */
export function partitionStreamName(topicId: string, partition: number): string {
  return `kafka/${topicId}/${String(partition)}`;
}
