// Public API of @nereus/kafka: the broker over the storage core (createKafkaBroker and its handler seam), the
// classic consumer-group coordinator, and the sans-IO wire codec as the `protocol` namespace (also importable as
// @nereus/kafka/protocol). Every export is named here.
export * as protocol from "./protocol/index.js";

// Consumer groups (classic protocol).
export {
  GroupCoordinator,
  createGroupCoordinator,
  systemGroupClock,
  type GroupCoordinatorOptions,
  type GroupCoordinatorLogger,
  type GroupCoordinatorMetrics,
  type GroupListing,
  type GroupOffsets,
  type CommittedOffset,
  type GroupState,
  type GroupClock,
  type GroupTimer,
  type GroupTopicLookup,
  type GroupRequestContext,
  type GroupApiHandler,
  type GroupApiHandlers,
  type GroupOwnership,
  type CoordinatorEndpoint,
} from "./groups/index.js";

// Topics: the stream that holds each partition.
export { partitionStreamName } from "./topics/kafka-topic.js";

// Broker and its handler seam.
export { createKafkaBroker, type KafkaBroker, type KafkaBrokerOptions } from "./broker/create-kafka-broker.js";
export type { LogDirectory } from "./broker/broker-services.js";
export type { BrokerEndpoint, PartitionOwnership } from "./broker/partition-ownership.js";
export type { KafkaConnection } from "./broker/kafka-connection.js";
export {
  NO_RESPONSE,
  type NoResponse,
  type ApiKeyName,
  type ApiRequest,
  type KafkaApiHandler,
  type KafkaApiHandlers,
  type RequestContext,
} from "./broker/kafka-api-handler.js";
export { type KafkaBrokerLogger, SILENT_LOGGER } from "./logging/broker-logger.js";
export type { KafkaBrokerMetrics, MetricFamily } from "./broker/broker-metrics.js";
export type { PartitionLogTuning } from "./log/partition-logs.js";
export { ANONYMOUS_PRINCIPAL, formatPrincipal, type KafkaPrincipal } from "./security/kafka-principal.js";
export { SASL_MECHANISMS, type KafkaSaslOptions, type SaslMechanismName } from "./security/sasl/sasl-options.js";
export { bootstrapScramUsers, type InitialScramUser } from "./security/sasl/bootstrap-scram-users.js";
export type { KafkaAuthorizationOptions } from "./security/acl/kafka-authorizer.js";
export {
  type ConnectionTransport,
  PLAINTEXT_TRANSPORT,
  certificatePrincipal,
  SECURITY_PROTOCOLS,
  type SecurityProtocol,
  requiresSasl,
  usesTls,
} from "./security/connection-transport.js";
