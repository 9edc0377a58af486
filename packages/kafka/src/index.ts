// Public API of @nereus/kafka: the broker over the storage core (createKafkaBroker and its handler seam), the
// classic consumer-group coordinator, and the sans-IO wire codec as the `protocol` namespace (also importable as
// @nereus/kafka/protocol). Every export is named here.
export * as protocol from "./protocol/index.js";

// Consumer groups (classic protocol).
export {
  GroupCoordinator,
  createGroupCoordinator,
  ConsumerGroup,
  CommittedOffsetStore,
  committedOffsetCodec,
  groupRootCodec,
  committedOffsetKey,
  groupOffsetsPrefix,
  groupRootKey,
  groupRootsPrefix,
  parseCommittedOffsetKey,
  parseGroupRootKey,
  selectProtocol,
  systemGroupClock,
  type GroupCoordinatorOptions,
  type GroupCoordinatorLogger,
  type GroupCoordinatorMetrics,
  type GroupClient,
  type GroupTopicLookup,
  type GroupRequestContext,
  type GroupApiHandler,
  type GroupApiHandlers,
  type RequestOf,
  type GroupState,
  type GroupPolicy,
  type GroupSummary,
  type GroupClock,
  type GroupTimer,
  type OffsetToCommit,
  type GroupOffsets,
  type CommittedOffset,
  type GroupRoot,
  type CommittedOffsetKeyLocation,
  type GroupRootKeyLocation,
} from "./groups/index.js";

// Broker.
export { createKafkaBroker, ADVERTISED_VERSION_CAPS, type KafkaBroker, type KafkaBrokerOptions } from "./broker/create-kafka-broker.js";
export type { LogDirectory } from "./broker/broker-services.js";
export type { KafkaConnection } from "./broker/kafka-connection.js";
export { DEFAULT_RETENTION_CHECK_INTERVAL_MS, type RetentionSweep } from "./broker/retention-task.js";
export {
  NO_RESPONSE,
  type NoResponse,
  type ApiKeyName,
  type ApiRequest,
  type BrokerIdentity,
  type KafkaApiHandler,
  type KafkaApiHandlers,
  type RequestContext,
  type TopicCatalog,
  type TopicDescription,
} from "./broker/kafka-api-handler.js";
export { type KafkaBrokerLogger, SILENT_LOGGER } from "./logging/broker-logger.js";
export type { KafkaBrokerMetrics, MetricFamily } from "./broker/broker-metrics.js";
export { mapStorageError, type KafkaErrorMapping, type PartitionAction } from "./log/map-storage-error.js";
export type { PartitionLogTuning } from "./log/partition-logs.js";

// Topics and adapter records in metadata.
export { KafkaKeyspace, KafkaKeySegment } from "./topics/kafka-keys.js";
export { type KafkaTopic, type KafkaTopicState, partitionStreamName } from "./topics/kafka-topic.js";
export { STORAGE_PROFILE_CONFIG, TOPIC_CONFIGS, type TopicConfigDefinition } from "./topics/topic-configs.js";
