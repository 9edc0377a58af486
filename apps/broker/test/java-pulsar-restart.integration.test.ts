// Acknowledgement state of the Java pulsar-client 4.2.4 across a broker restart, on the embedded default and on
// etcd + s3proxy: a Shared consumer with batch-index acknowledgement acknowledges every other message of a topic
// holding batched messages (index holes inside entries) and unbatched ones (holes between entries), each ack waiting
// for its receipt; after the broker is closed and started again on the same storage, a new consumer of the
// subscription gets exactly the unacknowledged half, byte-identical, once each. Counts: 100,000 batched and 20,000
// unbatched messages on the embedded default, 20,000 and 5,000 on etcd + s3proxy.
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  type InProcessBroker,
  type StorageKind,
  startInProcess,
  tempDir,
  testConfig,
} from "./support/broker-fixture.js";
import { JavaPulsarDriver, receivedMessages, sentMessages } from "./support/java-pulsar-driver.js";

let driver: JavaPulsarDriver;
const running: InProcessBroker[] = [];

beforeAll(async () => {
  driver = await JavaPulsarDriver.compile();
}, 600_000);
afterAll(() => driver.dispose());
afterEach(async () => {
  for (const broker of running.splice(0)) await broker.broker.close("test finished");
});

describe.each<StorageKind>(["embedded", "cluster"])(
  "Java pulsar-client acks across a restart on the %s storage",
  (kind) => {
    const batched = kind === "embedded" ? 100_000 : 20_000;
    const unbatched = kind === "embedded" ? 20_000 : 5_000;

    test(`batch-index acks and ack holes of every other message (${String(batched)} batched, ${String(unbatched)} unbatched) survive a restart`, async () => {
      const config = testConfig(kind, {
        dataDir: tempDir("pulsar-restart"),
        cluster: `jrestart${randomBytes(4).toString("hex")}`,
        overrides: { pulsar: { enabled: true, port: 0 } },
      });
      const start = async (): Promise<string> => {
        const broker = await startInProcess(config);
        running.push(broker);
        return `pulsar://127.0.0.1:${String(broker.broker.pulsarPort)}`;
      };
      let url = await start();
      const topic = `persistent://public/default/java-holes-${randomBytes(4).toString("hex")}`;
      const total = batched + unbatched;
      const sent = [
        ...sentMessages(await driver.run("produce", { url, topic, count: batched, batching: true }, 170_000)),
        ...sentMessages(
          await driver.run("produce", { url, topic, start: batched, count: unbatched, batching: false }, 170_000),
        ),
      ];
      expect(sent).toHaveLength(total);
      expect(sent.filter((message) => !message.messageId.endsWith(":-1")).length).toBeGreaterThan(batched / 2);
      const consume = { url, topic, sub: "holes", type: "Shared", batchIndexAck: true };
      const first = receivedMessages(await driver.run("consume", { ...consume, count: total, ack: "even" }, 170_000));
      expect(first).toHaveLength(total);

      await running.pop()!.broker.close("restart");
      url = await start();
      const lines = await driver.run(
        "consume",
        { ...consume, url, count: total / 2, ack: "all", settleMs: 2_000 },
        170_000,
      );
      const second = receivedMessages(lines);
      const expected = sent.filter((message) => message.index % 2 === 1);
      expect(second).toHaveLength(expected.length);
      const byIndex = new Map(second.map((message) => [message.index, message]));
      const wrong = expected.filter((message) => {
        const got = byIndex.get(message.index);
        return got?.sha !== message.sha || got.messageId !== message.messageId;
      });
      expect(wrong.slice(0, 5)).toEqual([]);
    });
  },
);
