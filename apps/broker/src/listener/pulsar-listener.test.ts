// The Pulsar listener over real loopback sockets and a Pulsar broker on in-memory stores: a frame the broker cannot
// split (an impossible totalSize) or decode closes the socket only after the replies to the frames before it in
// the stream — SEND receipts included — were written, even when all of them arrive in one TCP chunk.
import net from "node:net";
import {
  GenerationZeroVisibleCoordinator,
  StableHeadCoordinator,
  type StreamStore,
  createStreamStore,
} from "@nereus/core";
import { InMemoryMetadataStore, InMemoryObjectStore, MemoryWalProvider } from "@nereus/core/testing";
import { type PulsarBroker, createPulsarBroker } from "@nereus/pulsar";
import {
  type PulsarCommand,
  PulsarFrameDecoder,
  decodeFrame,
  encodeCommandFrame,
  encodeMessageEntry,
  encodePayloadFrame,
} from "@nereus/pulsar/protocol";
import { afterEach, describe, expect, test } from "vitest";
import { PinoBrokerLogger } from "../logging/broker-logger.js";
import { ConnectionAdmission } from "./connection-admission.js";
import { type PulsarListener, startPulsarListener } from "./pulsar-listener.js";

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function startListener(): Promise<PulsarListener> {
  const wal = new MemoryWalProvider({ walKind: "OBJECT" });
  const metadata = new InMemoryMetadataStore();
  const streams: StreamStore = createStreamStore({
    metadata,
    cluster: "listener-test",
    writerId: "listener-test",
    walWriters: [wal],
    walReaders: [wal],
    completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator()],
  });
  const broker: PulsarBroker = createPulsarBroker({
    ledgers: {
      metadata,
      objects: new InMemoryObjectStore(),
      streams,
      cluster: "listener-test",
      defaultProfile: "OBJECT_WAL_SYNC_OBJECT",
    },
    advertisedUrl: "pulsar://127.0.0.1:6650",
  });
  const listener = await startPulsarListener({
    host: "127.0.0.1",
    port: 0,
    maxFrameBytes: 1024 * 1024,
    keepAliveMs: 0,
    frameTimeoutMs: 10_000,
    admission: new ConnectionAdmission({ maxConnections: 10, maxConnectionsPerIp: 10 }),
    logger: new PinoBrokerLogger({ level: "error", sink: { write: () => true } }),
    openConnection: (sink) => broker.openConnection(sink),
  });
  closers.push(
    () => streams.close(),
    () => broker.close(),
    () => listener.close(),
  );
  return listener;
}

/** Writes `bytes` in one chunk and collects the command types of every frame until the broker closes the socket. */
async function exchange(port: number, bytes: Uint8Array): Promise<string[]> {
  const socket = net.connect({ host: "127.0.0.1", port });
  const decoder = new PulsarFrameDecoder();
  const types: string[] = [];
  const closed = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not closed; received ${types.join(", ")}`)), 10_000);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
  socket.on("data", (chunk: Buffer) => {
    for (const frame of decoder.push(chunk)) types.push(decodeFrame(frame).command.type);
  });
  socket.on("error", () => undefined);
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  socket.write(bytes);
  await closed;
  return types;
}

function goodFrames(): Uint8Array[] {
  const command = (value: PulsarCommand): Uint8Array => encodeCommandFrame(value);
  const sends = [0n, 1n, 2n].map((sequenceId) =>
    encodePayloadFrame(
      { type: "SEND", body: { producerId: 1n, sequenceId } },
      encodeMessageEntry(
        { producerName: "p", sequenceId, publishTime: 1_700_000_000_000n },
        new TextEncoder().encode(`m${String(sequenceId)}`),
      ),
    ),
  );
  return [
    command({ type: "CONNECT", body: { clientVersion: "test", protocolVersion: 21 } }),
    command({ type: "PRODUCER", body: { topic: "listener-orders", producerId: 1n, requestId: 1n } }),
    ...sends,
    command({ type: "LOOKUP", body: { topic: "listener-orders", requestId: 2n } }),
  ];
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((part) => [...part]));
}

const EXPECTED_REPLIES = [
  "CONNECTED",
  "LOOKUP_RESPONSE",
  "PRODUCER_SUCCESS",
  "SEND_RECEIPT",
  "SEND_RECEIPT",
  "SEND_RECEIPT",
].sort();

describe("Pulsar listener closing on a bad frame", () => {
  test("an impossible totalSize after good frames in the same chunk: every good frame is answered, then the socket closes", async () => {
    const listener = await startListener();
    const impossibleSize = Uint8Array.of(0, 0, 0, 1, 0);
    const received = await exchange(listener.port, concat([...goodFrames(), impossibleSize]));
    expect([...received].sort()).toEqual(EXPECTED_REPLIES);
  });

  test("an undecodable frame after good frames: every good frame is answered, frames after it are not", async () => {
    const listener = await startListener();
    const undecodable = Uint8Array.of(0, 0, 0, 6, 0, 0, 0, 2, 0xff, 0xff);
    const ping = encodeCommandFrame({ type: "PING", body: {} });
    const received = await exchange(listener.port, concat([...goodFrames(), undecodable, ping]));
    expect([...received].sort()).toEqual(EXPECTED_REPLIES);
  });
});
