// The composition root: data directory lock → storage stack (metadata, objects, Object WAL runtime, stream
// store) → Kafka listener → Kafka broker with the group coordinator's handlers → admin HTTP. Start-up failures
// are StartupErrors (one line) after undoing what was opened. `close()` is the graceful shutdown: stop
// accepting, stop reading and let in-flight requests finish (bounded), close connections, the broker (which
// waits for running appends and checkpoints producer state), the coordinator, the storage stack (pending WAL
// uploads finish), the admin server, and release the lock.
import { type StreamStore, NereusError } from "@nereus/core";
import { type GroupCoordinator, type KafkaBroker, createGroupCoordinator, createKafkaBroker } from "@nereus/kafka";
import { ApiKey } from "@nereus/kafka/protocol";
import type { BrokerConfig } from "./config/broker-config.js";
import { type AdminServer, startAdminServer } from "./admin/admin-server.js";
import { JsonLogger } from "./logging/json-logger.js";
import { ConnectionAdmission } from "./listener/connection-admission.js";
import { type KafkaListener, ListenError, startKafkaListener } from "./listener/kafka-listener.js";
import { RequestMemoryBudget } from "./listener/request-memory-budget.js";
import { MetricsRegistry } from "./metrics/metrics-registry.js";
import { registerRuntimeMetrics, type RuntimeMetrics } from "./metrics/runtime-metrics.js";
import { instrumentStreamStore } from "./metrics/instrument-stream-store.js";
import { registerStorageMetrics } from "./metrics/storage-metrics.js";
import { type DataDirLock, lockDataDir } from "./storage/data-dir-lock.js";
import { type BrokerStorage, openStorage } from "./storage/open-storage.js";
import { storageHealthReport } from "./storage/storage-health.js";
import { StartupError, reasonOf } from "./errors/startup-error.js";

/** A running broker. */
export interface RunningBroker {
  readonly config: BrokerConfig;
  /** The Kafka port actually bound. */
  readonly kafkaPort: number;
  /** The admin port actually bound, or undefined when admin HTTP is disabled. */
  readonly adminPort: number | undefined;
  readonly metrics: MetricsRegistry;
  /** Graceful shutdown (idempotent). */
  close(reason?: string): Promise<void>;
}

export interface StartBrokerOptions {
  readonly logger?: JsonLogger;
}

const API_NAMES = new Map<number, string>(Object.entries(ApiKey).map(([name, key]) => [key as number, name]));

function wildcard(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "[::]";
}

/** Starts a broker from a validated configuration. */
export async function startBroker(config: BrokerConfig, options: StartBrokerOptions = {}): Promise<RunningBroker> {
  const logger = options.logger ?? new JsonLogger({ level: config.log.level });
  const startedAt = Date.now();
  const metrics = new MetricsRegistry();
  const writerId = `broker-${String(config.nodeId)}`;
  const usesDataDir = config.storage.metadata.kind === "sqlite" || config.storage.objects.kind === "filesystem";
  const undo: Array<() => Promise<void> | void> = [];
  const rollback = async (): Promise<void> => {
    for (const step of undo.reverse()) {
      try {
        await step();
      } catch (error) {
        logger.warn("cleanup after a failed start failed", { error });
      }
    }
  };

  let lock: DataDirLock | undefined;
  let storage: BrokerStorage;
  let listener: KafkaListener;
  let broker: KafkaBroker;
  let admin: AdminServer | undefined;
  let coordinator: GroupCoordinator;
  let serving = false;
  let runtimeMetrics: RuntimeMetrics | undefined;
  const appendSeconds = metrics.histogram("nereus_append_duration_seconds", "Stream appends from call to acknowledgement, by outcome.");
  try {
    if (usesDataDir) {
      lock = lockDataDir(config.dataDir);
      const held = lock;
      undo.push(() => held.release());
    }
    storage = await openStorage({ config, writerId, logger, instrument: (store: StreamStore) => instrumentStreamStore(store, appendSeconds) });
    const opened = storage;
    undo.push(() => opened.close());

    const requestMemory = new RequestMemoryBudget(config.connections.requestMemoryBytes);
    const admission = new ConnectionAdmission(config.connections);
    metrics.gauge("nereus_request_memory_bytes", "Bytes of client requests held (received, not yet answered, and reserved for frames being received).", () => requestMemory.usedBytes);
    metrics.gauge("nereus_request_memory_waiting_connections", "Connections whose reading waits for room in the request memory budget.", () => requestMemory.waitingCount);
    // The listener must be bound before the broker exists (its port is advertised); connections wait for it.
    const target: { openConnection?: (peer: string) => ReturnType<KafkaBroker["openConnection"]> } = {};
    listener = await startKafkaListener({
      host: config.kafka.host,
      port: config.kafka.port,
      maxFrameBytes: config.kafka.maxFrameBytes,
      maxInFlightRequests: config.kafka.maxInFlightRequests,
      maxInFlightBytesPerConnection: config.connections.maxInFlightBytesPerConnection,
      requestMemory,
      admission,
      idleTimeoutMs: config.connections.idleTimeoutMs,
      requestFrameTimeoutMs: config.connections.requestFrameTimeoutMs,
      openConnection: (peer) => {
        if (target.openConnection === undefined) throw new Error("the broker is not ready");
        return target.openConnection(peer);
      },
      logger,
      metrics: {
        accepted: metrics.counter("nereus_listener_connections_accepted_total", "TCP connections accepted by the Kafka listener."),
        active: metrics.gauge("nereus_listener_connections_active", "TCP connections open on the Kafka listener."),
        closedOnError: metrics.counter("nereus_listener_connections_closed_on_error_total", "Connections closed because of a bad frame, a refused request or a socket error."),
        refused: metrics.counter("nereus_listener_connections_refused_total", "Connections closed on accept because of a connection limit, by reason."),
        timedOut: metrics.counter("nereus_listener_connections_timed_out_total", "Connections closed by a timeout (idle, or an incomplete request frame), by reason."),
        bytesReceived: metrics.counter("nereus_listener_received_bytes_total", "Bytes received on the Kafka listener."),
        bytesSent: metrics.counter("nereus_listener_sent_bytes_total", "Bytes of responses written by the Kafka listener."),
        requestSeconds: metrics.histogram("nereus_kafka_request_duration_seconds", "Kafka requests from complete frame to response written, by API."),
      },
      apiName: (apiKey) => API_NAMES.get(apiKey) ?? "unknown",
    });
    const bound = listener;
    undo.push(() => bound.close());

    const advertisedHost = config.kafka.advertisedHost ?? (wildcard(config.kafka.host) ? "127.0.0.1" : config.kafka.host);
    const advertisedPort = config.kafka.advertisedPort ?? listener.port;
    coordinator = createGroupCoordinator({
      metadata: storage.metadata,
      cluster: config.cluster,
      nodeId: config.nodeId,
      host: advertisedHost,
      port: advertisedPort,
      initialRebalanceDelayMs: config.groups.initialRebalanceDelayMs,
      minSessionTimeoutMs: config.groups.minSessionTimeoutMs,
      maxSessionTimeoutMs: config.groups.maxSessionTimeoutMs,
      logger,
    });
    const groups = coordinator;
    undo.push(() => groups.close());
    broker = createKafkaBroker({
      store: storage.store,
      metadata: storage.metadata,
      cluster: config.cluster,
      nodeId: config.nodeId,
      advertisedHost,
      advertisedPort,
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
      partitionLogs: {
        maxInFlightAppends: config.kafka.maxInFlightAppends,
        pipelinedAppendMinBytes: config.kafka.pipelinedAppendMinBytes,
        readAheadMaxBytes: config.kafka.readAheadMaxBytes,
        tailCacheBytes: config.kafka.tailCacheBytes,
        tailCacheMaxBytes: config.kafka.tailCacheMaxBytes,
      },
      logger,
    });
    const running = broker;
    undo.push(() => running.close());
    target.openConnection = (peer) => running.openConnection(peer);

    metrics.addCollector(() => running.metrics.collect());
    const groupFamilies = (): ReturnType<typeof running.metrics.collect> => {
      const snapshot = groups.metrics;
      return [
        { name: "nereus_kafka_groups", help: "Consumer groups with members or rebalances in memory.", type: "gauge", samples: [{ labels: {}, value: snapshot.groups }] },
        { name: "nereus_kafka_group_members", help: "Members of those groups.", type: "gauge", samples: [{ labels: {}, value: snapshot.members }] },
        { name: "nereus_kafka_group_rebalances_total", help: "Rebalances started.", type: "counter", samples: [{ labels: {}, value: snapshot.rebalances }] },
        { name: "nereus_kafka_group_members_removed_total", help: "Members removed (left, expired, dropped from a rebalance).", type: "counter", samples: [{ labels: {}, value: snapshot.membersRemoved }] },
        { name: "nereus_kafka_offset_commits_total", help: "OffsetCommit requests that stored offsets.", type: "counter", samples: [{ labels: {}, value: snapshot.offsetCommits }] },
      ];
    };
    metrics.addCollector(groupFamilies);
    registerStorageMetrics(metrics, storage);
    metrics.gauge("nereus_broker_uptime_seconds", "Seconds since the broker started.", () => (Date.now() - startedAt) / 1000);
    metrics.gauge("nereus_process_resident_memory_bytes", "Resident set size of the broker process.", () => process.memoryUsage.rss());
    metrics.gauge("nereus_process_heap_used_bytes", "V8 heap in use.", () => process.memoryUsage().heapUsed);
    runtimeMetrics = registerRuntimeMetrics(metrics);
    const observing = runtimeMetrics;
    undo.push(() => observing.stop());
    metrics.gauge("nereus_broker_info", "Constant 1, labelled with the broker's identity.").set(1, {
      node_id: String(config.nodeId),
      cluster: config.cluster,
      default_profile: config.storage.defaultProfile,
      metadata: config.storage.metadata.kind,
      objects: config.storage.objects.kind,
    });

    if (config.admin.enabled) {
      admin = await startAdminServer({
        host: config.admin.host,
        port: config.admin.port,
        // 200 "degraded" while the store cannot write (storage-health.ts): reads are still served.
        health: () => ({ ok: serving, nodeId: config.nodeId, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000), connections: bound.connectionCount, ...storageHealthReport(opened.writeHealth()) }),
        metrics: () => metrics.render(),
      });
      const server = admin;
      undo.push(() => server.close());
    }
  } catch (error) {
    await rollback();
    if (error instanceof StartupError) throw error;
    if (error instanceof ListenError) throw new StartupError(error.message, { cause: error });
    if (NereusError.is(error)) throw new StartupError(reasonOf(error), { cause: error });
    throw error;
  }

  serving = true;
  const kafkaPort = listener.port;
  const adminPort = admin?.port;
  logger.info("broker started", {
    kafka: `${config.kafka.host}:${String(kafkaPort)}`,
    advertised: `${config.kafka.advertisedHost ?? (wildcard(config.kafka.host) ? "127.0.0.1" : config.kafka.host)}:${String(config.kafka.advertisedPort ?? kafkaPort)}`,
    admin: adminPort === undefined ? "disabled" : `${config.admin.host}:${String(adminPort)}`,
    nodeId: config.nodeId,
    defaultProfile: config.storage.defaultProfile,
    dataDir: usesDataDir ? config.dataDir : undefined,
    startupMs: Date.now() - startedAt,
    ...storage.summary,
  });

  let closing: Promise<void> | undefined;
  return {
    config,
    kafkaPort,
    adminPort,
    metrics,
    close(reason = "requested") {
      closing ??= (async () => {
        const began = Date.now();
        serving = false;
        logger.info("broker shutting down", { reason });
        listener.stopAccepting();
        await listener.drain(config.shutdownTimeoutMs);
        const step = async (what: string, action: () => Promise<void> | void): Promise<void> => {
          try {
            await action();
          } catch (error) {
            logger.warn(`shutdown: closing ${what} failed`, { error });
          }
        };
        await step("the Kafka listener", () => listener.close());
        await step("the Kafka broker", () => broker.close());
        await step("the group coordinator", () => coordinator.close());
        await step("the storage stack", () => storage.close());
        if (admin !== undefined) await step("the admin server", () => admin?.close());
        runtimeMetrics?.stop();
        lock?.release();
        logger.info("broker stopped", { reason, shutdownMs: Date.now() - began });
      })();
      return closing;
    },
  };
}
