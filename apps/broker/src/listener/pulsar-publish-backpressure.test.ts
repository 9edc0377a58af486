// Publish backpressure at the Pulsar listener, over real loopback sockets and a broker on in-memory stores whose
// appends are held: a raw client flooding SENDs for one producer never makes the broker hold more pending publish
// bytes than its bound (per connection, or broker-wide) plus one socket read; once storage answers, every SEND is
// receipted and nothing stays pending.
import {
  GenerationZeroVisibleCoordinator,
  StableHeadCoordinator,
  type StreamStore,
  createStreamStore,
} from "@nereus/core";
import { InMemoryMetadataStore, InMemoryObjectStore, MemoryWalProvider } from "@nereus/core/testing";
import { type PulsarBroker, type PulsarBrokerOptions, createPulsarBroker } from "@nereus/pulsar";
import { encodeCommandFrame, encodeMessageEntry, encodePayloadFrame } from "@nereus/pulsar/protocol";
import { afterEach, describe, expect, test, vi } from "vitest";
import { RawPulsarSocket } from "../../test/support/raw-pulsar-socket.js";
import { PinoBrokerLogger } from "../logging/broker-logger.js";
import { ConnectionAdmission } from "./connection-admission.js";
import { type PulsarListener, startPulsarListener } from "./pulsar-listener.js";

/** The most one socket read hands the broker at once. */
const SOCKET_READ_BYTES = 64 * 1024;
const MESSAGE_BYTES = 1_000;
const SENDS = 3_000;

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface SlowBroker {
  readonly listener: PulsarListener;
  readonly broker: PulsarBroker;
  /** Lets the held appends (and every later one) through. */
  readonly release: () => void;
  /** The most pending publish bytes the broker held at any moment. */
  readonly peakPendingBytes: () => number;
}

async function startSlowBroker(
  options: Pick<PulsarBrokerOptions, "maxPendingPublishRequestsPerConnection" | "maxPendingPublishBytes">,
): Promise<SlowBroker> {
  const wal = new MemoryWalProvider({ walKind: "OBJECT" });
  const metadata = new InMemoryMetadataStore();
  const streams: StreamStore = createStreamStore({
    metadata,
    cluster: "backpressure-test",
    writerId: "backpressure-test",
    walWriters: [wal],
    walReaders: [wal],
    completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator()],
  });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const append = streams.append.bind(streams);
  vi.spyOn(streams, "append").mockImplementation(async (...args) => {
    await held;
    return append(...args);
  });
  const broker = createPulsarBroker({
    ledgers: {
      metadata,
      objects: new InMemoryObjectStore(),
      streams,
      cluster: "backpressure-test",
      defaultProfile: "OBJECT_WAL_SYNC_OBJECT",
    },
    advertisedUrl: "pulsar://127.0.0.1:6650",
    ...options,
  });
  const buffer = broker.context.publishBuffer;
  let peak = 0;
  const add = buffer.add.bind(buffer);
  vi.spyOn(buffer, "add").mockImplementation((bytes) => {
    add(bytes);
    peak = Math.max(peak, buffer.usedBytes);
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
  return { listener, broker, release, peakPendingBytes: () => peak };
}

/** CONNECT and PRODUCER, then `SENDS` SENDs of MESSAGE_BYTES each, written without waiting for any answer. */
async function flood(port: number): Promise<RawPulsarSocket> {
  const client = await RawPulsarSocket.connect(port);
  closers.push(async () => client.destroy());
  await client.write(encodeCommandFrame({ type: "CONNECT", body: { clientVersion: "flood", protocolVersion: 21 } }));
  const topic = "persistent://public/default/flooded";
  await client.write(encodeCommandFrame({ type: "PRODUCER", body: { topic, producerId: 1n, requestId: 1n } }));
  await vi.waitFor(() => expect(client.count("PRODUCER_SUCCESS")).toBe(1), { timeout: 10_000 });
  const text = new TextEncoder().encode("x".repeat(MESSAGE_BYTES));
  for (let id = 0n; id < BigInt(SENDS); id += 1n) {
    const entry = encodeMessageEntry({ producerName: "flood", sequenceId: id, publishTime: 1_700_000_000_000n }, text);
    void client.write(encodePayloadFrame({ type: "SEND", body: { producerId: 1n, sequenceId: id } }, entry));
  }
  return client;
}

/** Waits until the broker stopped taking SENDs in (no new pending bytes for a while). */
async function untilStalled(slow: SlowBroker): Promise<void> {
  let last = -1;
  await vi.waitFor(
    () => {
      const now = slow.broker.context.publishBuffer.usedBytes;
      const stalled = now === last && now > 0;
      last = now;
      if (!stalled) throw new Error("still reading");
    },
    { timeout: 10_000, interval: 200 },
  );
}

async function drainsCompletely(slow: SlowBroker, client: RawPulsarSocket): Promise<void> {
  slow.release();
  await vi.waitFor(() => expect(client.count("SEND_RECEIPT")).toBe(SENDS), { timeout: 60_000, interval: 50 });
  expect(client.count("SEND_ERROR")).toBe(0);
  expect(client.isClosed).toBe(false);
  expect(slow.broker.context.publishBuffer.usedBytes).toBe(0);
}

describe("Pulsar publish backpressure at the listener", () => {
  test("a connection flooding SENDs on slow storage is held at its bound of pending publishes", async () => {
    const maxPending = 50;
    const slow = await startSlowBroker({ maxPendingPublishRequestsPerConnection: maxPending });
    const client = await flood(slow.listener.port);
    await untilStalled(slow);
    const bound = maxPending * (MESSAGE_BYTES + 100) + SOCKET_READ_BYTES;
    expect(slow.peakPendingBytes()).toBeGreaterThanOrEqual(maxPending * MESSAGE_BYTES);
    expect(slow.peakPendingBytes()).toBeLessThanOrEqual(bound);
    expect(slow.peakPendingBytes()).toBeLessThan((SENDS * MESSAGE_BYTES) / 10);
    await drainsCompletely(slow, client);
  });

  test("the broker-wide bound of pending publish bytes holds a flooding connection too", async () => {
    const maxBytes = 100 * 1024;
    const slow = await startSlowBroker({ maxPendingPublishBytes: maxBytes });
    const client = await flood(slow.listener.port);
    await untilStalled(slow);
    expect(slow.broker.context.publishBuffer.paused).toBe(true);
    expect(slow.peakPendingBytes()).toBeLessThanOrEqual(maxBytes + SOCKET_READ_BYTES + 2 * MESSAGE_BYTES);
    await drainsCompletely(slow, client);
  });
});
