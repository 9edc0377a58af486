// The Kafka listener's metrics: connections accepted, open, closed on error, refused and timed out (by reason),
// bytes in and out, and the latency of each request from its complete frame to its response, by API.
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { LATENCY_BUCKETS_SECONDS } from "../metrics/broker-registry.js";

/** The listener's metrics (registered by the composition root). */
export interface ListenerMetrics {
  readonly accepted: Counter;
  readonly active: Gauge;
  readonly closedOnError: Counter;
  /** Connections refused on accept, by `reason` (broker-limit, ip-limit). */
  readonly refused: Counter<"reason">;
  /** Connections closed by a timeout, by `reason` (idle, incomplete-frame). */
  readonly timedOut: Counter<"reason">;
  readonly bytesReceived: Counter;
  readonly bytesSent: Counter;
  /** Seconds from a complete request frame to its response handed to the socket, by API name. */
  readonly requestSeconds: Histogram<"api">;
  /** TLS handshakes that failed or timed out, by listener name. */
  readonly tlsHandshakeFailures: Counter<"listener">;
}

/** Registers the listener's metrics on `registry`. */
export function registerListenerMetrics(registry: Registry): ListenerMetrics {
  const registers = [registry];
  return {
    accepted: new Counter({
      name: "nereus_listener_connections_accepted_total",
      help: "TCP connections accepted by the Kafka listener.",
      registers,
    }),
    active: new Gauge({
      name: "nereus_listener_connections_active",
      help: "TCP connections open on the Kafka listener.",
      registers,
    }),
    closedOnError: new Counter({
      name: "nereus_listener_connections_closed_on_error_total",
      help: "Connections closed because of a bad frame, a refused request or a socket error.",
      registers,
    }),
    refused: new Counter({
      name: "nereus_listener_connections_refused_total",
      help: "Connections closed on accept because of a connection limit, by reason.",
      labelNames: ["reason"],
      registers,
    }),
    timedOut: new Counter({
      name: "nereus_listener_connections_timed_out_total",
      help: "Connections closed by a timeout (idle, or an incomplete request frame), by reason.",
      labelNames: ["reason"],
      registers,
    }),
    bytesReceived: new Counter({
      name: "nereus_listener_received_bytes_total",
      help: "Bytes received on the Kafka listener.",
      registers,
    }),
    bytesSent: new Counter({
      name: "nereus_listener_sent_bytes_total",
      help: "Bytes of responses written by the Kafka listener.",
      registers,
    }),
    requestSeconds: new Histogram({
      name: "nereus_kafka_request_duration_seconds",
      help: "Kafka requests from complete frame to response written, by API.",
      labelNames: ["api"],
      buckets: [...LATENCY_BUCKETS_SECONDS],
      registers,
    }),
    tlsHandshakeFailures: new Counter({
      name: "nereus_listener_tls_handshake_failures_total",
      help: "TLS handshakes on a Kafka listener that failed or timed out (the socket was closed), by listener.",
      labelNames: ["listener"],
      registers,
    }),
  };
}
