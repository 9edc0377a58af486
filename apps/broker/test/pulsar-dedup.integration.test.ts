// Broker-side deduplication of the Pulsar listener (pulsar.deduplication on) end to end over TCP, on the embedded
// default: a named producer's resends after a lost connection, after a graceful restart and after kill -9 of the
// broker process are receipted MessageId -1:-1 and stored once, PRODUCER_SUCCESS tells it the last sequence id it
// stored, and pulsar-flex (broker-assigned name, reconnecting by itself across the restart) loses nothing after it.
// The producer speaking the protocol directly uses the package's codec over a plain socket, as a client would; what
// was stored is read back from the earliest position through a reader subscription.
import { randomBytes } from "node:crypto";
import net from "node:net";
import path from "node:path";
import {
  type CommandBody,
  type CommandTypeName,
  type DecodedFrame,
  InitialPosition,
  type PulsarCommand,
  PulsarFrameDecoder,
  SubscriptionType,
  decodeFrame,
  decodeMessageMetadata,
  encodeCommandFrame,
  encodeMessageEntry,
  encodePayloadFrame,
} from "@nereus/pulsar/protocol";
// @ts-expect-error pulsar-flex ships no type declarations
import { Producer, logLevel } from "pulsar-flex";
import { afterEach, describe, expect, test } from "vitest";
import {
  BrokerProcess,
  type InProcessBroker,
  freePort,
  startInProcess,
  tempDir,
  testConfig,
} from "./support/broker-fixture.js";
import { waitFor } from "./support/kafkajs-fixture.js";

interface FlexProducer {
  create(): Promise<void>;
  sendMessage(message: { payload: Buffer | string }): Promise<void>;
  close(): Promise<void>;
}

const DUPLICATE_ENTRY_ID = 2n ** 64n - 1n;

/** One Pulsar connection speaking the protocol through the package's codec; every wait is bounded. */
class WireClient {
  readonly #socket: net.Socket;
  readonly #decoder = new PulsarFrameDecoder();
  readonly received: DecodedFrame[] = [];
  #requestId = 0n;

  private constructor(socket: net.Socket) {
    this.#socket = socket;
    socket.on("data", (chunk: Buffer) => {
      for (const frame of this.#decoder.push(chunk)) this.received.push(decodeFrame(frame));
    });
    socket.on("error", () => undefined);
  }

  static async connect(port: number): Promise<WireClient> {
    const socket = net.connect({ host: "127.0.0.1", port });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("error", reject);
    });
    const client = new WireClient(socket);
    client.send({ type: "CONNECT", body: { clientVersion: "dedup-test", protocolVersion: 21 } });
    await client.next("CONNECTED");
    return client;
  }

  send(command: PulsarCommand): void {
    this.#socket.write(encodeCommandFrame(command));
  }

  /** Opens producer 1 named `name` on `topic`; returns PRODUCER_SUCCESS.lastSequenceId. */
  async openProducer(topic: string, name: string): Promise<bigint> {
    const requestId = ++this.#requestId;
    this.send({ type: "PRODUCER", body: { topic, producerId: 1n, requestId, producerName: name } });
    const success = await this.next("PRODUCER_SUCCESS", (body) => body.requestId === requestId);
    return success.lastSequenceId ?? -1n;
  }

  /** Sends message `text` of producer `name` with `sequenceId`; resolves with the receipt's entry id. */
  async publish(name: string, sequenceId: bigint, text: string): Promise<bigint> {
    const entry = encodeMessageEntry(
      { producerName: name, sequenceId, publishTime: BigInt(Date.now()) },
      new TextEncoder().encode(text),
    );
    this.#socket.write(encodePayloadFrame({ type: "SEND", body: { producerId: 1n, sequenceId } }, entry));
    const receipt = await this.next("SEND_RECEIPT", (body) => body.sequenceId === sequenceId);
    return receipt.messageId?.entryId ?? -1n;
  }

  /** Reads every message of `topic` from the earliest position: [producer name, text] in order. */
  async readAll(topic: string, expected: number): Promise<[string, string][]> {
    const requestId = ++this.#requestId;
    this.send({
      type: "SUBSCRIBE",
      body: {
        topic,
        subscription: `reader-${randomBytes(4).toString("hex")}`,
        subType: SubscriptionType.Exclusive,
        consumerId: 1n,
        requestId,
        durable: false,
        initialPosition: InitialPosition.Earliest,
      },
    });
    await this.next("SUCCESS", (body) => body.requestId === requestId);
    this.send({ type: "FLOW", body: { consumerId: 1n, messagePermits: 10_000 } });
    await waitFor(`${String(expected)} messages`, () => this.frames("MESSAGE").length >= expected);
    await new Promise((resolve) => setTimeout(resolve, 300));
    return this.frames("MESSAGE").map(({ payload }) => {
      if (payload?.checksumMatches !== true) throw new Error("a MESSAGE without a verified entry");
      const metadata = decodeMessageMetadata(payload.metadataBytes);
      return [metadata.producerName, new TextDecoder().decode(payload.payload)];
    });
  }

  close(): void {
    this.#socket.destroy();
  }

  frames(type: CommandTypeName): DecodedFrame[] {
    return this.received.filter((frame) => frame.command.type === type);
  }

  /** Waits for the first command of `type` matching `match`. */
  async next<T extends CommandTypeName>(
    type: T,
    match: (body: CommandBody<T>) => boolean = () => true,
  ): Promise<CommandBody<T>> {
    let found: CommandBody<T> | undefined;
    await waitFor(type, () => {
      const errors = this.frames("ERROR").map((frame) => JSON.stringify(bodyOf(frame), bigints));
      if (errors.length > 0) throw new Error(`broker answered ERROR: ${errors.join(", ")}`);
      found = this.frames(type)
        .map((frame) => bodyOf(frame) as CommandBody<T>)
        .find(match);
      return found !== undefined;
    });
    return found!;
  }
}

function bodyOf(frame: DecodedFrame): unknown {
  return "body" in frame.command ? frame.command.body : undefined;
}

function bigints(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

const brokers: InProcessBroker[] = [];
const processes: BrokerProcess[] = [];
const closers: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  for (const running of brokers.splice(0)) await running.broker.close();
  for (const broker of processes.splice(0)) await broker.stop("SIGKILL");
});

function config(dataDir: string, port: number): ReturnType<typeof testConfig> {
  return testConfig("embedded", {
    dataDir,
    cluster: "pulsar-dedup",
    overrides: { pulsar: { enabled: true, port, deduplication: true } },
  });
}

async function start(dataDir: string, port: number): Promise<void> {
  brokers.push(await startInProcess(config(dataDir, port)));
}

describe("Pulsar deduplication on the embedded default", () => {
  test("resends after a lost connection and after a restart are stored once; pulsar-flex loses nothing across the restart", async () => {
    const dataDir = tempDir("pulsar-dedup");
    const port = await freePort();
    await start(dataDir, port);
    const topic = `persistent://public/default/dedup-${randomBytes(4).toString("hex")}`;

    const first = await WireClient.connect(port);
    closers.push(async () => first.close());
    expect(await first.openProducer(topic, "app")).toBe(-1n);
    for (const id of [0n, 1n, 2n]) expect(await first.publish("app", id, `app-${String(id)}`)).toBe(id);
    first.close();

    const flex = new Producer({ topic, discoveryServers: [`127.0.0.1:${String(port)}`], logLevel: logLevel.NOTHING });
    const flexProducer = flex as FlexProducer;
    await flexProducer.create();
    closers.push(() => flexProducer.close());
    await flexProducer.sendMessage({ payload: "flex-0" });
    await flexProducer.sendMessage({ payload: "flex-1" });

    const reconnected = await WireClient.connect(port);
    closers.push(async () => reconnected.close());
    expect(await reconnected.openProducer(topic, "app")).toBe(2n);
    expect(await reconnected.publish("app", 1n, "app-1")).toBe(DUPLICATE_ENTRY_ID);
    expect(await reconnected.publish("app", 2n, "app-2")).toBe(DUPLICATE_ENTRY_ID);
    expect(await reconnected.publish("app", 3n, "app-3")).toBe(5n);
    reconnected.close();

    await brokers.pop()?.broker.close();
    await start(dataDir, port);
    // pulsar-flex reconnects by itself and continues after the last sequence id the broker tells it; its next sends
    // must not be taken for duplicates. (Sent before it reconnected, a message is resent with a sequence id it had
    // used already — a duplicate by the protocol's rules — so the test waits for the reconnection.)
    await waitFor("pulsar-flex reconnected", () => (flex as { _connected: boolean })._connected);
    await flexProducer.sendMessage({ payload: "flex-2" });
    await flexProducer.sendMessage({ payload: "flex-3" });

    const afterRestart = await WireClient.connect(port);
    closers.push(async () => afterRestart.close());
    expect(await afterRestart.openProducer(topic, "app")).toBe(3n);
    expect(await afterRestart.publish("app", 3n, "app-3")).toBe(DUPLICATE_ENTRY_ID);
    expect(await afterRestart.publish("app", 4n, "app-4")).toBe(8n);

    const stored = await afterRestart.readAll(topic, 9);
    expect(stored.map(([, text]) => text)).toEqual([
      "app-0",
      "app-1",
      "app-2",
      "flex-0",
      "flex-1",
      "app-3",
      "flex-2",
      "flex-3",
      "app-4",
    ]);
  });

  test("after kill -9 the last sequence ids are recovered from storage: every resend is a duplicate", async () => {
    const dataDir = tempDir("pulsar-dedup-kill");
    const port = await freePort();
    const configFile = path.join(tempDir("pulsar-dedup-config"), "broker.json");
    processes.push(await BrokerProcess.start(config(dataDir, port), configFile));
    const topic = `persistent://public/default/dedup-kill-${randomBytes(4).toString("hex")}`;
    const names = ["alpha", "beta"];

    const clients = await Promise.all(names.map(() => WireClient.connect(port)));
    for (const [index, client] of clients.entries()) {
      closers.push(async () => client.close());
      await client.openProducer(topic, names[index]!);
    }
    for (let id = 0n; id < 20n; id += 1n) {
      for (const [index, client] of clients.entries())
        await client.publish(names[index]!, id, `${names[index]!}-${String(id)}`);
    }
    await processes.pop()!.stop("SIGKILL");
    processes.push(await BrokerProcess.start(config(dataDir, port), configFile));

    for (const [index, name] of names.entries()) {
      const client = await WireClient.connect(port);
      closers.push(async () => client.close());
      expect(await client.openProducer(topic, name)).toBe(19n);
      for (const id of [0n, 7n, 19n])
        expect(await client.publish(name, id, `${name}-${String(id)}`)).toBe(DUPLICATE_ENTRY_ID);
      expect(await client.publish(name, 20n, `${name}-20`)).toBe(40n + BigInt(index));
    }
    const reader = await WireClient.connect(port);
    closers.push(async () => reader.close());
    const stored = await reader.readAll(topic, 42);
    expect(stored).toHaveLength(42);
    expect(new Set(stored.map(([, text]) => text)).size).toBe(42);
  });
});
