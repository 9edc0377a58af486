// A minimal Kafka client over one loopback socket for tests that must send bytes no real client would: requests
// are framed with @nereus/kafka/protocol's encoder, responses read by their int32 length and decoded. Requests
// are answered in order, so each call waits for the next response frame.
import { type Socket, connect } from "node:net";
import { protocol } from "@nereus/kafka";

type ApiKey = Parameters<typeof protocol.encodeRequest>[0]["apiKey"];

/** One connection; `close()` ends it. */
export class RawKafkaClient {
  readonly #socket: Socket;
  #buffered = Buffer.alloc(0);
  #waiting: Array<(frame: Buffer) => void> = [];
  #correlationId = 0;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on("data", (chunk: Buffer) => {
      this.#buffered = Buffer.concat([this.#buffered, chunk]);
      while (this.#buffered.length >= 4 && this.#buffered.length >= 4 + this.#buffered.readInt32BE(0)) {
        const size = this.#buffered.readInt32BE(0);
        const frame = this.#buffered.subarray(4, 4 + size);
        this.#buffered = this.#buffered.subarray(4 + size);
        this.#waiting.shift()?.(frame);
      }
    });
  }

  /** Connects to `bootstrap` ("host:port"). */
  static async connect(bootstrap: string): Promise<RawKafkaClient> {
    const [host, port] = bootstrap.split(":");
    const socket = connect({ host: host ?? "127.0.0.1", port: Number(port) });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    return new RawKafkaClient(socket);
  }

  /** Sends one request and resolves with the decoded response body. */
  async request<K extends ApiKey>(
    apiKey: K,
    apiVersion: number,
    body: Parameters<typeof protocol.encodeRequest<K>>[1],
  ): Promise<ReturnType<typeof protocol.decodeResponse<K>>["body"]> {
    const correlationId = ++this.#correlationId;
    const response = new Promise<Buffer>((resolve) => this.#waiting.push(resolve));
    this.#socket.write(protocol.encodeRequest({ apiKey, apiVersion, correlationId, clientId: "raw-test" }, body));
    return protocol.decodeResponse({ apiKey, apiVersion }, await response).body;
  }

  /** Ends the connection. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.#socket.end(resolve));
    this.#socket.destroy();
  }
}
