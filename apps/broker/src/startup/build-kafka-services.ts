// Start-up step 3: the Kafka services over the opened storage — the group coordinator, then the Kafka broker that
// answers the group APIs through the coordinator's handlers — advertised at the address clients are told to use.
// Both are registered for undo (the broker closes before the coordinator).
import {
  type GroupCoordinator,
  type GroupOwnership,
  type KafkaBroker,
  type PartitionOwnership,
  createGroupCoordinator,
  createKafkaBroker,
} from "@nereus/kafka";
import type { BrokerConfig } from "../config/broker-config.js";
import { kafkaListenersOf } from "../config/listeners-config.js";
import { kafkaAuthorizationOptions } from "../config/kafka-authorization-config.js";
import { kafkaSaslOptions } from "../config/kafka-sasl-config.js";
import type { AdvertisedAddress } from "../listener/kafka-listener-group.js";
import type { BrokerLogger } from "../logging/broker-logger.js";
import type { BrokerStorage } from "../storage/open-storage.js";
import type { StartupUndo } from "./startup-undo.js";

/** The broker's Kafka services. */
export interface KafkaServices {
  readonly coordinator: GroupCoordinator;
  readonly broker: KafkaBroker;
}

/** True for an address that binds every interface (not one clients can be told to connect to). */
function wildcard(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "[::]";
}

/**
 * The host clients are told to connect to, on the primary Kafka listener: the configured one, else the bound host
 * (loopback for a wildcard).
 */
export function advertisedHostOf(config: BrokerConfig): string {
  const primary = kafkaListenersOf(config.kafka)[0]!;
  return primary.advertisedHost ?? (wildcard(primary.host) ? "127.0.0.1" : primary.host);
}

/** The addresses the Kafka listeners advertise: the primary listener's, and each listener's by name. */
export interface AdvertisedListeners {
  readonly primary: AdvertisedAddress;
  readonly byListener: ReadonlyMap<string, AdvertisedAddress>;
}

/**
 * Creates the group coordinator and the Kafka broker of `config`, advertised at each listener's address; with
 * `ownership` (cluster membership) they serve only the partitions and groups this broker holds.
 */
export function buildKafkaServices(
  config: BrokerConfig,
  storage: BrokerStorage,
  advertised: AdvertisedListeners,
  logger: BrokerLogger,
  undo: StartupUndo,
  ownership?: PartitionOwnership & GroupOwnership,
): KafkaServices {
  const advertisedHost = advertised.primary.host;
  const advertisedPort = advertised.primary.port;
  const coordinator = createGroupCoordinator({
    metadata: storage.metadata,
    cluster: config.cluster,
    nodeId: config.nodeId,
    host: advertisedHost,
    port: advertisedPort,
    initialRebalanceDelayMs: config.groups.initialRebalanceDelayMs,
    minSessionTimeoutMs: config.groups.minSessionTimeoutMs,
    maxSessionTimeoutMs: config.groups.maxSessionTimeoutMs,
    logger,
    ...(ownership === undefined ? {} : { ownership }),
  });
  undo.push(() => coordinator.close());
  const broker = createKafkaBroker({
    store: storage.store,
    metadata: storage.metadata,
    cluster: config.cluster,
    nodeId: config.nodeId,
    advertisedHost,
    advertisedPort,
    advertisedListeners: advertised.byListener,
    defaultPartitions: config.topics.defaultPartitions,
    autoCreateTopics: config.topics.autoCreate,
    maxPartitionsPerTopic: config.topics.maxPartitionsPerTopic,
    maxPartitionsPerBroker: config.topics.maxPartitionsPerBroker,
    maxTopicsPerMetadataRequest: config.topics.maxTopicsPerMetadataRequest,
    maxTopicsPerCreateTopicsRequest: config.topics.maxTopicsPerCreateTopicsRequest,
    autoCreateTopicsPerSecond: config.topics.autoCreatePerSecond,
    ...(config.topics.autoCreateBurst === undefined ? {} : { autoCreateTopicsBurst: config.topics.autoCreateBurst }),
    retentionCheckIntervalMs: config.topics.retentionCheckIntervalMs,
    logDir: storage.logDir,
    defaultProfile: config.storage.defaultProfile,
    groupHandlers: coordinator.handlers,
    authorization: kafkaAuthorizationOptions(config.kafka.authorization),
    sasl: kafkaSaslOptions(config.kafka.sasl),
    partitionLogs: {
      maxInFlightAppends: config.kafka.maxInFlightAppends,
      pipelinedAppendMinBytes: config.kafka.pipelinedAppendMinBytes,
      readAheadMaxBytes: config.kafka.readAheadMaxBytes,
      tailCacheBytes: config.kafka.tailCacheBytes,
      tailCacheMaxBytes: config.kafka.tailCacheMaxBytes,
    },
    logger,
    ...(ownership === undefined ? {} : { ownership }),
  });
  undo.push(() => broker.close());
  return { coordinator, broker };
}
