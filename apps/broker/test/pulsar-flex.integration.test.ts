// pulsar-flex 1.1.1 against the broker's Pulsar listener on the embedded default: messages produced come back
// byte-identical through an Exclusive and a Shared subscription, every ack waits for its ACK_RESPONSE, after a
// broker restart a durable subscription gets exactly the messages it had not acknowledged, and acks are accepted on
// every topic of a cluster (pulsar-flex holds ledger ids as JavaScript numbers: the broker's ids are exact doubles).
// pulsar-flex never sends an initial position, so a new subscription starts at the end of the topic (Pulsar's
// default, "latest"): each test subscribes before it produces.
import { randomBytes } from "node:crypto";
// @ts-expect-error pulsar-flex ships no type declarations
import { Consumer, Producer, logLevel } from "pulsar-flex";
import { afterEach, describe, expect, test } from "vitest";
import { type InProcessBroker, freePort, startInProcess, tempDir, testConfig } from "./support/broker-fixture.js";
import { waitFor } from "./support/kafkajs-fixture.js";

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
  sendMessage(message: { payload: Buffer | string; properties?: Record<string, string> }): Promise<void>;
  close(): Promise<void>;
}

const brokers: InProcessBroker[] = [];
const closers: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  for (const running of brokers.splice(0)) await running.broker.close();
});

async function start(dataDir: string, pulsarPort: number): Promise<string> {
  const running = await startInProcess(
    testConfig("embedded", {
      dataDir,
      cluster: "pulsar-flex",
      overrides: { pulsar: { enabled: true, port: pulsarPort } },
    }),
  );
  brokers.push(running);
  return `127.0.0.1:${String(running.broker.pulsarPort)}`;
}

async function produce(server: string, topic: string, payloads: readonly Buffer[]): Promise<void> {
  const producer = new Producer({ topic, discoveryServers: [server], logLevel: logLevel.NOTHING }) as FlexProducer;
  await producer.create();
  for (const payload of payloads) await producer.sendMessage({ payload, properties: { source: "test" } });
  await producer.close();
}

async function consume(
  server: string,
  topic: string,
  subscription: string,
  subType: number,
  shouldAck: (payload: Buffer) => boolean = () => true,
): Promise<{ received: Buffer[]; acks: { settled: number; errors: unknown[] }; consumer: FlexConsumer }> {
  const consumer = new Consumer({
    topic,
    subscription,
    subType,
    consumerName: `consumer-${subscription}`,
    discoveryServers: [server],
    receiveQueueSize: 100,
    logLevel: logLevel.NOTHING,
  }) as FlexConsumer;
  await consumer.subscribe();
  closers.push(() => consumer.unsubscribe());
  const received: Buffer[] = [];
  const acks = { settled: 0, errors: [] as unknown[] };
  await consumer.run({
    autoAck: false,
    onMessage: async ({ message, ack }) => {
      received.push(Buffer.from(message));
      if (!shouldAck(message)) return;
      await ack().catch((error: unknown) => acks.errors.push(error));
      acks.settled += 1;
    },
  });
  return { received, acks, consumer };
}

function payloadsOf(count: number): Buffer[] {
  return Array.from({ length: count }, (_, index) =>
    Buffer.concat([Buffer.from(`m${String(index)}:`), randomBytes(64)]),
  );
}

describe("pulsar-flex 1.1.1 on the embedded default", () => {
  test("produced messages come back byte-identical through Exclusive and Shared subscriptions", async () => {
    const server = await start(tempDir("pulsar"), 0);
    const topic = `persistent://public/default/flex-${randomBytes(4).toString("hex")}`;
    const payloads = payloadsOf(200);
    const subTypes = [Consumer.SUB_TYPES.EXCLUSIVE, Consumer.SUB_TYPES.SHARED] as number[];
    const consumers = [];
    for (const subType of subTypes) consumers.push(await consume(server, topic, `sub-${String(subType)}`, subType));
    await produce(server, topic, payloads);
    for (const [index, { received }] of consumers.entries()) {
      await waitFor(
        `${String(payloads.length)} messages (subType ${String(subTypes[index])})`,
        () => received.length >= payloads.length,
      );
      expect(received).toEqual(payloads);
    }
  });

  test("after a restart the unacknowledged messages come back and the acknowledged ones do not", async () => {
    const dataDir = tempDir("pulsar");
    const port = await freePort();
    let server = await start(dataDir, port);
    const topic = `persistent://public/default/restart-${randomBytes(4).toString("hex")}`;
    const payloads = payloadsOf(40);
    const acked = new Set(payloads.filter((_, index) => index % 3 !== 0).map((payload) => payload.toString("hex")));
    const first = await consume(server, topic, "durable", Consumer.SUB_TYPES.SHARED, (payload) =>
      acked.has(payload.toString("hex")),
    );
    await produce(server, topic, payloads);
    await waitFor("every message once", () => first.received.length >= payloads.length);
    // Every ack above waited for its ACK_RESPONSE before the next message was processed.
    await closers.pop()?.();
    await brokers.pop()?.broker.close();

    server = await start(dataDir, port);
    const second = await consume(server, topic, "durable", Consumer.SUB_TYPES.SHARED);
    const expected = payloads.filter((payload) => !acked.has(payload.toString("hex")));
    await waitFor(
      `${String(expected.length)} unacknowledged messages`,
      () => second.received.length >= expected.length,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(second.received).toEqual(expected);
  });

  test("acks on several topics of one cluster are all accepted, and acknowledged messages stay acknowledged", async () => {
    const dataDir = tempDir("pulsar");
    let server = await start(dataDir, 0);
    const suffix = randomBytes(4).toString("hex");
    const topics = ["first", "second", "third"].map((name) => `persistent://public/default/${name}-${suffix}`);
    for (const topic of topics) {
      const payloads = payloadsOf(20);
      const { received, acks } = await consume(server, topic, "acked", Consumer.SUB_TYPES.SHARED);
      await produce(server, topic, payloads);
      await waitFor(`20 acks on ${topic}`, () => acks.settled >= payloads.length);
      expect(received).toEqual(payloads);
      expect(acks.errors).toEqual([]);
      await closers.pop()?.();
    }
    await brokers.pop()?.broker.close();

    // Acknowledged messages do not come back after a restart: only what is produced now arrives.
    server = await start(dataDir, 0);
    for (const topic of topics) {
      const { received } = await consume(server, topic, "acked", Consumer.SUB_TYPES.SHARED);
      const marker = payloadsOf(1);
      await produce(server, topic, marker);
      await waitFor(`the new message on ${topic}`, () => received.length >= 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(received).toEqual(marker);
      await closers.pop()?.();
    }
  });
});
