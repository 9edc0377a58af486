// The Kafka broker over the storage core: topic registry, partition logs, producer ids and the API handlers,
// served through sans-IO connections (the listener that owns sockets lives in apps/broker). One logical broker:
// this node leads every partition. It runs the retention sweep (retention-task.ts). It owns none of the stores it is
// given; close() stops serving and the sweep, waits for running appends and writes producer-state checkpoints, and
// leaves the stores open.
import { ErrorCode, type MetadataStore, NereusError, type StorageProfileName, type StreamStore } from "@nereus/core";
import { type MaxVersionCaps } from "../protocol/advertised-api-versions.js";
import type { PartitionLogTuning } from "../log/partition-logs.js";
import { DEFAULT_PRODUCER_ID_BLOCK_SIZE, ProducerIdAllocator } from "../producers/producer-id-allocator.js";
import { TopicRegistry } from "../topics/topic-registry.js";
import { type KafkaBrokerLogger, SILENT_LOGGER } from "../logging/broker-logger.js";
import type { KafkaBrokerMetrics } from "./broker-metrics.js";
import { buildApiHandlerTable } from "./api-handler-table.js";
import {
  brokerSettings,
  checkDefaultProfile,
  checkIdentity,
  checkLogDir,
  nonNegativeInteger,
  positiveInteger,
  positiveNumber,
} from "./check-broker-options.js";
import { createMeteredPartitionLogs } from "./metered-partition-logs.js";
import type { BrokerServices, LogDirectory } from "./broker-services.js";
import type { PartitionOwnership } from "./partition-ownership.js";
import type { BrokerIdentity, KafkaApiHandlers, TopicCatalog } from "./kafka-api-handler.js";
import { BrokerConnection, type KafkaConnection } from "./kafka-connection.js";
import { type ConnectionTransport, certificatePrincipal } from "../security/connection-transport.js";
import { type ListenerAddress, listenerIdentity } from "./listener-identity.js";
import { TokenBucket } from "./token-bucket.js";
import { createBrokerSasl } from "./broker-sasl.js";
import type { KafkaSaslOptions } from "../security/sasl/sasl-options.js";
import { createKafkaAuthorizer, type KafkaAuthorizationOptions } from "../security/acl/kafka-authorizer.js";
import { authorizeHandlers } from "./authorize-handlers.js";
import { DEFAULT_RETENTION_CHECK_INTERVAL_MS, RetentionTask, type RetentionSweep } from "./retention-task.js";

/** Options of {@link createKafkaBroker}. */
export interface KafkaBrokerOptions {
  /** The stream store partitions are stored in (not owned). */
  readonly store: StreamStore;
  /** The metadata store of the same cluster, for the adapter's own records (not owned). */
  readonly metadata: MetadataStore;
  /** Cluster name: adapter records live under /nereus/clusters/{cluster}/kafka/. */
  readonly cluster: string;
  readonly nodeId: number;
  /** Host and port clients are told to connect to (Metadata, FindCoordinator). */
  readonly advertisedHost: string;
  readonly advertisedPort: number;
  /**
   * The address each listener advertises, by listener name: a connection's requests see its listener's address as
   * their broker identity (Metadata and FindCoordinator answer it). A listener not named here advertises
   * advertisedHost/advertisedPort.
   */
  readonly advertisedListeners?: ReadonlyMap<string, ListenerAddress>;
  /** Cluster id reported in Metadata (default: the cluster name). */
  readonly clusterId?: string;
  /** Partitions of auto-created topics and of CreateTopics with numPartitions -1 (default 1, Kafka's num.partitions). */
  readonly defaultPartitions?: number;
  /** Create unknown topics named in Metadata requests that allow it (default true). */
  readonly autoCreateTopics?: boolean;
  /** Storage profile of topics created without `nereus.storage.profile` (default OBJECT_WAL_SYNC_OBJECT). */
  readonly defaultProfile?: StorageProfileName;
  /** Handlers of the consumer-group APIs and FindCoordinator; an API without a handler is not advertised. */
  readonly groupHandlers?: KafkaApiHandlers;
  readonly logger?: KafkaBrokerLogger;
  /** Largest partition count CreateTopics and CreatePartitions accept (default 10,000). */
  readonly maxPartitionsPerTopic?: number;
  /**
   * Most partitions all topics together may have (default 100,000): creations (CreateTopics, auto-creation) and
   * CreatePartitions above it are refused with POLICY_VIOLATION. Counts this broker's own changes at once and other
   * brokers' from its next topic listing (a Metadata request for all topics, the retention sweep).
   */
  readonly maxPartitionsPerBroker?: number;
  /**
   * Most topics one Metadata request may name (default 10,000). The first this many distinct names are answered;
   * the names above are answered POLICY_VIOLATION without being looked up or created.
   */
  readonly maxTopicsPerMetadataRequest?: number;
  /** Most topics one CreateTopics request may name (default 1,000); the entries above are answered POLICY_VIOLATION. */
  readonly maxTopicsPerCreateTopicsRequest?: number;
  /**
   * Topics Metadata requests may auto-create per second, over all connections (default 100): a token bucket that
   * holds `autoCreateTopicsBurst` tokens. A name that finds the bucket empty is answered LEADER_NOT_AVAILABLE
   * (retriable: the client asks again and the topic is created when a token is free).
   */
  readonly autoCreateTopicsPerSecond?: number;
  /** Auto-creations the bucket saves up, i.e. allowed at once after a quiet period (default: `autoCreateTopicsPerSecond`, at least 1). */
  readonly autoCreateTopicsBurst?: number;
  /** Cap on a Fetch's maxWaitMs (default 30,000). */
  readonly maxFetchWaitMs?: number;
  /** Producer ids reserved per metadata write (default 1,000). */
  readonly producerIdBlockSize?: number;
  readonly partitionLogs?: PartitionLogTuning;
  /**
   * Period of the retention sweep that enforces topics' `retention.ms` (default 300,000, Kafka's
   * `log.retention.check.interval.ms`; 0 = no timer, sweeps run only through `enforceRetention`).
   */
  readonly retentionCheckIntervalMs?: number;
  /** The log directory DescribeLogDirs reports (default: path `nereus://{cluster}`, capacity unknown). */
  readonly logDir?: LogDirectory;
  /** Wall clock in ms (default Date.now). */
  readonly clock?: () => number;
  /** What SASL listeners accept (absent: connections on SASL_PLAINTEXT / SASL_SSL listeners cannot authenticate). */
  readonly sasl?: KafkaSaslOptions;
  /** ACL authorization of every request (default: off, everything is allowed). */
  readonly authorization?: KafkaAuthorizationOptions;
  /** Partition leadership shared with other brokers (default: this broker leads every partition). */
  readonly ownership?: PartitionOwnership;
}

/** A running broker. */
export interface KafkaBroker extends AsyncDisposable {
  readonly identity: BrokerIdentity;
  /** Read access to the topics (for admin endpoints and group handlers). */
  readonly topics: TopicCatalog;
  readonly metrics: KafkaBrokerMetrics;
  /**
   * A new connection; `peer` is only used in logs and request contexts; `transport` names the listener it came in on
   * (default: the single PLAINTEXT listener).
   */
  openConnection(peer: string, transport?: ConnectionTransport): KafkaConnection;
  /**
   * Forgets the cached state of a partition this broker no longer leads (its log end and producer state are
   * reloaded from storage if it leads the partition again).
   */
  releasePartition(topicId: string, partition: number): void;
  /** Runs a retention sweep now (or joins the running one): every topic's records older than `retention.ms` go. */
  enforceRetention(): Promise<RetentionSweep>;
  /** Closes every connection, waits for running appends, writes producer-state checkpoints. Idempotent. */
  close(): Promise<void>;
}

/**
 * Highest version advertised per API, below the codec's maximum. None at present: Fetch v13-17 (topics by id) are
 * served since topic ids resolve through the registry.
 */
const ADVERTISED_VERSION_CAPS: MaxVersionCaps = {};

/** Creates a broker. Validates the options; then starts, in the background, the topic watch and the retention timer. */
export function createKafkaBroker(options: KafkaBrokerOptions): KafkaBroker {
  const identity = checkIdentity(options);
  const defaultProfile = checkDefaultProfile(options.defaultProfile);
  const clock = options.clock ?? Date.now;
  const logger = options.logger ?? SILENT_LOGGER;
  // Checked before anything is built; denials count into the metrics made below.
  const authorizer = createKafkaAuthorizer(options.authorization, {
    metadata: options.metadata,
    cluster: options.cluster,
    logger,
    clock,
    onDenied: (api) => metrics.authorizationDenied(api),
  });
  const storageClosing = new AbortController();
  const brokerClosing = new AbortController();
  const autoCreateTopicsPerSecond = positiveNumber(
    "autoCreateTopicsPerSecond",
    options.autoCreateTopicsPerSecond ?? 100,
  );
  const autoCreateTopicsBurst = positiveInteger(
    "autoCreateTopicsBurst",
    options.autoCreateTopicsBurst ?? Math.max(1, Math.floor(autoCreateTopicsPerSecond)),
  );
  const registry = new TopicRegistry({
    store: options.store,
    metadata: options.metadata,
    cluster: options.cluster,
    logger,
    clock,
    maxPartitions: positiveInteger("maxPartitionsPerBroker", options.maxPartitionsPerBroker ?? 100_000),
  });
  const { metrics, partitionLogs } = createMeteredPartitionLogs({
    ...options.partitionLogs,
    store: options.store,
    metadata: options.metadata,
    keyspace: registry.keyspace,
    logger,
    clock,
    closing: storageClosing.signal,
  });
  registry.onDeleted((topic) => partitionLogs.invalidateTopic(topic));
  const services: BrokerServices = {
    identity,
    settings: brokerSettings(options, defaultProfile),
    logDir: checkLogDir(options.logDir ?? { path: `nereus://${options.cluster}` }),
    registry,
    logs: partitionLogs,
    producerIds: new ProducerIdAllocator(
      options.metadata,
      registry.keyspace,
      options.producerIdBlockSize ?? DEFAULT_PRODUCER_ID_BLOCK_SIZE,
    ),
    autoCreations: new TokenBucket(autoCreateTopicsPerSecond, autoCreateTopicsBurst, clock),
    metrics,
    logger,
    clock,
    ownership: options.ownership,
    authorizer,
  };

  const retention = new RetentionTask({
    registry,
    logs: partitionLogs,
    logger,
    clock,
    intervalMs: nonNegativeInteger(
      "retentionCheckIntervalMs",
      options.retentionCheckIntervalMs ?? DEFAULT_RETENTION_CHECK_INTERVAL_MS,
    ),
    signal: brokerClosing.signal,
    onSweep: (sweep) => {
      metrics.retentionSweeps += 1;
      metrics.retentionDeletedRecords += sweep.deletedRecords;
      metrics.retentionFailures += sweep.failures;
    },
  });
  const sasl = createBrokerSasl({ ...options, logger, metrics });
  const { handlers, maxVersions, caps } = buildApiHandlerTable(
    services,
    authorizeHandlers({ ...options.groupHandlers, ...sasl.handlers }, authorizer),
    ADVERTISED_VERSION_CAPS,
  );

  const topics: TopicCatalog = {
    lookup: (name, signal) => registry.lookup(name, signal),
    list: (signal) => registry.list(signal),
  };
  const connections = new Set<BrokerConnection>();
  let nextConnectionId = 1;
  let closed: Promise<void> | undefined;

  const broker: KafkaBroker = {
    identity,
    topics,
    metrics,
    releasePartition(topicId: string, partition: number): void {
      partitionLogs.invalidatePartition(topicId, partition);
    },
    enforceRetention(): Promise<RetentionSweep> {
      if (closed !== undefined)
        return Promise.reject(new NereusError(ErrorCode.STORAGE_CLOSED, "Kafka broker closed", { retryable: false }));
      return retention.sweep();
    },
    openConnection(peer: string, transport?: ConnectionTransport): KafkaConnection {
      const connection = new BrokerConnection(
        nextConnectionId++,
        peer,
        {
          handlers,
          maxVersions,
          caps,
          identity: listenerIdentity(identity, transport, options.advertisedListeners),
          topics,
          logger,
          metrics,
          clock,
          brokerClosing: brokerClosing.signal,
          sasl: sasl.environment,
          onClose: (closedConnection) => {
            if (connections.delete(closedConnection)) metrics.connectionsActive -= 1;
          },
        },
        transport,
      );
      const principal = transport === undefined ? undefined : certificatePrincipal(transport);
      if (principal !== undefined) connection.principal = principal;
      metrics.connectionsOpened += 1;
      if (closed !== undefined) {
        connection.close();
        return connection;
      }
      connections.add(connection);
      metrics.connectionsActive += 1;
      return connection;
    },
    close(): Promise<void> {
      closed ??= (async () => {
        brokerClosing.abort(new NereusError(ErrorCode.STORAGE_CLOSED, "Kafka broker closed", { retryable: false }));
        for (const connection of [...connections]) connection.close();
        await retention.close();
        await registry.close();
        await authorizer.close();
        try {
          await partitionLogs.close();
        } finally {
          storageClosing.abort(new NereusError(ErrorCode.STORAGE_CLOSED, "Kafka broker closed", { retryable: false }));
        }
        logger.info("Kafka broker closed", { nodeId: identity.nodeId });
      })();
      return closed;
    },
    async [Symbol.asyncDispose](): Promise<void> {
      await broker.close();
    },
  };
  retention.start();
  registry.follow();
  authorizer.start();
  return broker;
}
