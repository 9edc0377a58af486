// A raw TCP client for tests that speak to the broker byte by byte: writes whatever it is given (well-formed
// requests from `@nereus/kafka/protocol`'s encoder, or garbage), collects the response frames, and reports when
// the broker closes the connection. Every wait is bounded.
import net from "node:net";
import { decodeResponse, encodeRequest } from "@nereus/kafka/protocol";

/** One raw connection. */
export class RawKafkaSocket {
  readonly socket: net.Socket;
  /** Response bodies (size prefixes removed), in arrival order. */
  readonly responses: Buffer[] = [];
  /** Resolves when the socket is closed (by either side). */
  readonly closed: Promise<void>;
  #buffer: Buffer = Buffer.alloc(0);
  readonly #waiters: Array<() => void> = [];
  #isClosed = false;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on("data", (chunk: Buffer) => {
      this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
      while (this.#buffer.length >= 4 && this.#buffer.length >= 4 + this.#buffer.readInt32BE(0)) {
        const size = this.#buffer.readInt32BE(0);
        this.responses.push(this.#buffer.subarray(4, 4 + size));
        this.#buffer = this.#buffer.subarray(4 + size);
      }
      this.#wake();
    });
    socket.on("error", () => undefined);
    this.closed = new Promise((resolve) =>
      socket.once("close", () => {
        this.#isClosed = true;
        this.#wake();
        resolve();
      }),
    );
  }

  /** Connects to 127.0.0.1:`port`. */
  static async connect(port: number): Promise<RawKafkaSocket> {
    const socket = net.connect({ host: "127.0.0.1", port });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("error", reject);
    });
    return new RawKafkaSocket(socket);
  }

  get isClosed(): boolean {
    return this.#isClosed;
  }

  /** Waits until `count` responses arrived; rejects when the socket closes first or `timeoutMs` passes. */
  async next(count: number, timeoutMs = 10_000): Promise<Buffer[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.responses.length < count) {
      if (this.#isClosed)
        throw new Error(`connection closed after ${String(this.responses.length)} of ${String(count)} responses`);
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `${String(this.responses.length)} of ${String(count)} responses within ${String(timeoutMs)} ms`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.responses.slice(0, count);
  }

  /** Waits (bounded) until the broker closed the connection; resolves with whether it did. */
  async closedWithin(timeoutMs: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outcome = await Promise.race([
      this.closed.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    return outcome;
  }

  destroy(): void {
    this.socket.destroy();
  }

  #wake(): void {
    for (const wake of this.#waiters.splice(0)) wake();
  }
}

/** Sends one ApiVersions v3 request on a fresh connection and resolves with its error code (0 when the broker serves). */
export async function apiVersionsErrorCode(port: number): Promise<number> {
  const client = await RawKafkaSocket.connect(port);
  try {
    client.socket.write(
      encodeRequest(
        { apiKey: 18, apiVersion: 3, correlationId: 1, clientId: "probe" },
        { clientSoftwareName: "probe", clientSoftwareVersion: "1.0" },
      ),
    );
    const [frame] = await client.next(1);
    return decodeResponse({ apiKey: 18, apiVersion: 3 }, frame!).body.errorCode;
  } finally {
    client.destroy();
  }
}
