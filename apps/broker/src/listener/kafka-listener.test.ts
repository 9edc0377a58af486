import net from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { Registry } from "prom-client";
import { PinoBrokerLogger } from "../logging/broker-logger.js";
import { registerListenerMetrics } from "./listener-metrics.js";
import { type KafkaListener, type KafkaListenerOptions, ListenError, startKafkaListener } from "./kafka-listener.js";
import type { FrameConnection } from "./listener-connection.js";
import { ConnectionAdmission } from "./connection-admission.js";
import { RequestMemoryBudget } from "./request-memory-budget.js";

const listeners: KafkaListener[] = [];
afterEach(async () => {
  for (const listener of listeners.splice(0)) await listener.close();
});

/** Echoes each request frame back as a response frame after `delay(frame)` ms; frames starting with 0xff are refused. */
function echoConnection(
  log: string[],
  delay: (frame: Uint8Array) => number = () => 0,
): (peer: string) => FrameConnection {
  return (peer) => {
    let tail: Promise<unknown> = Promise.resolve();
    return {
      handleFrame(frame) {
        const copy = frame.slice();
        const answer = new Promise<Uint8Array | undefined>((resolve, reject) => {
          setTimeout(() => {
            if (copy[0] === 0xff) reject(new Error("refused"));
            else if (copy[0] === 0xfe) resolve(undefined);
            else resolve(withSize(copy));
          }, delay(copy));
        });
        // Kafka connections settle in call order; model that.
        const ordered = tail.then(() => answer);
        tail = ordered.catch(() => undefined);
        return ordered;
      },
      close() {
        log.push(`closed ${peer.replace(/:\d+$/, "")}`);
      },
    };
  };
}

function withSize(body: Uint8Array): Uint8Array {
  const frame = new Uint8Array(4 + body.length);
  new DataView(frame.buffer).setInt32(0, body.length);
  frame.set(body, 4);
  return frame;
}

type LimitOptions = Partial<
  Pick<
    KafkaListenerOptions,
    | "maxFrameBytes"
    | "maxInFlightRequests"
    | "maxInFlightBytesPerConnection"
    | "requestMemory"
    | "admission"
    | "idleTimeoutMs"
    | "requestFrameTimeoutMs"
  >
>;

async function start(
  openConnection: (peer: string) => FrameConnection,
  options: LimitOptions = {},
): Promise<{ listener: KafkaListener; metrics: Registry }> {
  const metrics = new Registry();
  const listener = await startKafkaListener({
    host: "127.0.0.1",
    port: 0,
    maxFrameBytes: 1_024,
    maxInFlightRequests: 100,
    maxInFlightBytesPerConnection: 1 << 20,
    requestMemory: new RequestMemoryBudget(1 << 24),
    admission: new ConnectionAdmission({ maxConnections: 1_000, maxConnectionsPerIp: 1_000 }),
    idleTimeoutMs: 60_000,
    requestFrameTimeoutMs: 30_000,
    ...options,
    openConnection,
    logger: new PinoBrokerLogger({ level: "error", sink: { write: () => true } }),
    metrics: registerListenerMetrics(metrics),
    apiName: (apiKey) => `api${String(apiKey)}`,
  });
  listeners.push(listener);
  return { listener, metrics };
}

/** A raw client: writes bytes, collects response bodies (size prefixes removed), reports when the server closes. */
async function connect(port: number): Promise<{
  socket: net.Socket;
  responses: Uint8Array[];
  closed: Promise<void>;
  next(count: number): Promise<Uint8Array[]>;
}> {
  const socket = net.connect({ host: "127.0.0.1", port });
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  const responses: Uint8Array[] = [];
  let buffer = Buffer.alloc(0);
  const waiters: Array<() => void> = [];
  socket.on("data", (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    while (buffer.length >= 4 && buffer.length >= 4 + buffer.readInt32BE(0)) {
      const size = buffer.readInt32BE(0);
      responses.push(new Uint8Array(buffer.subarray(4, 4 + size)));
      buffer = buffer.subarray(4 + size);
    }
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.on("error", () => undefined);
  return {
    socket,
    responses,
    closed,
    async next(count) {
      while (responses.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      return responses.slice(0, count);
    },
  };
}

describe("Kafka listener", () => {
  test("answers pipelined requests in request order even when later ones finish first", async () => {
    const log: string[] = [];
    const { listener, metrics } = await start(echoConnection(log, (frame) => (frame[1] === 1 ? 50 : 0)));
    const client = await connect(listener.port);
    client.socket.write(
      Buffer.concat([
        withSize(new Uint8Array([0, 1, 0xaa])),
        withSize(new Uint8Array([0, 2, 0xbb])),
        withSize(new Uint8Array([0xfe, 3])),
      ]),
    );
    client.socket.write(withSize(new Uint8Array([0, 4, 0xcc])));
    const responses = await client.next(3);
    expect(responses.map((response) => [...response])).toEqual([
      [0, 1, 0xaa],
      [0, 2, 0xbb],
      [0, 4, 0xcc],
    ]);
    expect(await metrics.metrics()).toContain('nereus_kafka_request_duration_seconds_count{api="api1"} 1');
    client.socket.destroy();
  });

  test("a bad size prefix or a refused frame closes that connection only", async () => {
    const log: string[] = [];
    const { listener, metrics } = await start(echoConnection(log));
    const healthy = await connect(listener.port);
    const oversized = await connect(listener.port);
    const refused = await connect(listener.port);
    const negative = await connect(listener.port);
    oversized.socket.write(withSize(new Uint8Array(2_000)));
    refused.socket.write(
      Buffer.concat([
        withSize(new Uint8Array([0, 1])),
        withSize(new Uint8Array([0xff])),
        withSize(new Uint8Array([0, 2])),
      ]),
    );
    negative.socket.write(new Uint8Array([0xff, 0xff, 0xff, 0xf0]));
    await Promise.all([oversized.closed, refused.closed, negative.closed]);
    // The refused connection still got the answer to the request before the refused one.
    expect(refused.responses.map((response) => [...response])).toEqual([[0, 1]]);
    healthy.socket.write(withSize(new Uint8Array([0, 9])));
    expect((await healthy.next(1)).map((response) => [...response])).toEqual([[0, 9]]);
    expect(await metrics.metrics()).toContain("nereus_listener_connections_closed_on_error_total 3");
    expect(listener.connectionCount).toBe(1);
    healthy.socket.destroy();
  });

  test("reading pauses at the in-flight limit and every request is still answered", async () => {
    const { listener } = await start(
      echoConnection([], () => 5),
      { maxInFlightRequests: 2 },
    );
    const client = await connect(listener.port);
    const frames = Array.from({ length: 50 }, (_, index) => withSize(new Uint8Array([0, index])));
    client.socket.write(Buffer.concat(frames));
    const responses = await client.next(50);
    expect(responses.map((response) => response[1])).toEqual(Array.from({ length: 50 }, (_, index) => index));
    client.socket.destroy();
  });

  test("drain lets in-flight responses out; stopAccepting refuses new connections", async () => {
    const { listener } = await start(echoConnection([], () => 100));
    const client = await connect(listener.port);
    client.socket.write(withSize(new Uint8Array([0, 7])));
    await new Promise((resolve) => setTimeout(resolve, 20));
    listener.stopAccepting();
    const started = Date.now();
    await listener.drain(5_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
    expect((await client.next(1)).map((response) => [...response])).toEqual([[0, 7]]);
    const late = net.connect({ host: "127.0.0.1", port: listener.port });
    const outcome = await new Promise<string>((resolve) => {
      late.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
      late.once("close", () => resolve("closed"));
    });
    expect(["ECONNREFUSED", "ECONNRESET", "closed"]).toContain(outcome);
    await listener.close();
    await client.closed;
  });

  test("a port in use is a one-line ListenError", async () => {
    const { listener } = await start(echoConnection([]));
    const error = await startKafkaListener({
      host: "127.0.0.1",
      port: listener.port,
      maxFrameBytes: 1_024,
      maxInFlightRequests: 1,
      maxInFlightBytesPerConnection: 1_024,
      requestMemory: new RequestMemoryBudget(1_024),
      admission: new ConnectionAdmission({ maxConnections: 1, maxConnectionsPerIp: 1 }),
      idleTimeoutMs: 0,
      requestFrameTimeoutMs: 1_000,
      openConnection: echoConnection([]),
      logger: new PinoBrokerLogger({ sink: { write: () => true } }),
      metrics: registerListenerMetrics(new Registry()),
      apiName: String,
    }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ListenError);
    expect((error as Error).message).toBe(
      `Kafka listener: 127.0.0.1:${String(listener.port)} is already in use (is another broker or Kafka running? choose another --kafka-port)`,
    );
  });

  test("connections above the per-IP and per-broker limits are closed on accept; closing one admits another", async () => {
    const { listener, metrics } = await start(echoConnection([]), {
      admission: new ConnectionAdmission({ maxConnections: 1_000, maxConnectionsPerIp: 2 }),
    });
    const first = await connect(listener.port);
    const second = await connect(listener.port);
    const third = await connect(listener.port);
    await third.closed;
    expect(await metrics.metrics()).toContain('nereus_listener_connections_refused_total{reason="ip-limit"} 1');
    first.socket.destroy();
    await first.closed;
    await expect.poll(() => listener.connectionCount).toBe(1);
    const fourth = await connect(listener.port);
    fourth.socket.write(withSize(new Uint8Array([0, 4])));
    expect((await fourth.next(1)).map((response) => [...response])).toEqual([[0, 4]]);
    second.socket.destroy();
    fourth.socket.destroy();

    const small = await start(echoConnection([]), {
      admission: new ConnectionAdmission({ maxConnections: 1, maxConnectionsPerIp: 1_000 }),
    });
    const only = await connect(small.listener.port);
    const over = await connect(small.listener.port);
    await over.closed;
    expect(await small.metrics.metrics()).toContain(
      'nereus_listener_connections_refused_total{reason="broker-limit"} 1',
    );
    only.socket.destroy();
  });

  test("an idle connection is closed; one with a request in flight is not", async () => {
    const { listener, metrics } = await start(
      echoConnection([], (frame) => (frame[1] === 1 ? 400 : 0)),
      { idleTimeoutMs: 150 },
    );
    const idle = await connect(listener.port);
    const busy = await connect(listener.port);
    busy.socket.write(withSize(new Uint8Array([0, 1])));
    await idle.closed;
    expect((await busy.next(1)).map((response) => [...response])).toEqual([[0, 1]]);
    expect(await metrics.metrics()).toContain('nereus_listener_connections_timed_out_total{reason="idle"} 1');
    await busy.closed;
  });

  test("a request frame left incomplete is cut off; a slow but steady stream of frames is not", async () => {
    const { listener, metrics } = await start(echoConnection([]), { requestFrameTimeoutMs: 200 });
    const stalled = await connect(listener.port);
    stalled.socket.write(withSize(new Uint8Array(100)).subarray(0, 50));
    const steady = await connect(listener.port);
    const frames = Buffer.concat(
      Array.from({ length: 6 }, (_, index) => withSize(new Uint8Array([0, index, 1, 2, 3]))),
    );
    // Every frame completes within the timeout, but the connection is never at a frame boundary for long.
    for (let at = 0; at < frames.length; at += 7) {
      steady.socket.write(frames.subarray(at, at + 7));
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    await stalled.closed;
    expect((await steady.next(6)).map((response) => response[1])).toEqual([0, 1, 2, 3, 4, 5]);
    expect(await metrics.metrics()).toContain(
      'nereus_listener_connections_timed_out_total{reason="incomplete-frame"} 1',
    );
    steady.socket.destroy();
  });

  test("the request memory budget pauses reading until frames in flight are answered, and frees everything on close", async () => {
    const frameBytes = 100_000;
    const budget = new RequestMemoryBudget(150_000);
    const { listener } = await start(
      echoConnection([], () => 30),
      { requestMemory: budget, maxFrameBytes: 200_000 },
    );
    const clients = await Promise.all([connect(listener.port), connect(listener.port), connect(listener.port)]);
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, budget.usedBytes)), 1);
    for (const client of clients) {
      for (let index = 0; index < 5; index += 1) client.socket.write(withSize(new Uint8Array(frameBytes).fill(index)));
    }
    const answered = await Promise.all(clients.map((client) => client.next(5)));
    clearInterval(sampler);
    for (const responses of answered) expect(responses.map((response) => response[0])).toEqual([0, 1, 2, 3, 4]);
    // Held: the budget, one frame beyond it when nothing else was held, and one socket read (64 KiB) per connection
    // that arrived before reading paused; 1.5 MB were sent.
    expect(peak).toBeLessThanOrEqual(150_000 + frameBytes + 3 * 65_536);
    for (const client of clients) client.socket.destroy();
    await Promise.all(clients.map((client) => client.closed));
    await expect.poll(() => budget.usedBytes).toBe(0);
    expect(budget.waitingCount).toBe(0);
  });

  test("a half-closing client gets its waiting requests answered at once, then the connection closes", async () => {
    const ended: string[] = [];
    const { listener } = await start((peer) => {
      let release: (() => void) | undefined;
      return {
        handleFrame: (frame) =>
          new Promise<Uint8Array>((resolve) => {
            const copy = frame.slice();
            const timer = setTimeout(() => resolve(withSize(copy)), 20_000);
            release = () => {
              clearTimeout(timer);
              resolve(withSize(copy));
            };
          }),
        endOfInput: () => {
          ended.push(peer);
          release?.();
        },
        close: () => undefined,
      };
    });
    const client = await connect(listener.port);
    client.socket.write(withSize(new Uint8Array([0, 5])));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    client.socket.end();
    expect((await client.next(1)).map((response) => [...response])).toEqual([[0, 5]]);
    await client.closed;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(ended).toHaveLength(1);
  });
});
