// The TLS material of every listener of a configuration — the Kafka SSL/SASL_SSL listeners, the Pulsar TLS listener
// and the admin HTTPS port — read and checked once at start-up, before anything binds, so that a missing or bad PEM
// file stops the broker with one line naming the listener and the file.
import type { BrokerConfig } from "../config/broker-config.js";
import { kafkaListenersOf } from "../config/listeners-config.js";
import { type TlsMaterial, loadTlsMaterial } from "./tls-material.js";

/** TLS material by listener. */
export interface ListenerTls {
  /** By Kafka listener name (only the listeners that use TLS). */
  readonly kafka: ReadonlyMap<string, TlsMaterial>;
  readonly pulsar: TlsMaterial | undefined;
  readonly admin: TlsMaterial | undefined;
}

/** Loads the TLS material `config` names. Throws StartupError naming the file at fault. */
export function loadListenerTls(config: BrokerConfig): ListenerTls {
  const kafka = new Map<string, TlsMaterial>();
  for (const listener of kafkaListenersOf(config.kafka))
    if (listener.tls !== undefined)
      kafka.set(listener.name, loadTlsMaterial(`Kafka listener ${listener.name}`, listener.tls));
  const pulsarTls = config.pulsar.enabled ? config.pulsar.tls : undefined;
  return {
    kafka,
    pulsar: pulsarTls === undefined ? undefined : loadTlsMaterial("Pulsar TLS listener", pulsarTls),
    admin:
      config.admin.enabled && config.admin.tls !== undefined
        ? loadTlsMaterial("admin HTTPS listener", config.admin.tls)
        : undefined,
  };
}
