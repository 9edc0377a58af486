// The Kafka TCP listener: one net.Server; per socket a FrameDecoder splits the byte stream into request frames,
// each frame goes to the broker's sans-IO FrameConnection, and responses are written in request order. A bad
// size prefix (negative, above maxFrameBytes) or a frame the connection refuses (undecodable header, unknown API
// or version) closes that socket only; nothing a client sends can throw out of here. Guard rails against hostile
// or careless clients: connections are admitted up to a per-broker and a per-IP limit; a connection idle for
// `idleTimeoutMs` is closed, and so is one that leaves a request frame incomplete for `requestFrameTimeoutMs`;
// reading pauses (backpressure) while a connection has too many requests or bytes in flight, its socket buffer is
// full, or the broker's request memory budget has no room for the frame it is receiving, and resumes when they
// drain. A client that half-closes gets its waiting requests (long-polls) answered at once. Shutdown:
// `stopAccepting`, then `drain` (stop reading, let in-flight responses go out), then `close`.
import net from "node:net";
import { FrameDecoder } from "@nereus/kafka/protocol";
import type { BrokerLogger } from "../logging/json-logger.js";
import { type ConnectionAdmission, RateLimitedLog } from "./connection-admission.js";
import type { RequestMemoryBudget } from "./request-memory-budget.js";
import type { Counter, Gauge, Histogram } from "../metrics/metrics-registry.js";

/** The sans-IO side of one connection (the Kafka broker's KafkaConnection fits). */
export interface FrameConnection {
  /** Resolves with the response frame (size prefix included) or undefined for no response; settles in call order; rejects to close. */
  handleFrame(frame: Uint8Array): Promise<Uint8Array | undefined>;
  /** When offered: the response as parts written in order with one vectored write (large record data not copied). */
  handleFrameParts?(frame: Uint8Array): Promise<readonly Uint8Array[] | undefined>;
  /** When offered: the client half-closed; requests waiting for more data answer at once. */
  endOfInput?(): void;
  close(): void;
}

/** The listener's metrics (registered by the composition root). */
export interface ListenerMetrics {
  readonly accepted: Counter;
  readonly active: Gauge;
  readonly closedOnError: Counter;
  /** Connections refused on accept, by `reason` (broker-limit, ip-limit). */
  readonly refused: Counter;
  /** Connections closed by a timeout, by `reason` (idle, incomplete-frame). */
  readonly timedOut: Counter;
  readonly bytesReceived: Counter;
  readonly bytesSent: Counter;
  /** Seconds from a complete request frame to its response handed to the socket, by API name. */
  readonly requestSeconds: Histogram;
}

export interface KafkaListenerOptions {
  readonly host: string;
  readonly port: number;
  readonly maxFrameBytes: number;
  /** Requests read ahead of their responses before reading pauses. */
  readonly maxInFlightRequests: number;
  /** Bytes of request frames read ahead of their responses on one connection before reading pauses. */
  readonly maxInFlightBytesPerConnection: number;
  /** The broker-wide budget of request bytes held (shared with other listeners). */
  readonly requestMemory: RequestMemoryBudget;
  /** Admission of new connections (per broker and per IP; shared with other listeners). */
  readonly admission: ConnectionAdmission;
  /** A connection with no request in flight and no traffic for this long is closed; 0 = never. */
  readonly idleTimeoutMs: number;
  /** A request frame must be received whole within this long of its first byte (while reading is not paused). */
  readonly requestFrameTimeoutMs: number;
  readonly openConnection: (peer: string) => FrameConnection;
  readonly logger: BrokerLogger;
  readonly metrics: ListenerMetrics;
  /** API key → name, for the latency histogram. */
  readonly apiName: (apiKey: number) => string;
}

interface Client {
  readonly id: number;
  readonly socket: net.Socket;
  readonly connection: FrameConnection;
  readonly decoder: FrameDecoder;
  readonly peer: string;
  readonly ip: string;
  /** Settles when every response handed to the connection so far was written (or the socket died). */
  tail: Promise<void>;
  inFlight: number;
  /** Bytes of the request frames in flight. */
  inFlightBytes: number;
  /** Budget bytes reserved for the frame being received (its declared size), or 0. */
  reservedBytes: number;
  /** True while waiting for the memory budget (reading paused). */
  waitingForMemory: boolean;
  /** Fires when the frame being received took too long. */
  frameTimer: ReturnType<typeof setTimeout> | undefined;
  readingPaused: boolean;
  draining: boolean;
  closed: boolean;
  /** True while the socket is corked for the responses of the current turn (uncorked on the next tick). */
  corked: boolean;
}

/** A bound Kafka listener. */
export interface KafkaListener {
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
  const clients = new Set<Client>();
  const { logger, metrics } = options;
  const { admission } = options;
  const refusedLog = new RateLimitedLog(10_000);
  let nextId = 1;
  let accepting = true;
  let closing: Promise<void> | undefined;

  // allowHalfOpen: a client that shuts down its sending side still gets the answers to what it sent.
  const server = net.createServer({ noDelay: true, keepAlive: true, keepAliveInitialDelay: 30_000, allowHalfOpen: true });

  function closeClient(client: Client, reason: string, error?: unknown): void {
    if (client.closed) return;
    client.closed = true;
    clients.delete(client);
    admission.release(client.ip);
    clearTimeout(client.frameTimer);
    client.frameTimer = undefined;
    options.requestMemory.cancel(client);
    options.requestMemory.release(client.reservedBytes);
    client.reservedBytes = 0;
    metrics.active.add(-1);
    try {
      client.connection.close();
    } catch (closeError) {
      logger.warn("Kafka connection close failed", { connection: client.id, error: closeError });
    }
    if (error !== undefined) {
      metrics.closedOnError.inc();
      logger.info("Kafka connection closed", { connection: client.id, peer: client.peer, reason, error });
    } else {
      logger.debug("Kafka connection closed", { connection: client.id, peer: client.peer, reason });
    }
    if (error !== undefined) {
      client.socket.destroy();
      return;
    }
    // Graceful: flush what was written, then let the socket go (bounded, in case the peer never reads).
    client.socket.end();
    setTimeout(() => client.socket.destroy(), 5_000).unref();
  }

  function updateReading(client: Client): void {
    if (client.closed) return;
    const shouldPause =
      client.draining ||
      client.waitingForMemory ||
      client.inFlight >= options.maxInFlightRequests ||
      client.inFlightBytes >= options.maxInFlightBytesPerConnection ||
      client.socket.writableNeedDrain;
    if (shouldPause && !client.readingPaused) {
      client.readingPaused = true;
      client.socket.pause();
    } else if (!shouldPause && client.readingPaused) {
      client.readingPaused = false;
      client.socket.resume();
    }
    updateFrameTimer(client);
  }

  /** The incomplete-frame clock runs while a frame is partly received and reading is not paused by the broker. */
  function updateFrameTimer(client: Client): void {
    const running = !client.closed && !client.readingPaused && client.decoder.midFrame;
    if (running && client.frameTimer === undefined) {
      client.frameTimer = setTimeout(() => {
        client.frameTimer = undefined;
        metrics.timedOut.inc({ reason: "incomplete-frame" });
        closeClient(client, "incomplete request frame", new Error(`no complete request frame within ${String(options.requestFrameTimeoutMs)} ms`));
      }, options.requestFrameTimeoutMs);
      client.frameTimer.unref();
    } else if (!running && client.frameTimer !== undefined) {
      clearTimeout(client.frameTimer);
      client.frameTimer = undefined;
    }
  }

  /**
   * Charges the frames just completed to the memory budget and reserves the declared size of the one being
   * received; without room, the connection waits (reading paused) until the budget lets it in.
   */
  function accountFrames(client: Client, frames: readonly Uint8Array[]): void {
    const memory = options.requestMemory;
    for (const frame of frames) {
      // The first frame completed is the one whose declared size was reserved, if any.
      if (client.reservedBytes > 0) client.reservedBytes = 0;
      else memory.charge(frame.length);
      client.inFlightBytes += frame.length;
    }
    const need = client.decoder.pendingFrameBytes - client.reservedBytes;
    // A frame already reserved (or a size prefix still incomplete) is read on; at a frame boundary, reading goes on
    // only while the budget is not full.
    if (need === 0 && client.decoder.midFrame) return;
    if (memory.tryReserve(need)) {
      client.reservedBytes += need;
      return;
    }
    client.waitingForMemory = true;
    memory.wait(client, need, () => {
      client.waitingForMemory = false;
      client.reservedBytes += need;
      updateReading(client);
    });
  }

  function corkForThisTurn(client: Client): void {
    if (client.corked) return;
    client.corked = true;
    client.socket.cork();
    process.nextTick(() => {
      client.corked = false;
      client.socket.uncork();
    });
  }

  function onFrame(client: Client, frame: Uint8Array): void {
    const started = performance.now();
    const frameBytes = frame.length;
    const apiKey = frame.length >= 2 ? (frame[0]! << 8) | frame[1]! : -1;
    client.inFlight += 1;
    let response: Promise<Uint8Array | readonly Uint8Array[] | undefined>;
    try {
      response = client.connection.handleFrameParts === undefined ? client.connection.handleFrame(frame) : client.connection.handleFrameParts(frame);
    } catch (error) {
      response = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    // handleFrame's promises settle in call order; chaining on the tail keeps writes in that order regardless.
    client.tail = client.tail.then(async () => {
      let bytes: Uint8Array | readonly Uint8Array[] | undefined;
      try {
        bytes = await response;
      } catch (error) {
        closeClient(client, "request refused", error);
        return;
      } finally {
        client.inFlight -= 1;
        client.inFlightBytes -= frameBytes;
        options.requestMemory.release(frameBytes);
      }
      if (client.closed) return;
      if (bytes !== undefined) {
        // Responses (and response parts) that become ready in the same turn go out as one vectored write: an
        // append that completes several produce requests answers them with one system call, not one each.
        corkForThisTurn(client);
        let sent = 0;
        for (const part of bytes instanceof Uint8Array ? [bytes] : bytes) {
          sent += part.length;
          client.socket.write(part);
        }
        metrics.bytesSent.inc({}, sent);
      }
      metrics.requestSeconds.observe((performance.now() - started) / 1000, { api: options.apiName(apiKey) });
      updateReading(client);
    });
  }

  server.on("connection", (socket) => {
    if (!accepting) {
      socket.destroy();
      return;
    }
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
      return;
    }
    let connection: FrameConnection;
    try {
      connection = options.openConnection(peer);
    } catch (error) {
      admission.release(ip);
      logger.error("Kafka connection could not be opened", { peer, error });
      socket.destroy();
      return;
    }
    const client: Client = {
      id: nextId++,
      socket,
      connection,
      decoder: new FrameDecoder({ maxFrameBytes: options.maxFrameBytes }),
      peer,
      ip,
      tail: Promise.resolve(),
      inFlight: 0,
      inFlightBytes: 0,
      reservedBytes: 0,
      waitingForMemory: false,
      frameTimer: undefined,
      readingPaused: false,
      draining: false,
      closed: false,
      corked: false,
    };
    clients.add(client);
    metrics.accepted.inc();
    metrics.active.add(1);
    logger.debug("Kafka connection opened", { connection: client.id, peer });
    socket.on("data", (chunk: Buffer) => {
      if (client.closed) return;
      metrics.bytesReceived.inc({}, chunk.length);
      let frames: Uint8Array[];
      try {
        frames = client.decoder.push(chunk);
      } catch (error) {
        closeClient(client, "bad frame", error);
        return;
      }
      if (frames.length > 0 && client.frameTimer !== undefined) {
        // A frame completed: the clock starts again for the next one.
        clearTimeout(client.frameTimer);
        client.frameTimer = undefined;
      }
      accountFrames(client, frames);
      for (const frame of frames) onFrame(client, frame);
      updateReading(client);
    });
    socket.on("drain", () => updateReading(client));
    if (options.idleTimeoutMs > 0) {
      socket.setTimeout(options.idleTimeoutMs);
      socket.on("timeout", () => {
        // Re-armed by the next traffic. A connection with a request in flight (a long poll) is not idle, unless its
        // answers wait for a client that stopped reading them (what it holds would never be given back).
        if (client.inFlight > 0 && !client.socket.writableNeedDrain) return;
        metrics.timedOut.inc({ reason: "idle" });
        closeClient(client, `idle for ${String(options.idleTimeoutMs)} ms`);
      });
    }
    socket.on("end", () => {
      // The client half-closed: answer what it sent (long polls at once), then close.
      try {
        client.connection.endOfInput?.();
      } catch (error) {
        logger.warn("Kafka connection end-of-input failed", { connection: client.id, error });
      }
      void client.tail.then(() => closeClient(client, "client closed"));
    });
    socket.on("error", (error) => closeClient(client, "socket error", error));
    socket.on("close", () => closeClient(client, "socket closed"));
  });

  await new Promise<void>((resolve, reject) => {
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
      reject(new ListenError(`Kafka listener: ${reason}`, error.code, error));
    };
    const onListening = (): void => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen({ host: options.host, port: options.port, backlog: 1024 });
  });
  server.on("error", (error) => logger.error("Kafka listener error", { error }));
  const address = server.address();
  const boundPort = typeof address === "object" && address !== null ? address.port : options.port;

  return {
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
      for (const client of clients) {
        client.draining = true;
        updateReading(client);
      }
      const all = Promise.all([...clients].map((client) => client.tail));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), timeoutMs);
      });
      const outcome = await Promise.race([all.then(() => "drained" as const), timeout]);
      clearTimeout(timer);
      if (outcome === "timeout") logger.warn("Kafka listener drain timed out", { timeoutMs, connections: clients.size });
    },
    close() {
      closing ??= (async () => {
        accepting = false;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const client of [...clients]) closeClient(client, "broker shutting down");
        await closed;
      })();
      return closing;
    },
  };
}
