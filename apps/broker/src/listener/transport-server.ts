// The server socket of a protocol listener: plain TCP, or TLS over it. A TLS listener hands a socket to the protocol
// only after its handshake completed — with the client certificate verified when the listener requires one, or when
// it requests one and the client sent one — together with the verified certificate's subject. A handshake that fails
// (garbage, a truncated or hostile ClientHello, an untrusted client certificate) or does not complete within
// `handshakeTimeoutMs` closes that socket only and is counted; nothing a client sends reaches the protocol before.
import net from "node:net";
import tls from "node:tls";
import type { BrokerLogger } from "../logging/broker-logger.js";
import { RateLimitedLog } from "../logging/rate-limited-log.js";
import { verifiedPeerSubject } from "./certificate-subject.js";
import type { TlsMaterial } from "./tls-material.js";

/** What the transport learned of a socket before the protocol sees it. */
export interface AcceptedTransport {
  /** The verified client certificate's subject in RFC 2253 form, when the client presented one. */
  readonly peerCertificateSubject?: string;
}

/** How a listener's server socket is made. */
export interface TransportServerOptions {
  /** TLS material; absent for plain TCP. */
  readonly tls?: TlsMaterial;
  /** Names the listener in logs (e.g. "Kafka listener SSL"). */
  readonly name: string;
  readonly logger: BrokerLogger;
  /** Failed TLS handshakes, counted. */
  readonly onHandshakeFailure?: () => void;
  /** A TLS handshake must complete within this long of the connection (default 10 s). */
  readonly handshakeTimeoutMs?: number;
  /** Half-open sockets: the client may stop sending and still read the answers. */
  readonly allowHalfOpen?: boolean;
}

const SOCKET_OPTIONS = { noDelay: true, keepAlive: true, keepAliveInitialDelay: 30_000 } as const;

/**
 * A net.Server (or tls.Server) that calls `onSocket` for each socket ready for the protocol: at once for TCP,
 * after a successful handshake for TLS.
 */
export function createTransportServer(
  options: TransportServerOptions,
  onSocket: (socket: net.Socket, transport: AcceptedTransport) => void,
): net.Server {
  const allowHalfOpen = options.allowHalfOpen ?? false;
  const material = options.tls;
  if (material === undefined) {
    const server = net.createServer({ ...SOCKET_OPTIONS, allowHalfOpen });
    server.on("connection", (socket) => onSocket(socket, {}));
    return server;
  }
  const failures = new RateLimitedLog(10_000);
  // Half-open only once the handshake is done: a client that stops sending mid-handshake is closed at once.
  const server = tls.createServer({
    ...SOCKET_OPTIONS,
    ...material.serverOptions,
    allowHalfOpen: false,
    handshakeTimeout: options.handshakeTimeoutMs ?? 10_000,
  });
  const refuse = (socket: net.Socket, reason: string, peer: string | undefined): void => {
    options.onHandshakeFailure?.();
    failures.record((suppressed) =>
      options.logger.info(`${options.name}: TLS handshake refused`, {
        peer,
        reason,
        refusedSinceLastLine: suppressed,
      }),
    );
    socket.destroy();
  };
  server.on("tlsClientError", (error, socket) => refuse(socket, error.message, socket.remoteAddress));
  server.on("secureConnection", (socket: tls.TLSSocket) => {
    // "requested": a client may send no certificate, but one it sends must verify.
    if (!socket.authorized && material.clientAuth === "requested" && socket.getPeerX509Certificate() !== undefined) {
      refuse(socket, `client certificate not trusted: ${String(socket.authorizationError)}`, socket.remoteAddress);
      return;
    }
    if (allowHalfOpen) socket.allowHalfOpen = true;
    const subject = verifiedPeerSubject(socket);
    onSocket(socket, subject === undefined ? {} : { peerCertificateSubject: subject });
  });
  return server;
}
