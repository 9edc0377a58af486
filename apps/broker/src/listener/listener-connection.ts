// One accepted socket of the Kafka listener (kafka-listener.ts) and the broker connection behind it: a FrameDecoder
// splits the byte stream into request frames, each frame goes to the sans-IO FrameConnection, and responses are
// written in request order (corked per turn, so responses ready together go out as one vectored write). Holds the
// per-connection guard rails: reading pauses while too many requests or bytes are in flight, the socket buffer is
// full or the request memory budget has no room for the frame being received; an incomplete frame and an idle
// connection time out. A bad frame, a refused request or a socket error closes this socket only. Owns its socket;
// request frames are released to the memory budget once their response was written.
import type net from "node:net";
import { FrameDecoder } from "@nereus/kafka/protocol";
import type { BrokerLogger } from "../logging/broker-logger.js";
import type { ListenerMetrics } from "./listener-metrics.js";
import type { ConnectionAdmission } from "./connection-admission.js";
import type { RequestMemoryBudget } from "./request-memory-budget.js";

/** The sans-IO side of one connection (the Kafka broker's KafkaConnection fits). */
export interface FrameConnection {
  /** Resolves with the response frame (size prefix included) or undefined for no response; settles in call order; rejects to close. */
  handleFrame(frame: Uint8Array): Promise<Uint8Array | undefined>;
  /** When offered: the response as parts written in order with one vectored write (large record data not copied). */
  handleFrameParts?(frame: Uint8Array): Promise<readonly Uint8Array[] | undefined>;
  /** When offered: the client half-closed; requests waiting for more data answer at once. */
  endOfInput?(): void;
  close(): void;
  /** When offered: true once the connection answered its last request (a failed authentication); it is then closed. */
  readonly finished?: boolean;
}

/** What every connection of one listener shares. */
export interface ListenerConnectionSettings {
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
  readonly logger: BrokerLogger;
  readonly metrics: ListenerMetrics;
  /** API key → name, for the latency histogram. */
  readonly apiName: (apiKey: number) => string;
}

/** One accepted socket and its broker connection. Closed once; `onClosed` runs then. */
export class ListenerConnection {
  readonly id: number;
  readonly socket: net.Socket;
  readonly connection: FrameConnection;
  readonly decoder: FrameDecoder;
  readonly peer: string;
  readonly ip: string;
  /** Settles when every response handed to the connection so far was written (or the socket died). */
  tail: Promise<void> = Promise.resolve();
  inFlight = 0;
  /** Bytes of the request frames in flight. */
  inFlightBytes = 0;
  /** Budget bytes reserved for the frame being received (its declared size), or 0. */
  reservedBytes = 0;
  /** True while waiting for the memory budget (reading paused). */
  waitingForMemory = false;
  /** Fires when the frame being received took too long. */
  frameTimer: ReturnType<typeof setTimeout> | undefined = undefined;
  readingPaused = false;
  draining = false;
  closed = false;
  /** True while the socket is corked for the responses of the current turn (uncorked on the next tick). */
  corked = false;
  readonly #settings: ListenerConnectionSettings;
  readonly #onClosed: (connection: ListenerConnection) => void;

  constructor(
    id: number,
    socket: net.Socket,
    connection: FrameConnection,
    peer: string,
    ip: string,
    settings: ListenerConnectionSettings,
    onClosed: (connection: ListenerConnection) => void,
  ) {
    this.id = id;
    this.socket = socket;
    this.connection = connection;
    this.decoder = new FrameDecoder({ maxFrameBytes: settings.maxFrameBytes });
    this.peer = peer;
    this.ip = ip;
    this.#settings = settings;
    this.#onClosed = onClosed;
  }

  /** Starts serving the socket: frames in, responses out, timeouts, half-close and errors. */
  attach(): void {
    const { socket } = this;
    const { logger, metrics } = this.#settings;
    socket.on("data", (chunk: Buffer) => this.#onData(chunk));
    socket.on("drain", () => this.updateReading());
    const idleTimeoutMs = this.#settings.idleTimeoutMs;
    if (idleTimeoutMs > 0) {
      socket.setTimeout(idleTimeoutMs);
      socket.on("timeout", () => {
        // Re-armed by the next traffic. A connection with a request in flight (a long poll) is not idle, unless its
        // answers wait for a client that stopped reading them (what it holds would never be given back).
        if (this.inFlight > 0 && !this.socket.writableNeedDrain) return;
        metrics.timedOut.inc({ reason: "idle" });
        this.close(`idle for ${String(idleTimeoutMs)} ms`);
      });
    }
    socket.on("end", () => {
      // The client half-closed: answer what it sent (long polls at once), then close.
      try {
        this.connection.endOfInput?.();
      } catch (error) {
        logger.warn("Kafka connection end-of-input failed", { connection: this.id, error });
      }
      void this.tail.then(() => this.close("client closed"));
    });
    socket.on("error", (error) => this.close("socket error", error));
    socket.on("close", () => this.close("socket closed"));
  }

  /** Closes the connection and the socket: at once after an error, else gracefully. Idempotent. */
  close(reason: string, error?: unknown): void {
    if (this.closed) return;
    const { logger, metrics, requestMemory } = this.#settings;
    this.closed = true;
    this.#onClosed(this);
    this.#settings.admission.release(this.ip);
    clearTimeout(this.frameTimer);
    this.frameTimer = undefined;
    requestMemory.cancel(this);
    requestMemory.release(this.reservedBytes);
    this.reservedBytes = 0;
    metrics.active.dec();
    try {
      this.connection.close();
    } catch (closeError) {
      logger.warn("Kafka connection close failed", { connection: this.id, error: closeError });
    }
    if (error !== undefined) {
      metrics.closedOnError.inc();
      logger.info("Kafka connection closed", { connection: this.id, peer: this.peer, reason, error });
    } else {
      logger.debug("Kafka connection closed", { connection: this.id, peer: this.peer, reason });
    }
    if (error !== undefined) {
      this.socket.destroy();
      return;
    }
    // Graceful: flush what was written, then let the socket go (bounded, in case the peer never reads).
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 5_000).unref();
  }

  /** Stops reading requests for good (shutdown); in-flight responses still go out. */
  startDraining(): void {
    this.draining = true;
    this.updateReading();
  }

  /** Pauses or resumes reading as the guard rails say. */
  updateReading(): void {
    if (this.closed) return;
    const settings = this.#settings;
    const shouldPause =
      this.draining ||
      this.waitingForMemory ||
      this.inFlight >= settings.maxInFlightRequests ||
      this.inFlightBytes >= settings.maxInFlightBytesPerConnection ||
      this.socket.writableNeedDrain;
    if (shouldPause && !this.readingPaused) {
      this.readingPaused = true;
      this.socket.pause();
    } else if (!shouldPause && this.readingPaused) {
      this.readingPaused = false;
      this.socket.resume();
    }
    this.#updateFrameTimer();
  }

  #onData(chunk: Buffer): void {
    if (this.closed) return;
    this.#settings.metrics.bytesReceived.inc(chunk.length);
    let frames: Uint8Array[];
    try {
      frames = this.decoder.push(chunk);
    } catch (error) {
      this.close("bad frame", error);
      return;
    }
    if (frames.length > 0 && this.frameTimer !== undefined) {
      // A frame completed: the clock starts again for the next one.
      clearTimeout(this.frameTimer);
      this.frameTimer = undefined;
    }
    this.#accountFrames(frames);
    for (const frame of frames) this.#onFrame(frame);
    this.updateReading();
  }

  /** The incomplete-frame clock runs while a frame is partly received and reading is not paused by the broker. */
  #updateFrameTimer(): void {
    const running = !this.closed && !this.readingPaused && this.decoder.midFrame;
    if (running && this.frameTimer === undefined) {
      const timeoutMs = this.#settings.requestFrameTimeoutMs;
      this.frameTimer = setTimeout(() => {
        this.frameTimer = undefined;
        this.#settings.metrics.timedOut.inc({ reason: "incomplete-frame" });
        this.close("incomplete request frame", new Error(`no complete request frame within ${String(timeoutMs)} ms`));
      }, timeoutMs);
      this.frameTimer.unref();
    } else if (!running && this.frameTimer !== undefined) {
      clearTimeout(this.frameTimer);
      this.frameTimer = undefined;
    }
  }

  /**
   * Charges the frames just completed to the memory budget and reserves the declared size of the one being
   * received; without room, the connection waits (reading paused) until the budget lets it in.
   */
  #accountFrames(frames: readonly Uint8Array[]): void {
    const memory = this.#settings.requestMemory;
    for (const frame of frames) {
      // The first frame completed is the one whose declared size was reserved, if any.
      if (this.reservedBytes > 0) this.reservedBytes = 0;
      else memory.charge(frame.length);
      this.inFlightBytes += frame.length;
    }
    const need = this.decoder.pendingFrameBytes - this.reservedBytes;
    // A frame already reserved (or a size prefix still incomplete) is read on; at a frame boundary, reading goes on
    // only while the budget is not full.
    if (need === 0 && this.decoder.midFrame) return;
    if (memory.tryReserve(need)) {
      this.reservedBytes += need;
      return;
    }
    this.waitingForMemory = true;
    memory.wait(this, need, () => {
      this.waitingForMemory = false;
      this.reservedBytes += need;
      this.updateReading();
    });
  }

  #corkForThisTurn(): void {
    if (this.corked) return;
    this.corked = true;
    this.socket.cork();
    process.nextTick(() => {
      this.corked = false;
      this.socket.uncork();
    });
  }

  #onFrame(frame: Uint8Array): void {
    const started = performance.now();
    const frameBytes = frame.length;
    const apiKey = frame.length >= 2 ? (frame[0]! << 8) | frame[1]! : -1;
    const settings = this.#settings;
    this.inFlight += 1;
    let response: Promise<Uint8Array | readonly Uint8Array[] | undefined>;
    try {
      response =
        this.connection.handleFrameParts === undefined
          ? this.connection.handleFrame(frame)
          : this.connection.handleFrameParts(frame);
    } catch (error) {
      response = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    // handleFrame's promises settle in call order; chaining on the tail keeps writes in that order regardless.
    this.tail = this.tail.then(async () => {
      let bytes: Uint8Array | readonly Uint8Array[] | undefined;
      try {
        bytes = await response;
      } catch (error) {
        this.close("request refused", error);
        return;
      } finally {
        this.inFlight -= 1;
        this.inFlightBytes -= frameBytes;
        settings.requestMemory.release(frameBytes);
      }
      if (this.closed) return;
      if (bytes !== undefined) {
        // Responses (and response parts) that become ready in the same turn go out as one vectored write: an
        // append that completes several produce requests answers them with one system call, not one each.
        this.#corkForThisTurn();
        let sent = 0;
        for (const part of bytes instanceof Uint8Array ? [bytes] : bytes) {
          sent += part.length;
          this.socket.write(part);
        }
        settings.metrics.bytesSent.inc(sent);
      }
      if (this.connection.finished === true) {
        this.close("connection finished (authentication failed)");
        return;
      }
      settings.metrics.requestSeconds.observe({ api: settings.apiName(apiKey) }, (performance.now() - started) / 1000);
      this.updateReading();
    });
  }
}
