// A Kafka listener: one server socket (plain TCP, or TLS: transport-server.ts) of one named listener with its
// security protocol; per socket a ListenerConnection (listener-connection.ts) where a
// FrameDecoder splits the byte stream into request frames, each frame goes to the broker's sans-IO FrameConnection,
// and responses are written in request order. A bad
// size prefix (negative, above maxFrameBytes) or a frame the connection refuses (undecodable header, unknown API
// or version) closes that socket only; nothing a client sends can throw out of here. Guard rails against hostile
// or careless clients: connections are admitted up to a per-broker and a per-IP limit; a connection idle for
// `idleTimeoutMs` is closed, and so is one that leaves a request frame incomplete for `requestFrameTimeoutMs`;
// reading pauses (backpressure) while a connection has too many requests or bytes in flight, its socket buffer is
// full, or the broker's request memory budget has no room for the frame it is receiving, and resumes when they
// drain. A client that half-closes gets its waiting requests (long-polls) answered at once. Shutdown:
// `stopAccepting`, then `drain` (stop reading, let in-flight responses go out), then `close`.
import type net from "node:net";
import { ErrorCode, NereusError } from "@nereus/core";
import type { ConnectionTransport, SecurityProtocol } from "@nereus/kafka";
import { RateLimitedLog } from "../logging/rate-limited-log.js";
import { type FrameConnection, ListenerConnection, type ListenerConnectionSettings } from "./listener-connection.js";
import type { TlsMaterial } from "./tls-material.js";
import { type AcceptedTransport, createTransportServer } from "./transport-server.js";

/** Options of {@link startKafkaListener}: the address, how connections are opened, and their shared settings. */
export interface KafkaListenerOptions extends ListenerConnectionSettings {
  /** The listener's name (default "PLAINTEXT"). */
  readonly name?: string;
  /** How logs and start-up errors name the listener (default "Kafka listener"). */
  readonly label?: string;
  /** Default PLAINTEXT; SSL and SASL_SSL need `tls`. */
  readonly securityProtocol?: SecurityProtocol;
  readonly tls?: TlsMaterial;
  readonly host: string;
  readonly port: number;
  /** Opens the broker connection of an accepted socket, told how it came in. */
  readonly openConnection: (peer: string, transport: ConnectionTransport) => FrameConnection;
}

/** A bound Kafka listener. */
export interface KafkaListener {
  readonly name: string;
  readonly securityProtocol: SecurityProtocol;
  readonly host: string;
  /** The port actually bound (differs from the requested one when that was 0). */
  readonly port: number;
  readonly connectionCount: number;
  /** Refuses new connections; existing ones keep being served. Idempotent. */
  stopAccepting(): void;
  /** Stops reading requests and waits (at most `timeoutMs`) until every in-flight response was written. */
  drain(timeoutMs: number): Promise<void>;
  /** Closes every socket and its connection and waits for the server to close. Idempotent. */
  close(): Promise<void>;
}

/** A listen failure that start-up reports in one line. */
export class ListenError extends Error {
  override readonly name = "ListenError";
  readonly code: string | undefined;

  constructor(message: string, code: string | undefined, cause: unknown) {
    super(message, { cause });
    this.code = code;
  }
}

/** Binds the listener; rejects with {@link ListenError} (e.g. EADDRINUSE) when the address cannot be bound. */
export async function startKafkaListener(options: KafkaListenerOptions): Promise<KafkaListener> {
  const clients = new Set<ListenerConnection>();
  const { logger } = options;
  const refusedLog = new RateLimitedLog(10_000);
  const forget = (client: ListenerConnection): void => {
    clients.delete(client);
  };
  let nextId = 1;
  let accepting = true;
  let closing: Promise<void> | undefined;
  const name = options.name ?? "PLAINTEXT";
  const securityProtocol = options.securityProtocol ?? "PLAINTEXT";
  if ((securityProtocol === "SSL" || securityProtocol === "SASL_SSL") !== (options.tls !== undefined))
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `Kafka listener ${name}: ${securityProtocol} ${options.tls === undefined ? "needs" : "takes no"} TLS material`,
      { retryable: false },
    );

  // allowHalfOpen: a client that shuts down its sending side still gets the answers to what it sent.
  const server = createTransportServer(
    {
      ...(options.tls === undefined ? {} : { tls: options.tls }),
      name: options.label ?? `Kafka listener ${name}`,
      logger,
      allowHalfOpen: true,
      onHandshakeFailure: () => options.metrics.tlsHandshakeFailures.inc({ listener: name }),
    },
    (socket, accepted) => {
      if (!accepting) {
        socket.destroy();
        return;
      }
      const transport = transportOf(name, securityProtocol, accepted);
      const client = accept(socket, options, transport, refusedLog, nextId, forget);
      if (client === undefined) return;
      nextId += 1;
      clients.add(client);
      options.metrics.accepted.inc();
      options.metrics.active.inc();
      logger.debug("Kafka connection opened", { connection: client.id, peer: client.peer, listener: name });
      client.attach();
    },
  );
  await listen(server, options);
  server.on("error", (error) => logger.error("Kafka listener error", { error }));
  const address = server.address();
  const boundPort = typeof address === "object" && address !== null ? address.port : options.port;

  return {
    name,
    securityProtocol,
    host: options.host,
    port: boundPort,
    get connectionCount() {
      return clients.size;
    },
    stopAccepting() {
      if (!accepting) return;
      accepting = false;
      server.close();
    },
    async drain(timeoutMs) {
      for (const client of clients) client.startDraining();
      const all = Promise.all([...clients].map((client) => client.tail));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), timeoutMs);
      });
      const outcome = await Promise.race([all.then(() => "drained" as const), timeout]);
      clearTimeout(timer);
      if (outcome === "timeout")
        logger.warn("Kafka listener drain timed out", { timeoutMs, connections: clients.size });
    },
    close() {
      closing ??= (async () => {
        accepting = false;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const client of [...clients]) client.close("broker shutting down");
        await closed;
      })();
      return closing;
    },
  };
}

/**
 * Admits an accepted socket (per-broker and per-IP limits) and opens its broker connection; undefined (socket
 * destroyed) when refused or when the connection could not be opened.
 */
function accept(
  socket: net.Socket,
  options: KafkaListenerOptions,
  transport: ConnectionTransport,
  refusedLog: RateLimitedLog,
  id: number,
  onClosed: (client: ListenerConnection) => void,
): ListenerConnection | undefined {
  const { admission, logger, metrics } = options;
  const ip = socket.remoteAddress ?? "unknown";
  const peer = `${ip}:${String(socket.remotePort ?? 0)}`;
  const refusal = admission.admit(ip);
  if (refusal !== undefined) {
    metrics.refused.inc({ reason: refusal });
    refusedLog.record((suppressed) =>
      logger.warn("Kafka connection refused", {
        peer,
        reason:
          refusal === "broker-limit"
            ? `${String(admission.limits.maxConnections)} connections are open (maxConnections)`
            : `${String(admission.limits.maxConnectionsPerIp)} connections from ${ip} are open (maxConnectionsPerIp)`,
        refusedSinceLastLine: suppressed,
      }),
    );
    socket.destroy();
    return undefined;
  }
  let connection: FrameConnection;
  try {
    connection = options.openConnection(peer, transport);
  } catch (error) {
    admission.release(ip);
    logger.error("Kafka connection could not be opened", { peer, error });
    socket.destroy();
    return undefined;
  }
  return new ListenerConnection(id, socket, connection, peer, ip, options, onClosed);
}

/** The transport of a socket accepted by listener `name`. */
function transportOf(
  listenerName: string,
  securityProtocol: SecurityProtocol,
  accepted: AcceptedTransport,
): ConnectionTransport {
  return accepted.peerCertificateSubject === undefined
    ? { listenerName, securityProtocol }
    : { listenerName, securityProtocol, peerCertificateSubject: accepted.peerCertificateSubject };
}

/** Binds `server` to the options' address; rejects with a one-line {@link ListenError}. */
function listen(server: net.Server, options: KafkaListenerOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off("listening", onListening);
      const where = `${options.host}:${String(options.port)}`;
      const reason =
        error.code === "EADDRINUSE"
          ? `${where} is already in use (is another broker or Kafka running? choose another --kafka-port)`
          : error.code === "EACCES"
            ? `permission denied binding ${where} (ports below 1024 need privileges)`
            : error.code === "EADDRNOTAVAIL"
              ? `${options.host} is not an address of this machine`
              : `${where}: ${error.message}`;
      reject(new ListenError(`${options.label ?? "Kafka listener"}: ${reason}`, error.code, error));
    };
    const onListening = (): void => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen({ host: options.host, port: options.port, backlog: 1024 });
  });
}
