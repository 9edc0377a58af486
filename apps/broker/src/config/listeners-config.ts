// The Kafka listeners, as Kafka's listener map names them: each has a unique name, an address to bind, a security
// protocol (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL; the SSL ones need `tls`) and optionally the address that
// Metadata and FindCoordinator advertise to the clients that came in on it. Without `kafka.listeners`, `kafka.host`
// and `kafka.port` describe a single PLAINTEXT listener named "PLAINTEXT" (advertised by `kafka.advertisedHost/Port`).
import { SECURITY_PROTOCOLS, type SecurityProtocol, usesTls } from "@nereus/kafka";
import { z } from "zod";
import { type TlsConfig, TlsConfigSchema } from "./tls-config.js";

const LISTENER_NAME = /^[A-Za-z0-9_-]+$/;

/** One Kafka listener of the configuration. */
const KafkaListenerConfigSchema = z
  .strictObject({
    /** Unique among the listeners; clients' Metadata answers name the other brokers by the same listener name. */
    name: z.string().regex(LISTENER_NAME, "must match [A-Za-z0-9_-]+ (e.g. INTERNAL, EXTERNAL)"),
    host: z.string().min(1).default("127.0.0.1"),
    /** 0 picks a free port. */
    port: z.int().min(0).max(65_535),
    securityProtocol: z.enum(SECURITY_PROTOCOLS as [SecurityProtocol, ...SecurityProtocol[]], {
      error: `must be one of ${SECURITY_PROTOCOLS.join(", ")}`,
    }),
    tls: TlsConfigSchema.optional(),
    /** What clients of this listener are told (default: host, or 127.0.0.1 for a wildcard host). */
    advertisedHost: z.string().min(1).optional(),
    /** Default: the port actually bound. */
    advertisedPort: z.int().min(1).max(65_535).optional(),
  })
  .superRefine((listener, context) => {
    const tls = usesTls(listener.securityProtocol);
    if (tls && listener.tls === undefined)
      context.addIssue({
        code: "custom",
        message: `securityProtocol ${listener.securityProtocol} needs tls (certFile and keyFile)`,
        path: ["tls"],
      });
    if (!tls && listener.tls !== undefined)
      context.addIssue({
        code: "custom",
        message: `securityProtocol ${listener.securityProtocol} does not use TLS: remove tls or use ${listener.securityProtocol === "PLAINTEXT" ? "SSL" : "SASL_SSL"}`,
        path: ["tls"],
      });
  });

/** The listener list: at least one, names unique, no two on the same fixed host and port. */
export const KafkaListenersSchema = z
  .array(KafkaListenerConfigSchema)
  .min(1, "needs at least one listener")
  .superRefine((listeners, context) => {
    const names = new Set<string>();
    const addresses = new Set<string>();
    listeners.forEach((listener, index) => {
      if (names.has(listener.name))
        context.addIssue({
          code: "custom",
          message: `listener name ${listener.name} is used twice`,
          path: [index, "name"],
        });
      names.add(listener.name);
      const address = `${listener.host}:${String(listener.port)}`;
      if (listener.port !== 0 && addresses.has(address))
        context.addIssue({ code: "custom", message: `${address} is bound by two listeners`, path: [index, "port"] });
      addresses.add(address);
    });
  });

/** A validated Kafka listener. */
export interface KafkaListenerConfig {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  readonly securityProtocol: SecurityProtocol;
  readonly tls?: TlsConfig;
  readonly advertisedHost?: string;
  readonly advertisedPort?: number;
}

/** The name of the single listener that `kafka.host` and `kafka.port` describe. */
const DEFAULT_LISTENER_NAME = "PLAINTEXT";

/**
 * The listeners a broker binds: `kafka.listeners` when given, else one PLAINTEXT listener on `kafka.host:port`
 * advertised as `kafka.advertisedHost/Port`. The first one is the broker's primary listener (its address is the
 * one the cluster registration and the logs name first).
 */
export function kafkaListenersOf(kafka: {
  readonly host: string;
  readonly port: number;
  readonly advertisedHost?: string | undefined;
  readonly advertisedPort?: number | undefined;
  readonly listeners?: readonly KafkaListenerConfig[] | undefined;
}): readonly KafkaListenerConfig[] {
  if (kafka.listeners !== undefined) return kafka.listeners;
  return [
    {
      name: DEFAULT_LISTENER_NAME,
      host: kafka.host,
      port: kafka.port,
      securityProtocol: "PLAINTEXT",
      ...(kafka.advertisedHost === undefined ? {} : { advertisedHost: kafka.advertisedHost }),
      ...(kafka.advertisedPort === undefined ? {} : { advertisedPort: kafka.advertisedPort }),
    },
  ];
}
