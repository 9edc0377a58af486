// How a client connection reached the broker: the listener it came in on, that listener's security protocol (Kafka's
// PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL) and, on a TLS listener where the client presented a certificate, that
// certificate's subject. The listener describes the transport when it opens the broker connection; authentication
// (SASL on SASL_* listeners, the certificate principal on SSL) and the advertised addresses read it.
import type { KafkaPrincipal } from "./kafka-principal.js";

/** Kafka's `security.protocol` values: whether the bytes are TLS-wrapped and whether SASL must authenticate first. */
export type SecurityProtocol = "PLAINTEXT" | "SSL" | "SASL_PLAINTEXT" | "SASL_SSL";

/** The security protocols, in Kafka's spelling. */
export const SECURITY_PROTOCOLS: readonly SecurityProtocol[] = ["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"];

/**
 * The transport of one connection. Invariants: `listenerName` is non-empty and names one listener of the broker;
 * `peerCertificateSubject` is present only on a TLS protocol (SSL, SASL_SSL) when the client presented a certificate
 * the listener verified, in Kafka's RFC 2253 order ("CN=client,OU=unit,O=org").
 */
export interface ConnectionTransport {
  readonly listenerName: string;
  readonly securityProtocol: SecurityProtocol;
  readonly peerCertificateSubject?: string;
}

/** The transport of a connection opened without a description: the single PLAINTEXT listener. */
export const PLAINTEXT_TRANSPORT: ConnectionTransport = Object.freeze({
  listenerName: "PLAINTEXT",
  securityProtocol: "PLAINTEXT",
});

/** True when the protocol wraps the connection in TLS. */
export function usesTls(protocol: SecurityProtocol): boolean {
  return protocol === "SSL" || protocol === "SASL_SSL";
}

/** True when the protocol demands SASL authentication before other requests. */
export function requiresSasl(protocol: SecurityProtocol): boolean {
  return protocol === "SASL_PLAINTEXT" || protocol === "SASL_SSL";
}

/**
 * The principal a transport authenticates by itself: on an SSL listener, a verified client certificate's subject
 * ("User:CN=client,OU=unit"); undefined otherwise (PLAINTEXT is anonymous, SASL_* listeners authenticate by SASL).
 */
export function certificatePrincipal(transport: ConnectionTransport): KafkaPrincipal | undefined {
  return transport.securityProtocol === "SSL" && transport.peerCertificateSubject !== undefined
    ? { type: "User", name: transport.peerCertificateSubject }
    : undefined;
}
