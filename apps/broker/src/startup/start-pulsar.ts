// Start-up step for the Pulsar listener (on unless disabled): binds it (its port is advertised by LOOKUP), then
// creates the Pulsar broker over the already opened storage stack (its managed ledgers and cursor store share the
// broker's metadata, object and stream stores) with the broker-wide policy defaults of the config. Both are
// registered for undo; connections that arrive before the broker is ready are refused. The broker's Pulsar metric
// families are registered on the broker's metrics registry. With `pulsar.tls` a TLS listener serves pulsar+ssl://
// clients too (LOOKUP names it as brokerServiceUrlTls), next to the plaintext one unless `pulsar.tls.plaintext` is
// false; the two behave as one listener at shutdown.
import { type PulsarBroker, type PulsarTopicOwnership, createPulsarBroker } from "@nereus/pulsar";
import type { Registry } from "prom-client";
import { FRAME_PADDING_BYTES } from "@nereus/pulsar/protocol";
import type { BrokerConfig } from "../config/broker-config.js";
import { ConnectionAdmission } from "../listener/connection-admission.js";
import { type PulsarListener, combinePulsarListeners, startPulsarListener } from "../listener/pulsar-listener.js";
import type { TlsMaterial } from "../listener/tls-material.js";
import type { BrokerLogger } from "../logging/broker-logger.js";
import { registerPulsarMetrics } from "../metrics/pulsar-metrics.js";
import type { BrokerStorage } from "../storage/open-storage.js";
import type { BrokerRecord } from "../cluster/broker-record.js";
import { advertisedHostOf } from "./build-kafka-services.js";
import { loadPulsarAuth } from "./load-pulsar-auth.js";
import type { StartupUndo } from "./startup-undo.js";

/** The running Pulsar side of the broker. */
export interface PulsarServices {
  /** Every Pulsar listener together; `port` is the plaintext one's (the TLS one's without a plaintext listener). */
  readonly listener: PulsarListener;
  /** The TLS listener's bound port, when there is one. */
  readonly tlsPort: number | undefined;
  readonly broker: PulsarBroker;
}

/** Starts the Pulsar listener and broker of `config` over `storage`. */
export async function startPulsar(
  config: BrokerConfig,
  storage: BrokerStorage,
  logger: BrokerLogger,
  metrics: Registry,
  undo: StartupUndo,
  tls?: TlsMaterial,
  topicOwnership?: PulsarTopicOwnership,
): Promise<PulsarServices> {
  const settings = config.pulsar;
  const auth = await loadPulsarAuth(settings.auth);
  const target: { broker?: PulsarBroker } = {};
  const admission = new ConnectionAdmission(config.connections);
  const bind = async (port: number, material: TlsMaterial | undefined): Promise<PulsarListener> => {
    const bound = await startPulsarListener({
      host: settings.host,
      port,
      maxFrameBytes: settings.maxMessageBytes + FRAME_PADDING_BYTES,
      keepAliveMs: settings.keepAliveMs,
      frameTimeoutMs: config.connections.requestFrameTimeoutMs,
      admission,
      logger,
      ...(material === undefined ? {} : { tls: material }),
      openConnection: (sink) => {
        if (target.broker === undefined) throw new Error("the Pulsar broker is not ready");
        return target.broker.openConnection(sink);
      },
    });
    undo.push(() => bound.close());
    return bound;
  };
  const plain = settings.tls?.plaintext === false ? undefined : await bind(settings.port, undefined);
  const secure = settings.tls === undefined || tls === undefined ? undefined : await bind(settings.tls.port, tls);
  const listener = combinePulsarListeners([plain, secure]);
  const host = settings.advertisedHost ?? advertisedHostOf(config);
  const tlsPort = secure === undefined ? undefined : (settings.tls?.advertisedPort ?? secure.port);
  const broker = createPulsarBroker({
    ledgers: {
      metadata: storage.metadata,
      objects: storage.objectStore,
      streams: storage.store,
      cluster: config.cluster,
      defaultProfile: config.storage.defaultProfile,
    },
    advertisedUrl: `pulsar://${host}:${String(plain === undefined ? tlsPort : (settings.advertisedPort ?? plain.port))}`,
    ...(tlsPort === undefined ? {} : { advertisedUrlTls: `pulsar+ssl://${host}:${String(tlsPort)}` }),
    maxMessageBytes: settings.maxMessageBytes,
    deduplication: settings.deduplication,
    maxPendingPublishRequestsPerConnection: settings.maxPendingPublishRequestsPerConnection,
    maxPendingPublishBytes: settings.maxPendingPublishBytes,
    autoTopicCreation: {
      allowed: settings.autoTopicCreation.enabled,
      type: settings.autoTopicCreation.type,
      defaultPartitions: settings.autoTopicCreation.defaultPartitions,
    },
    producerNamePrefix: `${config.cluster}-${String(config.nodeId)}`,
    ...(auth === undefined ? {} : { auth }),
    ...(topicOwnership === undefined ? {} : { topicOwnership }),
    onError: (error) => logger.debug("Pulsar connection error", { error }),
  });
  undo.push(() => broker.close());
  registerPulsarMetrics(metrics, broker.context);
  target.broker = broker;
  return { listener, broker, tlsPort: secure?.port };
}

/** The Pulsar addresses a cluster member publishes: the plaintext listener's (unless turned off) and the TLS one's. */
export function pulsarClusterAddresses(
  config: BrokerConfig,
  pulsar: PulsarServices,
): Pick<BrokerRecord, "pulsar" | "pulsarTls"> {
  const host = config.pulsar.advertisedHost ?? advertisedHostOf(config);
  return {
    ...(config.pulsar.tls?.plaintext === false
      ? {}
      : { pulsar: { host, port: config.pulsar.advertisedPort ?? pulsar.listener.port } }),
    ...(pulsar.tlsPort === undefined ? {} : { pulsarTls: { host, port: pulsar.tlsPort } }),
  };
}
