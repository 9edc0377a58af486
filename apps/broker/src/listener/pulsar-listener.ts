// A Pulsar listener: one server socket (plain TCP, or TLS for pulsar+ssl:// clients: transport-server.ts); per socket a PulsarFrameDecoder splits the byte stream into frames and
// one broker PulsarConnection handles them, writing its frames back through the socket. Guard rails: connections
// are admitted up to the per-broker and per-IP limits; a frame above the size limit or one that cannot be decoded
// stops the reading of that socket only, which closes once the frames before it were answered; so does a frame left
// incomplete for `frameTimeoutMs`; reading pauses while the socket's write buffer is full, and while the broker
// connection asks it to (publish backpressure: too many SENDs pending on the connection or in the broker); a client
// silent for `keepAliveMs` gets a PING and one silent for twice that is closed (time paused does not count).
import type net from "node:net";
import { ErrorCode, NereusError } from "@nereus/core";
import type { PulsarBroker, PulsarConnection } from "@nereus/pulsar";
import { PulsarFrameDecoder, encodeCommandFrame } from "@nereus/pulsar/protocol";
import type { BrokerLogger } from "../logging/broker-logger.js";
import type { ConnectionAdmission } from "./connection-admission.js";
import { ListenError } from "./kafka-listener.js";
import type { TlsMaterial } from "./tls-material.js";
import { type AcceptedTransport, createTransportServer } from "./transport-server.js";

export interface PulsarListenerOptions {
  readonly host: string;
  readonly port: number;
  readonly maxFrameBytes: number;
  readonly keepAliveMs: number;
  readonly frameTimeoutMs: number;
  readonly admission: ConnectionAdmission;
  readonly logger: BrokerLogger;
  /** TLS material: the listener serves pulsar+ssl:// clients. */
  readonly tls?: TlsMaterial;
  /** Failed TLS handshakes, counted. */
  readonly onHandshakeFailure?: () => void;
  /** Opens the broker connection of a socket (throws while the broker is not ready). */
  readonly openConnection: (sink: Parameters<PulsarBroker["openConnection"]>[0]) => PulsarConnection;
}

/** A bound Pulsar listener. */
export interface PulsarListener {
  /** The port actually bound. */
  readonly port: number;
  readonly connectionCount: number;
  /** Refuses new connections. Idempotent. */
  stopAccepting(): void;
  /** Closes every socket and waits for the server to close. Idempotent. */
  close(): Promise<void>;
}

const PING_FRAME = encodeCommandFrame({ type: "PING", body: {} });

/** Binds the listener; rejects with ListenError when the address cannot be bound. */
export async function startPulsarListener(options: PulsarListenerOptions): Promise<PulsarListener> {
  const sockets = new Set<net.Socket>();
  let accepting = true;
  let closing: Promise<void> | undefined;
  const label = options.tls === undefined ? "Pulsar listener" : "Pulsar TLS listener";
  const server = createTransportServer(
    {
      ...(options.tls === undefined ? {} : { tls: options.tls }),
      name: label,
      logger: options.logger,
      ...(options.onHandshakeFailure === undefined ? {} : { onHandshakeFailure: options.onHandshakeFailure }),
    },
    (socket, accepted) => {
      if (!accepting) {
        socket.destroy();
        return;
      }
      const ip = socket.remoteAddress ?? "unknown";
      const refusal = options.admission.admit(ip);
      if (refusal !== undefined) {
        options.logger.debug("Pulsar connection refused", { ip, reason: refusal });
        socket.destroy();
        return;
      }
      sockets.add(socket);
      socket.once("close", () => {
        sockets.delete(socket);
        options.admission.release(ip);
      });
      serveSocket(socket, options, { tls: options.tls !== undefined, ...accepted });
    },
  );
  await listen(server, options);
  server.on("error", (error) => options.logger.error("Pulsar listener error", { error }));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  return {
    port,
    get connectionCount() {
      return sockets.size;
    },
    stopAccepting() {
      if (!accepting) return;
      accepting = false;
      server.close();
    },
    close() {
      closing ??= (async () => {
        accepting = false;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const socket of [...sockets]) socket.destroy();
        await closed;
      })();
      return closing;
    },
  };
}

/** Serves one admitted socket until it closes. */
function serveSocket(
  socket: net.Socket,
  options: PulsarListenerOptions,
  transport: AcceptedTransport & { readonly tls: boolean },
): void {
  const { logger } = options;
  const decoder = new PulsarFrameDecoder({ maxFrameBytes: options.maxFrameBytes });
  let connection: PulsarConnection | undefined;
  let silentTicks = 0;
  let frameTimer: ReturnType<typeof setTimeout> | undefined;
  const timers: { keepAlive?: ReturnType<typeof setInterval> } = {};
  let finished = false;
  let reading = true;
  let publishPaused = false;
  const resumeIfAllowed = (): void => {
    if (reading && !publishPaused && !socket.writableNeedDrain) socket.resume();
  };
  const finish = (reason: string, error?: unknown): void => {
    if (finished) return;
    finished = true;
    clearInterval(timers.keepAlive);
    clearTimeout(frameTimer);
    connection?.close();
    if (error === undefined) logger.debug("Pulsar connection closed", { reason });
    else logger.info("Pulsar connection closed", { reason, error });
    if (error === undefined) {
      socket.end();
      setTimeout(() => socket.destroy(), 5_000).unref();
    } else {
      socket.destroy();
    }
  };
  try {
    connection = options.openConnection({
      write(parts) {
        for (const part of parts) socket.write(part);
        if (socket.writableNeedDrain && !socket.isPaused()) socket.pause();
      },
      close(reason) {
        finish(reason);
      },
      transport,
      reads: {
        pauseReading() {
          publishPaused = true;
          socket.pause();
        },
        resumeReading() {
          publishPaused = false;
          resumeIfAllowed();
        },
      },
    });
  } catch (error) {
    logger.error("Pulsar connection could not be opened", { error });
    socket.destroy();
    return;
  }
  const keepAlive = setInterval(() => {
    if (options.keepAliveMs === 0) return;
    silentTicks = publishPaused ? 0 : silentTicks + 1;
    if (silentTicks >= 2) finish(`silent for ${String(2 * options.keepAliveMs)} ms`);
    else if (socket.writable) socket.write(PING_FRAME);
  }, options.keepAliveMs || 60_000);
  keepAlive.unref();
  timers.keepAlive = keepAlive;
  /** Reads nothing more; the connection answers the frames before `error` and then closes the socket. */
  const stopReading = (reason: string, error: unknown): void => {
    reading = false;
    clearTimeout(frameTimer);
    socket.pause();
    logger.info("Pulsar connection closing", { reason, error });
    connection?.abort(reason);
  };
  socket.on("drain", resumeIfAllowed);
  socket.on("data", (chunk: Buffer) => {
    if (!reading) return;
    silentTicks = 0;
    const { frames, failure } = decoder.pushSettled(chunk);
    for (const frame of frames) {
      try {
        connection?.handleFrame(frame);
      } catch (error) {
        stopReading("bad frame", error);
        return;
      }
    }
    if (failure !== undefined) {
      stopReading("bad frame", failure);
      return;
    }
    clearTimeout(frameTimer);
    frameTimer = undefined;
    if (decoder.midFrame) {
      frameTimer = setTimeout(
        () => stopReading("incomplete frame", new Error("frame timeout")),
        options.frameTimeoutMs,
      );
      frameTimer.unref();
    }
  });
  socket.on("end", () => finish("client closed"));
  socket.on("error", (error) => finish("socket error", error));
  socket.on("close", () => finish("socket closed"));
}

function listen(server: net.Server, options: PulsarListenerOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      const where = `${options.host}:${String(options.port)}`;
      const reason =
        error.code === "EADDRINUSE"
          ? `${where} is already in use (choose another --pulsar-port)`
          : `${where}: ${error.message}`;
      reject(
        new ListenError(
          `${options.tls === undefined ? "Pulsar listener" : "Pulsar TLS listener"}: ${reason}`,
          error.code,
          error,
        ),
      );
    };
    server.once("error", onError);
    server.once("listening", () => {
      server.off("error", onError);
      resolve();
    });
    server.listen({ host: options.host, port: options.port, backlog: 1024 });
  });
}

/**
 * Several Pulsar listeners (plaintext and TLS) as one: the first bound one's port, the sum of their connections,
 * and shutdown steps applied to each. Absent entries (a listener turned off) are skipped; at least one is needed.
 */
export function combinePulsarListeners(candidates: readonly (PulsarListener | undefined)[]): PulsarListener {
  const listeners = candidates.filter((listener): listener is PulsarListener => listener !== undefined);
  const first = listeners[0];
  if (first === undefined)
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, "no Pulsar listener is bound", { retryable: false });
  return {
    port: first.port,
    get connectionCount() {
      return listeners.reduce((sum, listener) => sum + listener.connectionCount, 0);
    },
    stopAccepting() {
      for (const listener of listeners) listener.stopAccepting();
    },
    async close() {
      await Promise.all(listeners.map((listener) => listener.close()));
    },
  };
}
