// The composition root: data directory lock → storage stack (metadata, objects, Object WAL runtime, stream
// store) → Kafka listener → cluster ownership (with membership on) → Kafka broker with the group coordinator's
// handlers → the optional Pulsar listener and broker over the same storage → cluster registration → metrics →
// admin HTTP, one step module each under startup/. Start-up failures are StartupErrors (one line) after undoing what
// was opened. `close()` is the graceful shutdown: hand partitions and groups over to the other live brokers
// (membership on), stop accepting, stop reading and let in-flight requests finish (bounded), close connections, the
// broker (which waits for running appends and checkpoints producer state), the coordinator, the storage stack
// (pending WAL uploads finish), the admin server, and release the lock.
import { NereusError } from "@nereus/core";
import { Histogram, Registry } from "prom-client";
import type { GroupCoordinator, KafkaBroker } from "@nereus/kafka";
import type { BrokerConfig } from "./config/broker-config.js";
import type { AdminServer } from "./admin/admin-server.js";
import { brokerAdminRoutes } from "./admin/broker-admin-routes.js";
import { brokerVersion } from "./cli/broker-version.js";
import { pulsarAdminRoutes } from "./admin/pulsar-admin-route.js";
import { type BrokerLogger, PinoBrokerLogger } from "./logging/broker-logger.js";
import { ListenError } from "./listener/kafka-listener.js";
import type { KafkaListenerGroup } from "./listener/kafka-listener-group.js";
import { loadListenerTls } from "./listener/listener-tls.js";
import { LATENCY_BUCKETS_SECONDS } from "./metrics/broker-registry.js";
import type { RuntimeMetrics } from "./metrics/runtime-metrics.js";
import type { DataDirLock } from "./storage/data-dir-lock.js";
import type { BrokerStorage } from "./storage/open-storage.js";
import { StartupError, reasonOf } from "./errors/startup-error.js";
import { type OpenKafkaConnection, bindKafkaListener } from "./startup/bind-kafka-listener.js";
import { advertisedHostOf, buildKafkaServices } from "./startup/build-kafka-services.js";
import { bootstrapConfiguredScramUsers } from "./startup/bootstrap-scram-users.js";
import { openBrokerStorage } from "./startup/open-broker-storage.js";
import { registerBrokerMetrics } from "./startup/register-broker-metrics.js";
import { startAdmin } from "./startup/start-admin.js";
import { type PulsarServices, pulsarClusterAddresses, startPulsar } from "./startup/start-pulsar.js";
import { type ClusterServices, createClusterServices } from "./startup/start-cluster.js";
import { StartupUndo } from "./startup/startup-undo.js";

/** A running broker. */
export interface RunningBroker {
  readonly config: BrokerConfig;
  /** The Kafka port actually bound (of the primary listener, the first of kafka.listeners). */
  readonly kafkaPort: number;
  /** The port actually bound by each Kafka listener, by name. */
  readonly kafkaListenerPorts: ReadonlyMap<string, number>;
  /** The Pulsar port actually bound, or undefined when the Pulsar listener is disabled. */
  readonly pulsarPort: number | undefined;
  /** The Pulsar TLS port actually bound (pulsar.tls), or undefined. */
  readonly pulsarTlsPort: number | undefined;
  /** The admin port actually bound, or undefined when admin HTTP is disabled. */
  readonly adminPort: number | undefined;
  /** The broker's own metric families (the admin endpoint adds the process's standard ones). */
  readonly metrics: Registry;
  /** Graceful shutdown (idempotent). */
  close(reason?: string): Promise<void>;
}

export interface StartBrokerOptions {
  /** Where the broker logs (default: pino on stdout, as `config.log` says). */
  readonly logger?: BrokerLogger;
}

/** What a started broker closes at shutdown, in this order (the lock last). */
interface StartedParts {
  readonly listener: KafkaListenerGroup;
  readonly broker: KafkaBroker;
  readonly coordinator: GroupCoordinator;
  readonly pulsar: PulsarServices | undefined;
  readonly storage: BrokerStorage;
  readonly admin: AdminServer | undefined;
  readonly runtimeMetrics: RuntimeMetrics | undefined;
  readonly lock: DataDirLock | undefined;
  readonly cluster: ClusterServices | undefined;
}

/** Starts a broker from a validated configuration. */
export async function startBroker(config: BrokerConfig, options: StartBrokerOptions = {}): Promise<RunningBroker> {
  const logger = options.logger ?? new PinoBrokerLogger({ level: config.log.level, format: config.log.format });
  const startedAt = Date.now();
  const metrics = new Registry();
  const writerId = `broker-${String(config.nodeId)}`;
  const usesDataDir = config.storage.metadata.kind === "sqlite" || config.storage.objects.kind === "filesystem";
  const undo = new StartupUndo();

  let parts: StartedParts;
  let serving = false;
  const appendSeconds = new Histogram({
    name: "nereus_append_duration_seconds",
    help: "Stream appends from call to acknowledgement, by outcome.",
    labelNames: ["outcome"],
    buckets: [...LATENCY_BUCKETS_SECONDS],
    registers: [metrics],
  });
  try {
    const listenerTls = loadListenerTls(config);
    const { lock, storage } = await openBrokerStorage(config, usesDataDir, writerId, logger, appendSeconds, undo);
    await bootstrapConfiguredScramUsers(config, storage, logger);
    // The listener must be bound before the broker exists (its port is advertised); connections wait for it.
    const target: { openConnection?: OpenKafkaConnection } = {};
    const listener = await bindKafkaListener(
      config,
      logger,
      metrics,
      (peer, transport) => {
        if (target.openConnection === undefined) throw new Error("the broker is not ready");
        return target.openConnection(peer, transport);
      },
      undo,
      listenerTls.kafka,
    );
    const cluster = createClusterServices(config, storage, logger, undo);
    const advertised = { primary: listener.members[0]!.advertised, byListener: listener.advertised };
    const services = buildKafkaServices(config, storage, advertised, logger, undo, cluster?.ownership);
    const { broker, coordinator } = services;
    target.openConnection = (peer, transport) => broker.openConnection(peer, transport);
    const pulsar = config.pulsar.enabled
      ? await startPulsar(config, storage, logger, metrics, undo, listenerTls.pulsar, cluster?.ownership)
      : undefined;
    if (cluster !== undefined) {
      cluster.ownership.setReleaseListener({
        partitionReleased: (topicId, partition) => broker.releasePartition(topicId, partition),
        groupReleased: (groupId) => coordinator.releaseGroup(groupId),
      });
      await cluster.join({
        nodeId: config.nodeId,
        kafka: advertised.primary,
        kafkaListeners: Object.fromEntries(listener.advertised),
        ...(pulsar === undefined ? {} : pulsarClusterAddresses(config, pulsar)),
      });
    }
    const runtimeMetrics = registerBrokerMetrics(metrics, config, startedAt, services, storage, undo);
    const admin = config.admin.enabled
      ? await startAdmin(
          config,
          startedAt,
          () => serving,
          listener,
          storage,
          metrics,
          undo,
          [
            ...brokerAdminRoutes(
              {
                config,
                version: brokerVersion(),
                startedAt,
                kafka: broker,
                coordinator,
                storage,
                logger,
                ports: {
                  kafka: listener.port,
                  pulsar: config.pulsar.tls?.plaintext === false ? undefined : pulsar?.listener.port,
                  ...(pulsar?.tlsPort === undefined ? {} : { pulsarTls: pulsar.tlsPort }),
                },
                kafkaListeners: listener.members.map(({ listener: bound, advertised }) => ({
                  name: bound.name,
                  securityProtocol: bound.securityProtocol,
                  host: bound.host,
                  port: bound.port,
                  advertised,
                })),
                serving: () => serving,
              },
              metrics,
            ),
            ...pulsarAdminRoutes({ config, storage, pulsar, logger }),
          ],
          { tls: listenerTls.admin, logger },
        )
      : undefined;
    parts = { listener, broker, coordinator, pulsar, storage, admin, runtimeMetrics, lock, cluster };
  } catch (error) {
    await undo.rollback(logger);
    if (error instanceof StartupError) throw error;
    if (error instanceof ListenError) throw new StartupError(error.message, { cause: error });
    if (NereusError.is(error)) throw new StartupError(reasonOf(error), { cause: error });
    throw error;
  }

  serving = true;
  const kafkaPort = parts.listener.port;
  const adminPort = parts.admin?.port;
  const pulsarPort = parts.pulsar?.listener.port;
  logger.info("broker started", {
    kafka: `${config.kafka.host}:${String(kafkaPort)}`,
    advertised: `${advertisedHostOf(config)}:${String(parts.listener.members[0]!.advertised.port)}`,
    ...(config.kafka.listeners === undefined
      ? {}
      : {
          listeners: parts.listener.members
            .map(
              ({ listener, advertised }) =>
                `${listener.name} ${listener.securityProtocol} ${listener.host}:${String(listener.port)} (advertised ${advertised.host}:${String(advertised.port)})`,
            )
            .join(", "),
        }),
    pulsar: pulsarPort === undefined ? "disabled" : `${config.pulsar.host}:${String(pulsarPort)}`,
    ...(parts.pulsar?.tlsPort === undefined
      ? {}
      : { pulsarTls: `${config.pulsar.host}:${String(parts.pulsar.tlsPort)}` }),
    admin: adminPort === undefined ? "disabled" : `${config.admin.host}:${String(adminPort)}`,
    nodeId: config.nodeId,
    defaultProfile: config.storage.defaultProfile,
    dataDir: usesDataDir ? config.dataDir : undefined,
    startupMs: Date.now() - startedAt,
    ...parts.storage.summary,
  });

  let closing: Promise<void> | undefined;
  const started = parts;
  return {
    config,
    kafkaPort,
    kafkaListenerPorts: new Map(parts.listener.members.map(({ listener }) => [listener.name, listener.port])),
    pulsarPort,
    pulsarTlsPort: parts.pulsar?.tlsPort,
    adminPort,
    metrics,
    close(reason = "requested") {
      closing ??= (async () => {
        serving = false;
        await shutDown(config, started, logger, reason);
      })();
      return closing;
    },
  };
}

/**
 * The graceful shutdown: stop accepting, stop reading and let in-flight requests finish (bounded), then close the
 * listener, the broker, the coordinator, the storage stack and the admin server — a step that fails is logged and
 * the next still runs — and release the lock.
 */
async function shutDown(
  config: BrokerConfig,
  parts: StartedParts,
  logger: BrokerLogger,
  reason: string,
): Promise<void> {
  const began = Date.now();
  const { listener, broker, coordinator, storage, admin } = parts;
  logger.info("broker shutting down", { reason });
  // Hand partitions and groups over first: the other brokers claim them while this one finishes its requests.
  if (parts.cluster !== undefined) {
    const cluster = parts.cluster;
    try {
      await cluster.leave();
    } catch (error) {
      logger.warn("shutdown: leaving the cluster failed", { error });
    }
  }
  listener.stopAccepting();
  parts.pulsar?.listener.stopAccepting();
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
  if (parts.pulsar !== undefined) {
    const pulsar = parts.pulsar;
    await step("the Pulsar listener", () => pulsar.listener.close());
    await step("the Pulsar broker", () => pulsar.broker.close());
  }
  await step("the group coordinator", () => coordinator.close());
  await step("the storage stack", () => storage.close());
  if (admin !== undefined) await step("the admin server", () => admin.close());
  parts.runtimeMetrics?.stop();
  parts.lock?.release();
  logger.info("broker stopped", { reason, shutdownMs: Date.now() - began });
}
