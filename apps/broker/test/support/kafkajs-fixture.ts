// What the kafkajs integration tests share: a fixture that starts in-process brokers with a kafkajs client each and
// closes them (and the consumers and admin clients the test made) after every test, a bounded wait for a condition, and a consumer
// group member that reads a topic from the beginning keeping "offset:value" of every record it gets, in order.
import { randomBytes } from "node:crypto";
import { type Admin, type Consumer, Kafka, logLevel } from "kafkajs";
import type { BrokerConfigInput } from "../../src/index.js";
import { type InProcessBroker, type StorageKind, freePort, startInProcess, testConfig } from "./broker-fixture.js";

/** Brokers and consumers one test started; `cleanup()` (in afterEach) closes them. */
export class KafkajsFixture {
  readonly #brokers: InProcessBroker[] = [];
  readonly #consumers: Consumer[] = [];
  readonly #admins: Admin[] = [];

  /**
   * Starts a broker on `kind` storage (config overrides on top of the test config; `cluster` names a cluster another
   * broker of the test shares) and a kafkajs client of it.
   */
  async start(
    kind: StorageKind,
    options: BrokerConfigInput & { readonly cluster?: string } = {},
  ): Promise<{ readonly broker: InProcessBroker; readonly kafka: Kafka }> {
    const { cluster, ...overrides } = options;
    const broker = await startInProcess(
      testConfig(kind, { kafkaPort: await freePort(), overrides, ...(cluster === undefined ? {} : { cluster }) }),
    );
    this.#brokers.push(broker);
    const kafka = new Kafka({
      clientId: "nereus-test",
      brokers: [broker.bootstrap],
      logLevel: logLevel.NOTHING,
      retry: { retries: 5, initialRetryTime: 100 },
    });
    return { broker, kafka };
  }

  /** A connected admin client of `kafka`, which `cleanup()` disconnects. */
  async admin(kafka: Kafka): Promise<Admin> {
    const admin = kafka.admin();
    this.#admins.push(admin);
    await admin.connect();
    return admin;
  }

  /** A consumer `cleanup()` disconnects. */
  consumer(kafka: Kafka, groupId = `group-${randomBytes(4).toString("hex")}`): Consumer {
    const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 200 });
    this.#consumers.push(consumer);
    return consumer;
  }

  /** A new group's consumer of `topic` from the beginning, and the records it has received so far. */
  async readFromBeginning(
    kafka: Kafka,
    topic: string,
  ): Promise<{ readonly consumer: Consumer; readonly received: string[] }> {
    const received: string[] = [];
    const consumer = this.consumer(kafka);
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        received.push(`${message.offset}:${message.value?.toString() ?? ""}`);
      },
    });
    return { consumer, received };
  }

  /** Disconnects the consumers and admin clients, then closes the brokers. */
  async cleanup(): Promise<void> {
    for (const consumer of this.#consumers.splice(0)) await consumer.disconnect().catch(() => undefined);
    for (const admin of this.#admins.splice(0)) await admin.disconnect().catch(() => undefined);
    for (const broker of this.#brokers.splice(0)) await broker.broker.close("test finished");
  }
}

/** Polls `condition` every 50 ms; throws naming `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
