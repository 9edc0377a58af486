// A tiny TCP listener for tests: frames a socket's bytes with FrameDecoder, hands each frame to a
// KafkaConnection and writes the responses back (they settle in request order); a rejected frame or an
// undecodable stream closes the socket. The real listener (backpressure, limits, metrics) lives in apps/broker.
import net from "node:net";
import type { KafkaBroker } from "../src/broker/create-kafka-broker.js";
import { FrameDecoder } from "../src/protocol/frames/frame-decoder.js";

/** A listening socket bound to 127.0.0.1 on a free port. */
export interface TestListener {
  readonly port: number;
  /** Serve connections with this broker from now on. */
  serve(broker: KafkaBroker): void;
  close(): Promise<void>;
}

export async function startTestListener(): Promise<TestListener> {
  let broker: KafkaBroker | undefined;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const current = broker;
    if (current === undefined) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.setNoDelay(true);
    const connection = current.openConnection(`${socket.remoteAddress ?? "?"}:${String(socket.remotePort ?? 0)}`);
    const frames = new FrameDecoder();
    socket.on("data", (chunk: Buffer) => {
      let complete: Uint8Array[];
      try {
        complete = frames.push(chunk);
      } catch {
        socket.destroy();
        return;
      }
      for (const frame of complete) {
        connection.handleFrame(frame).then(
          (response) => {
            if (response !== undefined && !socket.destroyed) socket.write(response);
          },
          () => socket.destroy(),
        );
      }
    });
    socket.on("error", () => socket.destroy());
    socket.on("close", () => {
      sockets.delete(socket);
      connection.close();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    serve(next) {
      broker = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
