// The Kafka broker over the storage core: topic registry, partition logs, producer ids and the API handlers,
// served through sans-IO connections (the listener that owns sockets lives in apps/broker). One logical broker:
// this node leads every partition. It runs the retention sweep (retention-task.ts). It owns none of the stores it is
// given; close() stops serving and the sweep, waits for running appends and writes producer-state checkpoints, and
// leaves the stores open.
import { CANONICAL_STORAGE_PROFILES, ErrorCode, type MetadataStore, NereusError, type StorageProfileName, type StreamStore } from "@nereus/core";
import { canonicalizeProfile } from "@nereus/core/internal";
import { type MaxVersionCaps } from "../protocol/advertised-api-versions.js";
import { ApiKey } from "../protocol/api-key.js";
import { SUPPORTED_APIS, type SupportedApiKey } from "../protocol/supported-apis.js";
import { PartitionLogs, type PartitionLogTuning } from "../log/partition-logs.js";
import { DEFAULT_PRODUCER_ID_BLOCK_SIZE, ProducerIdAllocator } from "../producers/producer-id-allocator.js";
import { TopicRegistry } from "../topics/topic-registry.js";
import { type KafkaBrokerLogger, SILENT_LOGGER } from "../logging/broker-logger.js";
import { BrokerMetrics, type KafkaBrokerMetrics } from "./broker-metrics.js";
import type { BrokerServices, LogDirectory } from "./broker-services.js";
import { createAlterConfigsHandler, createIncrementalAlterConfigsHandler } from "./handlers/alter-configs-handler.js";
import { createApiVersionsHandler } from "./handlers/api-versions-handler.js";
import { createCreatePartitionsHandler } from "./handlers/create-partitions-handler.js";
import { createCreateTopicsHandler } from "./handlers/create-topics-handler.js";
import { createDeleteRecordsHandler } from "./handlers/delete-records-handler.js";
import { createDeleteTopicsHandler } from "./handlers/delete-topics-handler.js";
import { createDescribeConfigsHandler } from "./handlers/describe-configs-handler.js";
import { createDescribeLogDirsHandler } from "./handlers/describe-log-dirs-handler.js";
import { createFetchHandler } from "./handlers/fetch-handler.js";
import { createInitProducerIdHandler } from "./handlers/init-producer-id-handler.js";
import { createListOffsetsHandler } from "./handlers/list-offsets-handler.js";
import { createMetadataHandler } from "./handlers/metadata-handler.js";
import { createProduceHandler } from "./handlers/produce-handler.js";
import type { ApiKeyName, BrokerIdentity, KafkaApiHandler, KafkaApiHandlers, TopicCatalog } from "./kafka-api-handler.js";
import { BrokerConnection, type KafkaConnection } from "./kafka-connection.js";
import { TokenBucket } from "./token-bucket.js";
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
}

/** A running broker. */
export interface KafkaBroker extends AsyncDisposable {
  readonly identity: BrokerIdentity;
  /** Read access to the topics (for admin endpoints and group handlers). */
  readonly topics: TopicCatalog;
  readonly metrics: KafkaBrokerMetrics;
  /** A new connection; `peer` is only used in logs and request contexts. */
  openConnection(peer: string): KafkaConnection;
  /** Runs a retention sweep now (or joins the running one): every topic's records older than `retention.ms` go. */
  enforceRetention(): Promise<RetentionSweep>;
  /** Closes every connection, waits for running appends, writes producer-state checkpoints. Idempotent. */
  close(): Promise<void>;
}

/**
 * Highest version advertised per API, below the codec's maximum. None at present: Fetch v13-17 (topics by id) are
 * served since topic ids resolve through the registry.
 */
export const ADVERTISED_VERSION_CAPS: MaxVersionCaps = {};

const BUILT_IN_APIS: readonly SupportedApiKey[] = [
  ApiKey.ApiVersions,
  ApiKey.Metadata,
  ApiKey.Produce,
  ApiKey.Fetch,
  ApiKey.ListOffsets,
  ApiKey.InitProducerId,
  ApiKey.CreateTopics,
  ApiKey.DeleteTopics,
  ApiKey.DeleteRecords,
  ApiKey.DescribeConfigs,
  ApiKey.AlterConfigs,
  ApiKey.CreatePartitions,
  ApiKey.IncrementalAlterConfigs,
  ApiKey.DescribeLogDirs,
];

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false });
}

function positiveInteger(name: string, value: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > max) throw invalid(`${name} must be an integer in [1, ${String(max)}], got ${String(value)}`);
  return value;
}

function positiveNumber(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw invalid(`${name} must be a finite number > 0, got ${String(value)}`);
  return value;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw invalid(`${name} must be an integer >= 0, got ${String(value)}`);
  return value;
}

function checkLogDir(logDir: LogDirectory): LogDirectory {
  if (typeof logDir.path !== "string" || logDir.path.length === 0) throw invalid("logDir.path must be a non-empty string");
  if (logDir.capacity !== undefined && typeof logDir.capacity !== "function") throw invalid("logDir.capacity must be a function");
  return logDir;
}

/** Creates a broker. Validates the options; then starts, in the background, the topic watch and the retention timer. */
export function createKafkaBroker(options: KafkaBrokerOptions): KafkaBroker {
  if (!Number.isInteger(options.nodeId) || options.nodeId < 0 || options.nodeId > 0x7fff_ffff) throw invalid(`nodeId must be an int32 >= 0, got ${String(options.nodeId)}`);
  if (typeof options.advertisedHost !== "string" || options.advertisedHost.length === 0) throw invalid("advertisedHost must be a non-empty string");
  positiveInteger("advertisedPort", options.advertisedPort, 65_535);
  let defaultProfile;
  try {
    defaultProfile = canonicalizeProfile(options.defaultProfile ?? CANONICAL_STORAGE_PROFILES[0]);
  } catch (error) {
    throw invalid(`defaultProfile: ${NereusError.is(error) ? error.message : String(error)}`);
  }
  const clock = options.clock ?? Date.now;
  const logger = options.logger ?? SILENT_LOGGER;
  const identity: BrokerIdentity = {
    nodeId: options.nodeId,
    host: options.advertisedHost,
    port: options.advertisedPort,
    clusterId: options.clusterId ?? options.cluster,
  };
  const storageClosing = new AbortController();
  const brokerClosing = new AbortController();
  const autoCreateTopicsPerSecond = positiveNumber("autoCreateTopicsPerSecond", options.autoCreateTopicsPerSecond ?? 100);
  const autoCreateTopicsBurst = positiveInteger("autoCreateTopicsBurst", options.autoCreateTopicsBurst ?? Math.max(1, Math.floor(autoCreateTopicsPerSecond)));
  const registry = new TopicRegistry({
    store: options.store,
    metadata: options.metadata,
    cluster: options.cluster,
    logger,
    clock,
    maxPartitions: positiveInteger("maxPartitionsPerBroker", options.maxPartitionsPerBroker ?? 100_000),
  });
  // The gauges are read only after construction, when partitionLogs is initialized.
  const metrics = new BrokerMetrics({ partitions: () => partitionLogs.size, fenced: () => partitionLogs.fencedCount, readAheadBytes: () => partitionLogs.readAheadBytes, tailCacheBytes: () => partitionLogs.tailCacheBytes });
  const partitionLogs: PartitionLogs = new PartitionLogs({
    ...options.partitionLogs,
    store: options.store,
    metadata: options.metadata,
    keyspace: registry.keyspace,
    logger,
    clock,
    closing: storageClosing.signal,
    events: {
      appended: (batches, records, bytes) => {
        metrics.producedBatches += batches;
        metrics.producedRecords += records;
        metrics.producedBytes += bytes;
      },
      duplicate: () => (metrics.duplicateBatches += 1),
      fenced: () => (metrics.partitionFences += 1),
      loaded: (replayed) => {
        metrics.partitionLoads += 1;
        metrics.replayedBatches += replayed;
      },
      fetchRead: (source) => {
        if (source === "tail") metrics.fetchTailHits += 1;
        else if (source === "read-ahead") metrics.fetchReadAheadHits += 1;
        else metrics.fetchStorageReads += 1;
      },
    },
  });
  registry.onDeleted((topic) => partitionLogs.invalidateTopic(topic));
  const services: BrokerServices = {
    identity,
    settings: {
      defaultPartitions: positiveInteger("defaultPartitions", options.defaultPartitions ?? 1, 0x7fff_ffff),
      autoCreateTopics: options.autoCreateTopics ?? true,
      defaultProfile,
      maxPartitionsPerTopic: positiveInteger("maxPartitionsPerTopic", options.maxPartitionsPerTopic ?? 10_000, 0x7fff_ffff),
      maxFetchWaitMs: Math.max(0, options.maxFetchWaitMs ?? 30_000),
      maxTopicsPerMetadataRequest: positiveInteger("maxTopicsPerMetadataRequest", options.maxTopicsPerMetadataRequest ?? 10_000),
      maxTopicsPerCreateTopicsRequest: positiveInteger("maxTopicsPerCreateTopicsRequest", options.maxTopicsPerCreateTopicsRequest ?? 1_000),
    },
    logDir: checkLogDir(options.logDir ?? { path: `nereus://${options.cluster}` }),
    registry,
    logs: partitionLogs,
    producerIds: new ProducerIdAllocator(options.metadata, registry.keyspace, options.producerIdBlockSize ?? DEFAULT_PRODUCER_ID_BLOCK_SIZE),
    autoCreations: new TokenBucket(autoCreateTopicsPerSecond, autoCreateTopicsBurst, clock),
    metrics,
    logger,
    clock,
  };

  const retention = new RetentionTask({
    registry,
    logs: partitionLogs,
    logger,
    clock,
    intervalMs: nonNegativeInteger("retentionCheckIntervalMs", options.retentionCheckIntervalMs ?? DEFAULT_RETENTION_CHECK_INTERVAL_MS),
    signal: brokerClosing.signal,
    onSweep: (sweep) => {
      metrics.retentionSweeps += 1;
      metrics.retentionDeletedRecords += sweep.deletedRecords;
      metrics.retentionFailures += sweep.failures;
    },
  });

  const handlers = new Map<number, KafkaApiHandler>();
  for (const [name, handler] of Object.entries(options.groupHandlers ?? {}) as Array<[ApiKeyName, KafkaApiHandler | undefined]>) {
    if (handler === undefined) continue;
    const apiKey = ApiKey[name] as SupportedApiKey | undefined;
    if (apiKey === undefined) throw invalid(`groupHandlers: unknown API ${name}`);
    if (BUILT_IN_APIS.includes(apiKey)) throw invalid(`groupHandlers: ${name} is answered by the broker itself`);
    handlers.set(apiKey, handler);
  }
  const caps: Record<number, number | undefined> = { ...ADVERTISED_VERSION_CAPS };
  const maxVersions = new Map<number, number>();
  for (const api of Object.values(SUPPORTED_APIS)) {
    const present = BUILT_IN_APIS.includes(api.apiKey as SupportedApiKey) || handlers.has(api.apiKey);
    if (!present) caps[api.apiKey] = -1;
    else maxVersions.set(api.apiKey, Math.min(api.maxVersion, caps[api.apiKey] ?? api.maxVersion));
  }
  const built: Array<[SupportedApiKey, object]> = [
    [ApiKey.ApiVersions, createApiVersionsHandler(caps)],
    [ApiKey.Metadata, createMetadataHandler(services)],
    [ApiKey.Produce, createProduceHandler(services)],
    [ApiKey.Fetch, createFetchHandler(services)],
    [ApiKey.ListOffsets, createListOffsetsHandler(services)],
    [ApiKey.InitProducerId, createInitProducerIdHandler(services)],
    [ApiKey.CreateTopics, createCreateTopicsHandler(services)],
    [ApiKey.DeleteTopics, createDeleteTopicsHandler(services)],
    [ApiKey.DeleteRecords, createDeleteRecordsHandler(services)],
    [ApiKey.DescribeConfigs, createDescribeConfigsHandler(services)],
    [ApiKey.AlterConfigs, createAlterConfigsHandler(services)],
    [ApiKey.CreatePartitions, createCreatePartitionsHandler(services)],
    [ApiKey.IncrementalAlterConfigs, createIncrementalAlterConfigsHandler(services)],
    [ApiKey.DescribeLogDirs, createDescribeLogDirsHandler(services)],
  ];
  for (const [apiKey, handler] of built) handlers.set(apiKey, handler as unknown as KafkaApiHandler);

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
    enforceRetention(): Promise<RetentionSweep> {
      if (closed !== undefined) return Promise.reject(new NereusError(ErrorCode.STORAGE_CLOSED, "Kafka broker closed", { retryable: false }));
      return retention.sweep();
    },
    openConnection(peer: string): KafkaConnection {
      const connection = new BrokerConnection(nextConnectionId++, peer, {
        handlers,
        maxVersions,
        caps,
        identity,
        topics,
        logger,
        metrics,
        clock,
        brokerClosing: brokerClosing.signal,
        onClose: (closedConnection) => {
          if (connections.delete(closedConnection)) metrics.connectionsActive -= 1;
        },
      });
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
  return broker;
}
