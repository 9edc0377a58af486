// What the admin endpoints read from a running broker: its configuration and start time, the Kafka broker's topic
// catalog, the group coordinator, the storage stack and the ports its listeners bound. Nothing here writes.
import type { GroupCoordinator, KafkaBroker } from "@nereus/kafka";
import type { BrokerConfig } from "../config/broker-config.js";
import type { BrokerLogger } from "../logging/broker-logger.js";
import type { BrokerStorage } from "../storage/open-storage.js";

/** A bound Kafka listener. */
interface KafkaListenerSummary {
  readonly name: string;
  readonly securityProtocol: string;
  readonly host: string;
  readonly port: number;
  readonly advertised: { readonly host: string; readonly port: number };
}

/** The running broker as the admin endpoints see it (read-only use only). */
export interface AdminContext {
  readonly config: BrokerConfig;
  /** The broker's version (its package's). */
  readonly version: string;
  /** Wall-clock ms when start-up began. */
  readonly startedAt: number;
  readonly kafka: KafkaBroker;
  readonly coordinator: GroupCoordinator;
  readonly storage: BrokerStorage;
  readonly logger: BrokerLogger;
  /** Ports actually bound; `pulsar` is undefined when the Pulsar listener is disabled. */
  readonly ports: { readonly kafka: number; readonly pulsar: number | undefined; readonly pulsarTls?: number };
  /** Every Kafka listener with its bound port and advertised address (absent: the single one of `ports.kafka`). */
  readonly kafkaListeners?: readonly KafkaListenerSummary[];
  /** Whether the broker is serving (false while starting and shutting down). */
  readonly serving: () => boolean;
}
