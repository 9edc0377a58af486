// Start-up step 2: the Kafka listeners (kafka.listeners, or the single PLAINTEXT one of kafka.host/port), bound
// before the broker exists (their ports are advertised), sharing the connection guard rails (request memory budget,
// connection admission) and the listener metrics. Each connection is opened with the transport it came in on (its
// listener, security protocol, verified client certificate). Connections that arrive before the broker is ready
// are refused by `openConnection`. Registered for undo.
import type { ConnectionTransport, KafkaBroker } from "@nereus/kafka";
import { ApiKey } from "@nereus/kafka/protocol";
import type { Registry } from "prom-client";
import type { BrokerConfig } from "../config/broker-config.js";
import { ConnectionAdmission } from "../listener/connection-admission.js";
import { kafkaListenersOf } from "../config/listeners-config.js";
import {
  type BoundKafkaListener,
  type KafkaListenerGroup,
  groupKafkaListeners,
} from "../listener/kafka-listener-group.js";
import { startKafkaListener } from "../listener/kafka-listener.js";
import type { TlsMaterial } from "../listener/tls-material.js";
import { registerListenerMetrics } from "../listener/listener-metrics.js";
import { RequestMemoryBudget } from "../listener/request-memory-budget.js";
import type { BrokerLogger } from "../logging/broker-logger.js";
import { registerGaugeReading } from "../metrics/broker-registry.js";
import type { StartupUndo } from "./startup-undo.js";

const API_NAMES = new Map<number, string>(Object.entries(ApiKey).map(([name, key]) => [key as number, name]));

/** Opens a broker connection for a peer (throws while the broker is not ready). */
export type OpenKafkaConnection = (
  peer: string,
  transport: ConnectionTransport,
) => ReturnType<KafkaBroker["openConnection"]>;

/** True for an address that binds every interface (not one clients can be told to connect to). */
function wildcard(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "[::]";
}

/**
 * Binds the Kafka listeners of `config` (TLS material by listener name in `tls`); their connections are opened
 * through `openConnection`.
 */
export async function bindKafkaListener(
  config: BrokerConfig,
  logger: BrokerLogger,
  metrics: Registry,
  openConnection: OpenKafkaConnection,
  undo: StartupUndo,
  tls: ReadonlyMap<string, TlsMaterial> = new Map(),
): Promise<KafkaListenerGroup> {
  const requestMemory = new RequestMemoryBudget(config.connections.requestMemoryBytes);
  const admission = new ConnectionAdmission(config.connections);
  registerGaugeReading(
    metrics,
    "nereus_request_memory_bytes",
    "Bytes of client requests held (received, not yet answered, and reserved for frames being received).",
    () => requestMemory.usedBytes,
  );
  registerGaugeReading(
    metrics,
    "nereus_request_memory_waiting_connections",
    "Connections whose reading waits for room in the request memory budget.",
    () => requestMemory.waitingCount,
  );
  const listenerMetrics = registerListenerMetrics(metrics);
  const several = config.kafka.listeners !== undefined;
  const members: BoundKafkaListener[] = [];
  for (const settings of kafkaListenersOf(config.kafka)) {
    const material = tls.get(settings.name);
    const listener = await startKafkaListener({
      name: settings.name,
      ...(several ? { label: `Kafka listener ${settings.name}` } : {}),
      securityProtocol: settings.securityProtocol,
      ...(material === undefined ? {} : { tls: material }),
      host: settings.host,
      port: settings.port,
      maxFrameBytes: config.kafka.maxFrameBytes,
      maxInFlightRequests: config.kafka.maxInFlightRequests,
      maxInFlightBytesPerConnection: config.connections.maxInFlightBytesPerConnection,
      requestMemory,
      admission,
      idleTimeoutMs: config.connections.idleTimeoutMs,
      requestFrameTimeoutMs: config.connections.requestFrameTimeoutMs,
      openConnection,
      logger,
      metrics: listenerMetrics,
      apiName: (apiKey) => API_NAMES.get(apiKey) ?? "unknown",
    });
    undo.push(() => listener.close());
    members.push({
      listener,
      advertised: {
        host: settings.advertisedHost ?? (wildcard(settings.host) ? "127.0.0.1" : settings.host),
        port: settings.advertisedPort ?? listener.port,
      },
    });
  }
  return groupKafkaListeners(members);
}
