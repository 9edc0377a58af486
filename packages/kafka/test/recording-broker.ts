// A throwaway Kafka "broker" for capture tests: a TCP server on 127.0.0.1 (free port) that splits frames with
// FrameDecoder, records every request frame raw and decoded, and answers from a script of response builders
// written with this package's encoders. Requests without a script entry get no answer (the client times out),
// which is how a capture ends. Real clients (kcat, kafkajs) pointed at it show that the decoders read what they
// send and that they accept what the encoders write.
import net from "node:net";
import { encodeApiVersionsFallback } from "../src/protocol/advertised-api-versions.js";
import { type DecodedRequest, type KafkaRequest, decodeRequest } from "../src/protocol/decode-request.js";
import { encodeResponse } from "../src/protocol/encode-response.js";
import { FrameDecoder } from "../src/protocol/frames/frame-decoder.js";
import type { ResponseBody, SupportedApiKey } from "../src/protocol/supported-apis.js";

/** One recorded request frame (size prefix removed). */
export interface RecordedFrame {
  readonly frame: Uint8Array;
  readonly decoded: DecodedRequest | Error;
}

/** Builds the response to a request of API `K`, or returns undefined to leave it unanswered. */
export type ResponseScript = {
  [K in SupportedApiKey]?: (
    request: Extract<KafkaRequest, { apiKey: K }>,
    broker: { port: number },
  ) => ResponseBody<K> | undefined;
};

/** A running recording broker. */
export interface RecordingBroker {
  readonly port: number;
  readonly frames: RecordedFrame[];
  /** Failures of the response script or encoders (a test asserts there are none). */
  readonly errors: Error[];
  /** Resolves once `count` frames matching `predicate` were recorded. */
  waitFor(predicate: (frame: RecordedFrame) => boolean, count?: number): Promise<RecordedFrame[]>;
  close(): Promise<void>;
}

/** Starts a recording broker answering from `script`. */
export async function startRecordingBroker(script: ResponseScript): Promise<RecordingBroker> {
  const frames: RecordedFrame[] = [];
  const errors: Error[] = [];
  const waiters: Array<() => void> = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    const decoder = new FrameDecoder();
    socket.on("data", (chunk) => {
      for (const frame of decoder.push(chunk)) {
        const copy = frame.slice();
        let decoded: DecodedRequest | Error;
        try {
          decoded = decodeRequest(copy);
        } catch (error) {
          decoded = error as Error;
        }
        frames.push({ frame: copy, decoded });
        for (const wake of waiters.splice(0)) wake();
        try {
          const reply = respond(decoded, script, port);
          if (reply !== undefined) socket.write(reply);
        } catch (error) {
          errors.push(error as Error);
          socket.destroy();
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    frames,
    errors,
    async waitFor(predicate, count = 1) {
      for (;;) {
        const matching = frames.filter(predicate);
        if (matching.length >= count) return matching;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function respond(decoded: DecodedRequest | Error, script: ResponseScript, port: number): Uint8Array | undefined {
  if (decoded instanceof Error) return undefined;
  if (decoded.kind === "unsupported-version")
    return decoded.apiKey === 18 ? encodeApiVersionsFallback(decoded.correlationId) : undefined;
  if (decoded.kind !== "request") return undefined;
  const build = script[decoded.apiKey] as ((request: KafkaRequest, broker: { port: number }) => unknown) | undefined;
  const body = build?.(decoded, { port });
  return body === undefined ? undefined : encodeResponse(decoded, body as never);
}
