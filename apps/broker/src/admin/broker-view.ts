// GET /admin/v1/brokers: this broker's identity, version, uptime, listeners (bound and advertised addresses) and
// storage kind, from its configuration and the ports it bound. No I/O.
import { materializationMode } from "../config/broker-config.js";
import type { AdminContext } from "./admin-context.js";
import type { BrokerView, ListenerView } from "./admin-views.js";

function listenersOf(context: AdminContext, adminPort: number): ListenerView[] {
  const { config, ports } = context;
  const advertised = context.kafka.identity;
  const listeners: ListenerView[] =
    config.kafka.listeners === undefined || context.kafkaListeners === undefined
      ? [
          {
            name: "kafka",
            host: config.kafka.host,
            port: ports.kafka,
            advertised: `${advertised.host}:${String(advertised.port)}`,
          },
        ]
      : context.kafkaListeners.map((listener) => ({
          name: "kafka",
          listener: listener.name,
          ...(listener.securityProtocol === "PLAINTEXT" ? {} : { protocol: listener.securityProtocol }),
          host: listener.host,
          port: listener.port,
          advertised: `${listener.advertised.host}:${String(listener.advertised.port)}`,
        }));
  if (ports.pulsar !== undefined) {
    const host = config.pulsar.advertisedHost ?? advertised.host;
    listeners.push({
      name: "pulsar",
      host: config.pulsar.host,
      port: ports.pulsar,
      advertised: `pulsar://${host}:${String(config.pulsar.advertisedPort ?? ports.pulsar)}`,
    });
  }
  if (ports.pulsarTls !== undefined) {
    listeners.push({
      name: "pulsar",
      protocol: "TLS",
      host: config.pulsar.host,
      port: ports.pulsarTls,
      advertised: `pulsar+ssl://${config.pulsar.advertisedHost ?? advertised.host}:${String(config.pulsar.tls?.advertisedPort ?? ports.pulsarTls)}`,
    });
  }
  listeners.push({
    name: "admin",
    ...(config.admin.tls === undefined ? {} : { protocol: "HTTPS" }),
    host: config.admin.host,
    port: adminPort,
    advertised: `${config.admin.host}:${String(adminPort)}`,
  });
  return listeners;
}

/** This broker as GET /admin/v1/brokers reports it; `adminPort` is the port the request came in on. */
export function describeBroker(context: AdminContext, adminPort: number, now = Date.now()): BrokerView {
  const { config } = context;
  return {
    nodeId: config.nodeId,
    cluster: config.cluster,
    version: context.version,
    startedAt: new Date(context.startedAt).toISOString(),
    uptimeSeconds: Math.max(0, Math.round((now - context.startedAt) / 1000)),
    serving: context.serving(),
    listeners: listenersOf(context, adminPort),
    storage: {
      metadata: config.storage.metadata.kind,
      objects: config.storage.objects.kind,
      defaultProfile: config.storage.defaultProfile,
      materialization: materializationMode(config),
      writable: context.storage.writeHealth().writable,
    },
  };
}
