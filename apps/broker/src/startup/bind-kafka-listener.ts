// Start-up step 2: the Kafka listener, bound before the broker exists (its port is advertised), with the
// connection guard rails (request memory budget, connection admission) and the listener's metrics. Connections
// that arrive before the broker is ready are refused by `openConnection`. Registered for undo.
import type { KafkaBroker } from "@nereus/kafka";
import { ApiKey } from "@nereus/kafka/protocol";
import type { Registry } from "prom-client";
import type { BrokerConfig } from "../config/broker-config.js";
import { ConnectionAdmission } from "../listener/connection-admission.js";
import { type KafkaListener, startKafkaListener } from "../listener/kafka-listener.js";
import { registerListenerMetrics } from "../listener/listener-metrics.js";
import { RequestMemoryBudget } from "../listener/request-memory-budget.js";
import type { BrokerLogger } from "../logging/broker-logger.js";
import { registerGaugeReading } from "../metrics/broker-registry.js";
import type { StartupUndo } from "./startup-undo.js";

const API_NAMES = new Map<number, string>(Object.entries(ApiKey).map(([name, key]) => [key as number, name]));

/** Opens a broker connection for a peer (throws while the broker is not ready). */
export type OpenKafkaConnection = (peer: string) => ReturnType<KafkaBroker["openConnection"]>;

/** Binds the Kafka listener of `config`; its connections are opened through `openConnection`. */
export async function bindKafkaListener(
  config: BrokerConfig,
  logger: BrokerLogger,
  metrics: Registry,
  openConnection: OpenKafkaConnection,
  undo: StartupUndo,
): Promise<KafkaListener> {
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
  const listener = await startKafkaListener({
    host: config.kafka.host,
    port: config.kafka.port,
    maxFrameBytes: config.kafka.maxFrameBytes,
    maxInFlightRequests: config.kafka.maxInFlightRequests,
    maxInFlightBytesPerConnection: config.connections.maxInFlightBytesPerConnection,
    requestMemory,
    admission,
    idleTimeoutMs: config.connections.idleTimeoutMs,
    requestFrameTimeoutMs: config.connections.requestFrameTimeoutMs,
    openConnection,
    logger,
    metrics: registerListenerMetrics(metrics),
    apiName: (apiKey) => API_NAMES.get(apiKey) ?? "unknown",
  });
  undo.push(() => listener.close());
  return listener;
}
