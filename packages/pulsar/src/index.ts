// Public API of @nereus/pulsar: the sans-IO Pulsar binary-protocol codec, as the `protocol` namespace (also
// importable as @nereus/pulsar/protocol), and the storage side of the adapter: topic names and incarnations, the
// managed-ledger facade over core's streams (MessageId = virtual ledger id + stream offset), what the broker reads
// from stored entries, the producer sequences of broker-side deduplication, namespace and topic policies, the schema
// registry, subscriptions with dispatch over durable cursors, the broker-side command handlers (one
// PulsarConnection per client socket), and the authentication and authorization of clients.
export * as protocol from "./protocol/index.js";

// Topic names, incarnations and partitioned topics.
export {
  parseTopicName,
  parseNamespaceName,
  partitionTopicName,
  isCanonicalTopicName,
  type TopicName,
  type NamespaceName,
} from "./topics/topic-name.js";
export {
  MIN_VIRTUAL_LEDGER_ID,
  MAX_VIRTUAL_LEDGER_ID,
  type PulsarTopic,
  type PulsarTopicState,
} from "./topics/pulsar-topic.js";
export type { TopicRegistry, CreateOrGetResult, TopicStreams } from "./topics/topic-registry.js";
export type { PulsarPartitionedTopic } from "./topics/partitioned-topic.js";
export type { PartitionedTopicRegistry, PartitionedTopicChange } from "./topics/partitioned-topic-registry.js";
export type { PulsarKeyspace } from "./topics/pulsar-keys.js";

// Namespace and topic policies, and the schema registry.
export { PolicyStore, type PolicyReadOptions } from "./topics/policy-store.js";
export { PolicyResolver, DEFAULT_POLICY_CACHE_MS } from "./topics/policy-resolver.js";
export {
  DEFAULT_AUTO_TOPIC_CREATION,
  type AutoTopicCreation,
  type AutoTopicType,
  type TopicPolicies,
  type NamespacePolicies,
  type EffectivePolicies,
  type TopicPolicyPatch,
  type NamespacePolicyPatch,
} from "./topics/topic-policies.js";
export { SchemaRegistry, type SchemaRegistration } from "./schemas/schema-registry.js";
export type { StoredSchema } from "./schemas/stored-schema.js";
export { encodeSchemaVersion, decodeSchemaVersion } from "./schemas/schema-version.js";

// The managed-ledger facade.
export {
  ManagedLedgerFactory,
  type ManagedLedgerFactoryOptions,
  type OpenLedgerOptions,
} from "./ledger/managed-ledger-factory.js";
export { ManagedLedger } from "./ledger/managed-ledger.js";
export {
  DEFAULT_LEDGER_LIMITS,
  type ManagedLedgerLimits,
  type ManagedLedgerOptions,
  type LedgerStreams,
} from "./ledger/managed-ledger-options.js";
export {
  type ManagedLedgerState,
  type AddEntryResult,
  type LedgerEntry,
  type ReadEntriesOptions,
  type ReadEntriesResult,
  type TrimOptions,
} from "./ledger/ledger-entries.js";
export {
  EARLIEST_POSITION,
  LATEST_POSITION,
  positionOfMessageId,
  messageIdOfPosition,
  comparePositions,
  formatPosition,
  type Position,
} from "./ledger/position.js";
export { PositionMapping, type LedgerBounds, type ResolvedPosition } from "./ledger/position-mapping.js";
export { ledgerRefusalOf, type LedgerRefusal } from "./ledger/ledger-errors.js";
export { mapStorageError, type PulsarErrorMapping } from "./ledger/map-storage-error.js";
export { ledgerEntrySource } from "./ledger/ledger-entry-source.js";

// Stored entries.
export { parseEntryMetadata, describeEntry, type EntryMetadata } from "./entries/entry-metadata.js";
export { stickyKeyOf } from "./entries/sticky-key.js";

// Broker-side deduplication.
export { ProducerSequences, NO_SEQUENCE_ID, type SequenceVerdict } from "./dedup/producer-sequences.js";
export type { DedupCheckpoint, ProducerSequence } from "./dedup/dedup-checkpoint-codec.js";
export {
  recoverProducerSequences,
  catchUpProducerSequences,
  writeDedupCheckpoint,
  type RecoverProducerSequencesInput,
  type RecoveredProducerSequences,
  type CatchUpProducerSequencesInput,
} from "./dedup/recover-producer-sequences.js";

// Subscriptions and dispatch.
export * from "./subscriptions/index.js";

// The broker side: per-connection command handlers over the ledgers and subscriptions.
export {
  createPulsarBroker,
  type PulsarBroker,
  type PulsarBrokerOptions,
  type PulsarBrokerContext,
} from "./broker/pulsar-broker.js";
export type { OwnerUrls, PulsarTopicOwnership } from "./broker/topic-lookup.js";
export { PulsarConnection, BROKER_PROTOCOL_VERSION, type ConnectionSink } from "./broker/pulsar-connection.js";
export { PublishBuffer, type ReadControl } from "./broker/publish-backpressure.js";
export { TopicMessageCounters, OTHER_TOPICS, type MessageCounts } from "./broker/topic-message-counters.js";

// The admin REST API (v2 paths of Pulsar's PulsarAdmin) without HTTP.
export { createPulsarAdmin, type PulsarAdmin, type PulsarAdminOptions } from "./admin/pulsar-admin.js";
export type { AdminMethod, AdminRequest, AdminResponse } from "./admin/admin-exchange.js";
export { parseJsonText, stringifyJson, type JsonValue, type JsonObject } from "./admin/json-text.js";

// Authentication (tokens) and authorization (permissions) of Pulsar clients.
export {
  createTokenVerifier,
  TOKEN_PUBLIC_ALGORITHMS,
  type TokenVerifier,
  type TokenVerifierOptions,
  type TokenKey,
  type TokenPublicAlgorithm,
  type VerifiedToken,
} from "./auth/token-verifier.js";
export { PulsarAuthRefusal, type AuthRefusalKind } from "./auth/auth-refusal.js";
export type { PulsarAuthOptions, BrokerAuth } from "./auth/broker-auth.js";
export { AUTH_ACTIONS, type AuthAction } from "./auth/auth-actions.js";
