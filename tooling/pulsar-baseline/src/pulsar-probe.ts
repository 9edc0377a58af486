// Readiness probe of a Pulsar broker over its binary protocol, as a producer meets it: CONNECT → CONNECTED, LOOKUP
// of a topic → Connect (the broker owns it), PRODUCER → PRODUCER_SUCCESS, CLOSE_PRODUCER → SUCCESS. A broker that
// answers all four can take a producer; one that answers an HTTP health check may still be assigning its namespace.
// Frames go through @nereus/pulsar/protocol; PINGs are answered. Used on both brokers of the benchmark.
import net from "node:net";
import {
  type DecodedCommand,
  LookupOutcome,
  type PulsarCommand,
  PulsarFrameDecoder,
  ServerError,
  decodeFrame,
  encodeCommandFrame,
  enumValueName,
} from "@nereus/pulsar/protocol";
import { PulsarBaselineError, reasonOf } from "./errors.js";

/** What the probe learned. */
export interface PulsarProbeResult {
  /** CONNECTED.server_version. */
  readonly serverVersion: string;
  /** The producer name the broker assigned. */
  readonly producerName: string;
}

/** The protocol version the probe speaks (21, as the 4.x Java client). */
const PROTOCOL_VERSION = 21;

/** A connection that sends commands and awaits the next reply of a wanted type. */
class ProbeConnection {
  readonly #socket: net.Socket;
  readonly #decoder = new PulsarFrameDecoder();
  readonly #received: DecodedCommand[] = [];
  #waiter: (() => void) | undefined;
  #failure: Error | undefined;

  constructor(socket: net.Socket) {
    this.#socket = socket;
    socket.on("connect", () => this.#wake());
    socket.on("data", (chunk: Buffer) => {
      try {
        for (const frame of this.#decoder.push(chunk)) this.#accept(decodeFrame(frame).command);
      } catch (error) {
        this.#fail(error instanceof Error ? error : new Error(String(error)));
      }
    });
    socket.on("error", (error) => this.#fail(error));
    socket.on("close", () => this.#fail(new Error("the broker closed the connection")));
  }

  /** Resolves once the TCP connection is open. */
  async connected(): Promise<void> {
    while (this.#socket.connecting) {
      if (this.#failure !== undefined) throw this.#failure;
      await new Promise<void>((resolve) => {
        this.#waiter = resolve;
      });
    }
    if (this.#failure !== undefined) throw this.#failure;
  }

  send(command: PulsarCommand): void {
    this.#socket.write(encodeCommandFrame(command));
  }

  /** The next received command whose type is one of `types` (others are dropped). */
  async next(types: readonly string[]): Promise<DecodedCommand> {
    for (;;) {
      const index = this.#received.findIndex((command) => types.includes(command.type));
      if (index >= 0) return this.#received.splice(index, 1)[0] as DecodedCommand;
      if (this.#failure !== undefined) throw this.#failure;
      await new Promise<void>((resolve) => {
        this.#waiter = resolve;
      });
    }
  }

  /** Ends the connection; a pending wait fails with `reason`. */
  close(reason = "the probe closed the connection"): void {
    this.#fail(new Error(reason));
    this.#socket.destroy();
  }

  #accept(command: DecodedCommand): void {
    if (command.type === "PING") {
      this.send({ type: "PONG", body: {} });
      return;
    }
    this.#received.push(command);
    this.#wake();
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    this.#wake();
  }

  #wake(): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.();
  }
}

function serverErrorText(command: DecodedCommand): string {
  if (command.type === "ERROR")
    return `${enumValueName(ServerError, command.body.error) ?? String(command.body.error)}: ${command.body.message}`;
  return `unexpected ${command.type}`;
}

/**
 * One probe: opens a connection, creates a producer on `topic` and closes it, all within `timeoutMs`.
 * @throws Error naming the step that failed (a refused connection, an ERROR reply, a redirect, the time-out).
 */
export async function probePulsar(
  host: string,
  port: number,
  topic: string,
  timeoutMs = 15_000,
): Promise<PulsarProbeResult> {
  const connection = new ProbeConnection(net.connect({ host, port }));
  const timer = setTimeout(() => connection.close(`no answer within ${String(timeoutMs)} ms`), timeoutMs);
  try {
    await connection.connected();
    connection.send({
      type: "CONNECT",
      body: { clientVersion: "nereus-pulsar-baseline-probe", protocolVersion: PROTOCOL_VERSION },
    });
    const connected = await connection.next(["CONNECTED", "ERROR"]);
    if (connected.type !== "CONNECTED") throw new Error(`CONNECT: ${serverErrorText(connected)}`);
    connection.send({ type: "LOOKUP", body: { topic, requestId: 1n, authoritative: false } });
    const lookup = await connection.next(["LOOKUP_RESPONSE"]);
    if (lookup.type !== "LOOKUP_RESPONSE" || lookup.body.response !== LookupOutcome.Connect) {
      const body = lookup.type === "LOOKUP_RESPONSE" ? lookup.body : undefined;
      const outcome = enumValueName(LookupOutcome, body?.response ?? -1) ?? String(body?.response);
      throw new Error(`LOOKUP ${topic}: ${outcome}${body?.message === undefined ? "" : ` (${body.message})`}`);
    }
    connection.send({ type: "PRODUCER", body: { topic, producerId: 1n, requestId: 2n } });
    const producer = await connection.next(["PRODUCER_SUCCESS", "ERROR"]);
    if (producer.type !== "PRODUCER_SUCCESS") throw new Error(`PRODUCER ${topic}: ${serverErrorText(producer)}`);
    connection.send({ type: "CLOSE_PRODUCER", body: { producerId: 1n, requestId: 3n } });
    const closed = await connection.next(["SUCCESS", "ERROR"]);
    if (closed.type !== "SUCCESS") throw new Error(`CLOSE_PRODUCER: ${serverErrorText(closed)}`);
    return { serverVersion: connected.body.serverVersion, producerName: producer.body.producerName };
  } finally {
    clearTimeout(timer);
    connection.close();
  }
}

/** Options of {@link waitForPulsar}. */
export interface WaitForPulsarOptions {
  readonly timeoutMs: number;
  /** Topic the probe producer opens (default `persistent://public/default/nereus-readiness-probe`). */
  readonly topic?: string;
  /** A reason when the broker process is gone (ends the wait at once), else undefined. */
  readonly isDead?: () => string | undefined;
}

/**
 * Probes until one probe passes, each try bounded by the time left.
 * @throws PulsarBaselineError("probe") with the last failure once `timeoutMs` has passed or `isDead` answers.
 */
export async function waitForPulsar(
  host: string,
  port: number,
  options: WaitForPulsarOptions,
): Promise<PulsarProbeResult> {
  const topic = options.topic ?? "persistent://public/default/nereus-readiness-probe";
  const deadline = Date.now() + options.timeoutMs;
  let last = "no probe ran";
  for (;;) {
    const dead = options.isDead?.();
    if (dead !== undefined) throw new PulsarBaselineError("probe", `${dead}; last probe: ${last}`);
    const left = deadline - Date.now();
    if (left <= 0)
      throw new PulsarBaselineError("probe", `no producer within ${String(options.timeoutMs / 1000)} s: ${last}`);
    try {
      return await probePulsar(host, port, topic, Math.min(left, 15_000));
    } catch (error) {
      last = reasonOf(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
