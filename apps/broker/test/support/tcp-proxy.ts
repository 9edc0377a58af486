// A loopback TCP proxy for partition tests: it forwards connections to one target until told to blackhole them.
// Blackholed, it stops reading on both sides of every connection (bytes already sent wait in the socket buffers)
// and holds new connections without connecting them upstream; healed, it resumes, so requests sent during the cut
// reach the target late, the way a network partition that heals delivers them. `dropAll` ends every connection.
import net from "node:net";

/** One accepted connection and its upstream half (absent while held). */
interface Pair {
  readonly downstream: net.Socket;
  upstream: net.Socket | undefined;
}

/**
 * See the module comment. Invariants: at most `maxConnections` connections at once (more are refused); while
 * blackholed, no byte moves in either direction; `close()` ends every connection and the listener.
 */
export class TcpProxy {
  readonly #server: net.Server;
  readonly #target: { readonly host: string; readonly port: number };
  readonly #pairs = new Set<Pair>();
  #blackholed = false;

  private constructor(server: net.Server, target: { host: string; port: number }) {
    this.#server = server;
    this.#target = target;
    server.on("connection", (socket) => this.#accept(socket));
  }

  /** Listens on a free loopback port and forwards to `target` ("http://host:port" or "host:port"). */
  static async start(target: string, maxConnections = 64): Promise<TcpProxy> {
    const url = new URL(target.includes("://") ? target : `tcp://${target}`);
    const server = net.createServer({ pauseOnConnect: true });
    server.maxConnections = maxConnections;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    return new TcpProxy(server, { host: url.hostname, port: Number(url.port) });
  }

  /** The port clients connect to. */
  get port(): number {
    const address = this.#server.address();
    if (typeof address !== "object" || address === null) throw new Error("the proxy is not listening");
    return address.port;
  }

  /** Connections open now. */
  get connections(): number {
    return this.#pairs.size;
  }

  /** Stops every byte in both directions; connections stay open. */
  blackhole(): void {
    this.#blackholed = true;
    for (const pair of this.#pairs) {
      pair.downstream.pause();
      pair.upstream?.pause();
    }
  }

  /** Resumes forwarding: held connections connect upstream, buffered bytes flow on. */
  heal(): void {
    this.#blackholed = false;
    for (const pair of this.#pairs) this.#forward(pair);
  }

  /** Ends every connection at once (both sides see a reset). */
  dropAll(): void {
    for (const pair of [...this.#pairs]) this.#drop(pair);
  }

  /** Ends every connection and stops listening. */
  async close(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(downstream: net.Socket): void {
    const pair: Pair = { downstream, upstream: undefined };
    this.#pairs.add(pair);
    downstream.on("error", () => this.#drop(pair));
    downstream.on("close", () => this.#drop(pair));
    if (!this.#blackholed) this.#forward(pair);
  }

  /** Connects `pair` upstream if it is not yet, and lets bytes flow both ways. */
  #forward(pair: Pair): void {
    if (!this.#pairs.has(pair)) return;
    if (pair.upstream === undefined) {
      const upstream = net.connect(this.#target);
      pair.upstream = upstream;
      upstream.on("error", () => this.#drop(pair));
      upstream.on("close", () => this.#drop(pair));
      this.#relay(pair.downstream, upstream);
      this.#relay(upstream, pair.downstream);
    }
    pair.downstream.resume();
    pair.upstream.resume();
  }

  /** Copies `from` into `to`, pausing `from` while `to` is full; `drain` resumes it only when not blackholed. */
  #relay(from: net.Socket, to: net.Socket): void {
    from.on("data", (chunk: Buffer) => {
      if (!to.write(chunk)) from.pause();
    });
    to.on("drain", () => {
      if (!this.#blackholed) from.resume();
    });
    from.on("end", () => to.end());
  }

  #drop(pair: Pair): void {
    if (!this.#pairs.delete(pair)) return;
    pair.downstream.resetAndDestroy();
    pair.upstream?.resetAndDestroy();
  }
}
