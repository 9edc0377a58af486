// A raw TCP client of the broker's Pulsar listener for tests that send hand-made or hostile frames: writes whatever
// it is given, decodes the frames the broker sends back (counting them by command type) and reports when the
// broker closes the connection. Every wait is bounded.
import net from "node:net";
import { PulsarFrameDecoder, decodeFrame } from "@nereus/pulsar/protocol";

/** One raw Pulsar connection. */
export class RawPulsarSocket {
  readonly socket: net.Socket;
  /** Frames received from the broker, by command type ("UNDECODABLE" for a frame the client cannot decode). */
  readonly received = new Map<string, number>();
  /** Resolves when the socket is closed (by either side). */
  readonly closed: Promise<void>;
  readonly #decoder = new PulsarFrameDecoder({ maxFrameBytes: 64 * 1024 * 1024 });
  #isClosed = false;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on("data", (chunk: Buffer) => this.#receive(chunk));
    socket.on("error", () => undefined);
    this.closed = new Promise((resolve) =>
      socket.once("close", () => {
        this.#isClosed = true;
        resolve();
      }),
    );
  }

  /** Connects to 127.0.0.1:`port`. */
  static async connect(port: number): Promise<RawPulsarSocket> {
    const socket = net.connect({ host: "127.0.0.1", port });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("error", reject);
    });
    return new RawPulsarSocket(socket);
  }

  get isClosed(): boolean {
    return this.#isClosed;
  }

  /** How many frames arrived in all. */
  get frameCount(): number {
    let total = 0;
    for (const count of this.received.values()) total += count;
    return total;
  }

  /** How many frames of `type` arrived. */
  count(type: string): number {
    return this.received.get(type) ?? 0;
  }

  /** Writes `bytes` unless the socket is closed; resolves once they are handed to the kernel (or the socket closed). */
  async write(bytes: Uint8Array): Promise<void> {
    if (this.#isClosed || this.socket.destroyed) return;
    await new Promise<void>((resolve) => {
      this.socket.write(bytes, () => resolve());
    });
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

  #receive(chunk: Buffer): void {
    let frames: Uint8Array[];
    try {
      frames = this.#decoder.push(chunk);
    } catch {
      this.#bump("UNDECODABLE");
      return;
    }
    for (const frame of frames) {
      try {
        this.#bump(decodeFrame(frame).command.type);
      } catch {
        this.#bump("UNDECODABLE");
      }
    }
  }

  #bump(type: string): void {
    this.received.set(type, (this.received.get(type) ?? 0) + 1);
  }
}
