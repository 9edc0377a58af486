// The three BookKeeper profiles from the broker, on the shared etcd + s3proxy + ZooKeeper + three bookies: kafkajs
// produces and consumes byte-identical records on topics of every profile — BOOKKEEPER_WAL_ONLY as the broker default
// (created explicitly and auto-created) and each BookKeeper profile (and an Object WAL one) per topic through
// `nereus.storage.profile` — and pulsar-flex on a namespace and a topic storage-profile policy; the partitions on
// BookKeeper profiles have BookKeeper WAL writer states in etcd, the Object WAL one none; a restart keeps every
// record and every unacknowledged Pulsar message. The missing-services errors: a broker without BookKeeper answers
// CreateTopics INVALID_CONFIG and a Pulsar PRODUCER NotAllowed with the reason, refuses a BookKeeper default profile
// and refuses to start on a cluster holding BookKeeper streams; a broker with an unreachable ZooKeeper, a wrong
// ledgers root or fewer bookies than its ensemble does not start (one line each, bounded). The ledger password never
// reaches a log line.
import { randomBytes } from "node:crypto";
import net from "node:net";
import {
  type DecodedFrame,
  PulsarFrameDecoder,
  ServerError,
  decodeFrame,
  encodeCommandFrame,
} from "@nereus/pulsar/protocol";
import { loadServices } from "@nereus/test-services";
import { Etcd3 } from "etcd3";
import { type Admin, type IHeaders, Kafka, type KafkaMessage, logLevel } from "kafkajs";
// @ts-expect-error pulsar-flex ships no type declarations
import { Consumer, Producer, logLevel as flexLogLevel } from "pulsar-flex";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { type BrokerConfigInput, ConfigError, StartupError, loadBrokerConfig } from "../src/index.js";
import { type InProcessBroker, freePort, startInProcess, testConfig } from "./support/broker-fixture.js";
import { waitFor } from "./support/kafkajs-fixture.js";
import { RawKafkaClient } from "./support/raw-kafka-client.js";

interface FlexMessage {
  readonly message: Buffer;
  ack(): Promise<void>;
}
interface FlexConsumer {
  subscribe(): Promise<void>;
  run(options: { onMessage: (message: FlexMessage) => Promise<void>; autoAck: boolean }): Promise<void>;
  unsubscribe(): Promise<void>;
}
interface FlexProducer {
  create(): Promise<void>;
  sendMessage(message: { payload: Buffer }): Promise<void>;
  close(): Promise<void>;
}

const services = loadServices();
const PASSWORD = `pw-${randomBytes(6).toString("hex")}`;
const PROFILE_CONFIG = "nereus.storage.profile";
const etcd = new Etcd3({ hosts: services.etcd.endpoint });
const brokers: InProcessBroker[] = [];
const closers: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  for (const running of brokers.splice(0)) await running.broker.close();
});
afterAll(() => etcd.close());

/** The shared BookKeeper cluster as `storage.bookkeeper` names it (quorums 3/2/2 on the three bookies). */
function bookkeeperSection(overrides: NonNullable<BrokerConfigInput["storage"]>["bookkeeper"] = {}) {
  const { zookeeper, bookkeeper } = services;
  if (zookeeper === undefined || bookkeeper === undefined) throw new Error("the test services run no BookKeeper");
  return {
    zooKeeper: zookeeper.connectString,
    ledgersRoot: bookkeeper.zkLedgersRoot,
    password: PASSWORD,
    ...overrides,
  };
}

function clusterConfig(cluster: string, storage: BrokerConfigInput["storage"], kafkaPort = 0): BrokerConfigInput {
  return testConfig("cluster", {
    cluster,
    kafkaPort,
    overrides: { storage, pulsar: { port: 0 }, log: { level: "info" } },
  });
}

async function start(config: BrokerConfigInput): Promise<InProcessBroker> {
  const running = await startInProcess(config);
  brokers.push(running);
  return running;
}

async function stop(running: InProcessBroker): Promise<void> {
  brokers.splice(brokers.indexOf(running), 1);
  await running.broker.close();
}

/** The broker's warning and error lines (a clean run, shutdown included, has none). */
function warnings(running: InProcessBroker): string[] {
  return running.logs.filter((line) => /"level":"(warn|error)"/.test(line));
}

function kafkaOf(running: InProcessBroker): Kafka {
  return new Kafka({
    clientId: "bookkeeper-profiles",
    brokers: [running.bootstrap],
    logLevel: logLevel.NOTHING,
    retry: { retries: 5, initialRetryTime: 100 },
  });
}

async function adminOf(running: InProcessBroker): Promise<Admin> {
  const admin = kafkaOf(running).admin();
  await admin.connect();
  closers.push(() => admin.disconnect());
  return admin;
}

/** A record as produced and as consumed: partition, key, value and headers, bytes compared exactly. */
interface Sent {
  readonly partition: number;
  readonly key: Buffer;
  readonly value: Buffer;
  readonly headers: Record<string, Buffer>;
}

function records(count: number, partitions: number): Sent[] {
  return Array.from({ length: count }, (_, index) => ({
    partition: index % partitions,
    key: randomBytes(8),
    value: randomBytes(16 + ((index * 37) % 300)),
    headers: { trace: randomBytes(12) },
  }));
}

async function produce(running: InProcessBroker, topic: string, sent: readonly Sent[]): Promise<void> {
  const producer = kafkaOf(running).producer({ allowAutoTopicCreation: true });
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, messages: sent.map((record) => ({ ...record })) });
  } finally {
    await producer.disconnect();
  }
}

function received(partition: number, message: KafkaMessage): Sent {
  const headers: Record<string, Buffer> = {};
  for (const [name, value] of Object.entries(message.headers ?? ({} as IHeaders))) headers[name] = value as Buffer;
  return { partition, key: message.key ?? Buffer.alloc(0), value: message.value ?? Buffer.alloc(0), headers };
}

/** Every record of `topic` from the beginning (a new group), once `expected` arrived; by partition, in offset order. */
async function consumeAll(running: InProcessBroker, topic: string, expected: number): Promise<Sent[]> {
  const consumer = kafkaOf(running).consumer({ groupId: `g-${randomBytes(4).toString("hex")}`, maxWaitTimeInMs: 200 });
  await consumer.connect();
  closers.push(() => consumer.disconnect());
  const got: Sent[] = [];
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({ eachMessage: async ({ partition, message }) => void got.push(received(partition, message)) });
  await waitFor(`${String(expected)} records of ${topic}`, () => got.length >= expected, 30_000);
  return got;
}

function byPartition(list: readonly Sent[]): Sent[] {
  return [...list].sort((a, b) => a.partition - b.partition);
}

async function profileOf(admin: Admin, topic: string): Promise<string | undefined> {
  const described = await admin.describeConfigs({
    resources: [{ type: 2, name: topic, configNames: [PROFILE_CONFIG] }],
    includeSynonyms: false,
  });
  return described.resources[0]?.configEntries.find((entry) => entry.configName === PROFILE_CONFIG)?.configValue;
}

/** Streams of `cluster` the BookKeeper WAL has written (each has a writer state). */
async function bookKeeperStreams(cluster: string): Promise<number> {
  const keys = await etcd.getAll().prefix(`/nereus/clusters/${cluster}/streams/`).keys();
  return keys.filter((key) => key.endsWith("/bookkeeper/v1/writer-state")).length;
}

function pulsarServer(running: InProcessBroker): string {
  return `127.0.0.1:${String(running.broker.pulsarPort)}`;
}

async function setPolicy(running: InProcessBroker, path: string, profile: string): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${String(running.broker.adminPort)}/admin/v2/${path}/storageProfile`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(profile),
  });
  expect(response.status, await response.text()).toBe(204);
}

async function pulsarProduce(running: InProcessBroker, topic: string, payloads: readonly Buffer[]): Promise<void> {
  const producer = new Producer({
    topic,
    discoveryServers: [pulsarServer(running)],
    logLevel: flexLogLevel.NOTHING,
  }) as FlexProducer;
  await producer.create();
  for (const payload of payloads) await producer.sendMessage({ payload });
  await producer.close();
}

/** A Shared subscription that never acknowledges: everything produced stays unacknowledged. */
async function pulsarSubscribe(running: InProcessBroker, topic: string, subscription: string): Promise<Buffer[]> {
  const consumer = new Consumer({
    topic,
    subscription,
    subType: Consumer.SUB_TYPES.SHARED,
    consumerName: subscription,
    discoveryServers: [pulsarServer(running)],
    receiveQueueSize: 100,
    logLevel: flexLogLevel.NOTHING,
  }) as FlexConsumer;
  await consumer.subscribe();
  const got: Buffer[] = [];
  closers.push(() => consumer.unsubscribe());
  await consumer.run({ autoAck: false, onMessage: async ({ message }) => void got.push(Buffer.from(message)) });
  return got;
}

/** The answer to a PRODUCER on `topic`, over a plain connection speaking the protocol. */
async function producerAnswer(port: number, topic: string): Promise<DecodedFrame["command"]> {
  const socket = net.connect({ host: "127.0.0.1", port });
  const decoder = new PulsarFrameDecoder();
  const frames: DecodedFrame[] = [];
  socket.on("data", (chunk: Buffer) => frames.push(...decoder.push(chunk).map((frame) => decodeFrame(frame))));
  socket.on("error", () => undefined);
  try {
    socket.write(encodeCommandFrame({ type: "CONNECT", body: { clientVersion: "bk-test", protocolVersion: 21 } }));
    socket.write(encodeCommandFrame({ type: "PRODUCER", body: { topic, producerId: 1n, requestId: 1n } }));
    const answered = () => frames.find((frame) => ["ERROR", "PRODUCER_SUCCESS"].includes(frame.command.type));
    await waitFor("the PRODUCER answer", () => answered() !== undefined, 15_000);
    return answered()!.command;
  } finally {
    socket.destroy();
  }
}

async function startupFailure(config: BrokerConfigInput): Promise<{ error: unknown; ms: number }> {
  const began = Date.now();
  const error = await startInProcess(config).then(
    (running) => {
      brokers.push(running);
      return new Error("the broker started");
    },
    (failure: unknown) => failure,
  );
  return { error, ms: Date.now() - began };
}

describe("BookKeeper profiles from the broker", () => {
  test("kafkajs and pulsar-flex on every BookKeeper profile, byte-identical; a restart keeps everything", async () => {
    const cluster = `bk${randomBytes(5).toString("hex")}`;
    const storage = { defaultProfile: "BOOKKEEPER_WAL_ONLY" as const, bookkeeper: bookkeeperSection() };
    const kafkaPort = await freePort();
    let running = await start(clusterConfig(cluster, storage, kafkaPort));
    const suffix = randomBytes(3).toString("hex");
    const perTopic: Record<string, string | undefined> = {
      [`default-${suffix}`]: undefined,
      [`async-${suffix}`]: "BOOKKEEPER_WAL_ASYNC_OBJECT",
      [`sync-${suffix}`]: "BOOKKEEPER_WAL_SYNC_OBJECT",
      [`object-${suffix}`]: "OBJECT_WAL_SYNC_OBJECT",
    };
    const admin = await adminOf(running);
    await admin.createTopics({
      waitForLeaders: true,
      topics: Object.entries(perTopic).map(([topic, profile]) => ({
        topic,
        numPartitions: 2,
        configEntries: profile === undefined ? [] : [{ name: PROFILE_CONFIG, value: profile }],
      })),
    });
    const sent = new Map<string, Sent[]>();
    for (const [topic, profile] of Object.entries(perTopic)) {
      expect(await profileOf(admin, topic)).toBe(profile ?? "BOOKKEEPER_WAL_ONLY");
      sent.set(topic, records(40, 2));
      await produce(running, topic, sent.get(topic)!);
    }
    const autoCreated = `auto-${suffix}`;
    sent.set(autoCreated, records(10, 1));
    await produce(running, autoCreated, sent.get(autoCreated)!);
    expect(await profileOf(admin, autoCreated)).toBe("BOOKKEEPER_WAL_ONLY");
    for (const [topic, expected] of sent)
      expect(byPartition(await consumeAll(running, topic, expected.length))).toEqual(byPartition(expected));
    // Three BookKeeper topics of two partitions and the auto-created one: seven streams written to BookKeeper.
    expect(await bookKeeperStreams(cluster)).toBe(7);

    // Pulsar: the namespace policy names one BookKeeper profile, a topic policy another.
    await setPolicy(running, "namespaces/public/default", "BOOKKEEPER_WAL_ASYNC_OBJECT");
    const byNamespace = `persistent://public/default/ns-${suffix}`;
    const byTopic = `persistent://public/default/topic-${suffix}`;
    await setPolicy(running, `persistent/public/default/topic-${suffix}`, "BOOKKEEPER_WAL_SYNC_OBJECT");
    const pulsarPayloads = new Map([byNamespace, byTopic].map((topic) => [topic, records(30, 1).map((r) => r.value)]));
    for (const [topic, payloads] of pulsarPayloads) {
      const got = await pulsarSubscribe(running, topic, "kept");
      await pulsarProduce(running, topic, payloads);
      await waitFor(`${String(payloads.length)} messages of ${topic}`, () => got.length >= payloads.length, 30_000);
      expect(got).toEqual(payloads);
    }
    expect(await bookKeeperStreams(cluster)).toBe(9);
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    expect(running.logs.join("\n")).not.toContain(PASSWORD);
    expect(running.logs.join("\n")).toContain('"bookkeeperQuorums":"3/2/2"');
    await stop(running);
    expect(warnings(running)).toEqual([]);

    running = await start(clusterConfig(cluster, storage, kafkaPort));
    for (const [topic, expected] of sent)
      expect(byPartition(await consumeAll(running, topic, expected.length))).toEqual(byPartition(expected));
    for (const [topic, payloads] of pulsarPayloads) {
      const got = await pulsarSubscribe(running, topic, "kept");
      await waitFor(`the unacknowledged messages of ${topic}`, () => got.length >= payloads.length, 30_000);
      expect(got).toEqual(payloads);
    }
    const after = records(4, 2);
    await produce(running, `sync-${suffix}`, after);
    const sync = await consumeAll(running, `sync-${suffix}`, 44);
    expect(byPartition(sync)).toEqual(byPartition([...sent.get(`sync-${suffix}`)!, ...after]));
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await stop(running);
    expect(warnings(running)).toEqual([]);

    // Without BookKeeper this cluster's streams cannot be served: the broker says so and does not start.
    const { error } = await startupFailure(clusterConfig(cluster, { defaultProfile: "OBJECT_WAL_SYNC_OBJECT" }));
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toMatch(
      /^this cluster has streams on BookKeeper profiles \((Kafka topic|stream) .+: BOOKKEEPER_WAL_\w+\), and this broker has no BookKeeper configured/,
    );
  });
});

describe("a profile's services missing", () => {
  test("without BookKeeper: CreateTopics INVALID_CONFIG, Pulsar NotAllowed, each with the reason; a BookKeeper default is a config error", async () => {
    const running = await start(clusterConfig(`nobk${randomBytes(5).toString("hex")}`, {}));
    const admin = await adminOf(running);
    const topic = `bk-${randomBytes(3).toString("hex")}`;
    const refused = await admin
      .createTopics({ topics: [{ topic, configEntries: [{ name: PROFILE_CONFIG, value: "BOOKKEEPER_WAL_ONLY" }] }] })
      .catch((error: unknown) => error);
    expect((refused as { errors?: { type: string }[] }).errors?.[0]?.type).toBe("INVALID_CONFIG");
    // kafkajs shows the error code's description; the response carries the broker's reason too.
    const raw = await RawKafkaClient.connect(running.bootstrap);
    closers.push(() => raw.close());
    const response = await raw.request(19, 5, {
      topics: [
        {
          name: topic,
          numPartitions: 1,
          replicationFactor: 1,
          assignments: [],
          configs: [{ name: PROFILE_CONFIG, value: "BOOKKEEPER_WAL_SYNC_OBJECT" }],
        },
      ],
      timeoutMs: 10_000,
      validateOnly: false,
    });
    expect(response.topics[0]).toMatchObject({
      errorCode: 40, // INVALID_CONFIG
      errorMessage:
        "BOOKKEEPER_WAL_SYNC_OBJECT needs BookKeeper, and this broker has none configured (storage.bookkeeper: --bookkeeper-zookeeper or --bookkeeper-metadata-service-uri)",
    });
    expect(await admin.listTopics()).not.toContain(topic);

    await setPolicy(running, "namespaces/public/default", "BOOKKEEPER_WAL_ASYNC_OBJECT");
    const answer = await producerAnswer(running.broker.pulsarPort!, `persistent://public/default/${topic}`);
    expect(answer.type).toBe("ERROR");
    const body = (answer as { body: { error: number; message: string } }).body;
    expect(body.error).toBe(ServerError.NotAllowedError);
    expect(body.message).toContain("BOOKKEEPER_WAL_ASYNC_OBJECT needs BookKeeper, and this broker has none configured");

    expect(() => loadBrokerConfig({ argv: ["--default-profile", "BOOKKEEPER_WAL_SYNC_OBJECT"], env: {} })).toThrow(
      ConfigError,
    );
  });

  test("an unreachable ZooKeeper, a wrong ledgers root and too few bookies stop start-up with one line, in bounded time", async () => {
    const cluster = `bkfail${randomBytes(4).toString("hex")}`;
    const unreachable = await startupFailure(
      clusterConfig(cluster, {
        bookkeeper: bookkeeperSection({ zooKeeper: `127.0.0.1:${String(await freePort())}`, startupTimeoutMs: 1_500 }),
      }),
    );
    expect(unreachable.error).toBeInstanceOf(StartupError);
    expect((unreachable.error as Error).message).toMatch(
      /^cannot list the BookKeeper bookies from ZooKeeper 127\.0\.0\.1:\d+ \(ledgers root \/ledgers\): no answer within 1500 ms/,
    );
    expect(unreachable.ms).toBeLessThan(10_000);

    const wrongRoot = await startupFailure(
      clusterConfig(cluster, { bookkeeper: bookkeeperSection({ ledgersRoot: "/no-such-ledgers" }) }),
    );
    expect((wrongRoot.error as Error).message).toMatch(
      /^cannot list the BookKeeper bookies from ZooKeeper .+ \(ledgers root \/no-such-ledgers\): .*does not exist/,
    );

    const fewBookies = await startupFailure(
      clusterConfig(cluster, { bookkeeper: bookkeeperSection({ ensembleSize: 4 }) }),
    );
    expect(fewBookies.error).toBeInstanceOf(StartupError);
    expect((fewBookies.error as Error).message).toMatch(
      /^BookKeeper at ZooKeeper .+ \(ledgers root \/ledgers\) has 3 writable bookie\(s\), fewer than the ensemble size 4/,
    );
    for (const failure of [unreachable, wrongRoot, fewBookies])
      expect((failure.error as Error).message).not.toContain("\n");
  });
});
