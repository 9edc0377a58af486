// DescribeLogDirs against the running broker, spoken on the wire (kafkajs has no such admin call; the Java Admin
// scenario in tooling/kafka-baseline runs it against Apache Kafka and the embedded broker). kafkajs produces to a
// two-partition topic; DescribeLogDirs v4 then reports one log directory: on the embedded default the objects
// directory with its volume's total and usable bytes, on etcd + s3proxy the bucket and prefix with -1; the sizes
// are the bytes produced, and DeleteRecords inside the log lowers them.
import { randomBytes } from "node:crypto";
import net from "node:net";
import path from "node:path";
import { decodeResponse, encodeRequest } from "@nereus/kafka/protocol";
import { afterEach, describe, expect, test } from "vitest";
import type { StorageKind } from "./support/broker-fixture.js";
import { KafkajsFixture } from "./support/kafkajs-fixture.js";

const fixture = new KafkajsFixture();
afterEach(() => fixture.cleanup());

/** One DescribeLogDirs v4 request on a fresh connection; resolves with the decoded response body. */
async function describeLogDirs(port: number, topics: Array<{ topic: string; partitions: number[] }> | null) {
  const socket = net.connect({ host: "127.0.0.1", port });
  try {
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    socket.write(encodeRequest({ apiKey: 35, apiVersion: 4, correlationId: 7, clientId: "log-dirs-test" }, { topics }));
    let buffered = Buffer.alloc(0);
    const frame = await new Promise<Buffer>((resolve, reject) => {
      socket.on("data", (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        if (buffered.length >= 4 && buffered.length >= 4 + buffered.readInt32BE(0))
          resolve(buffered.subarray(4, 4 + buffered.readInt32BE(0)));
      });
      socket.once("error", reject);
      socket.once("close", () => reject(new Error("connection closed before the response")));
    });
    const decoded = decodeResponse({ apiKey: 35, apiVersion: 4 }, frame);
    expect(decoded.header.correlationId).toBe(7);
    return decoded.body;
  } finally {
    socket.destroy();
  }
}

describe.each<StorageKind>(["embedded", "cluster"])("DescribeLogDirs on the %s storage", (kind) => {
  test("one log directory with the bytes of every partition, lowered by DeleteRecords", async () => {
    const { broker, kafka } = await fixture.start(kind);
    const port = broker.broker.kafkaPort;
    const topic = `sized-${randomBytes(4).toString("hex")}`;
    const admin = await fixture.admin(kafka);
    expect(await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true })).toBe(true);
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    try {
      for (let batch = 0; batch < 4; batch += 1) {
        await producer.send({
          topic,
          acks: -1,
          messages: Array.from({ length: 10 }, (_, index) => ({
            partition: 0,
            value: `v-${String(batch)}-${String(index)}`.padEnd(100, "."),
          })),
        });
      }
    } finally {
      await producer.disconnect();
    }
    const before = await describeLogDirs(port, null);
    expect(before.errorCode).toBe(0);
    expect(before.results).toHaveLength(1);
    const dir = before.results[0]!;
    expect(dir.errorCode).toBe(0);
    if (kind === "embedded") {
      expect(dir.logDir).toBe(path.resolve(String(broker.config.dataDir), "objects"));
      expect(dir.totalBytes).toBeGreaterThan(0);
      expect(dir.usableBytes).toBeGreaterThanOrEqual(0);
      expect(dir.usableBytes).toBeLessThanOrEqual(dir.totalBytes);
    } else {
      expect(dir.logDir).toBe(
        `s3://${String((broker.config.storage?.objects as { bucket: string }).bucket)}/${String(broker.config.cluster)}/`,
      );
      expect([dir.totalBytes, dir.usableBytes]).toEqual([-1, -1]);
    }
    const partitions = dir.topics.find((entry) => entry.name === topic)?.partitions ?? [];
    expect(partitions.map((partition) => partition.partitionIndex)).toEqual([0, 1]);
    const [first, second] = partitions;
    // Four batches of ten ~100-byte values.
    expect(first?.partitionSize).toBeGreaterThan(4 * 10 * 100);
    expect(first?.partitionSize).toBeLessThan(4 * 10 * 200);
    expect(second?.partitionSize).toBe(0);
    // kafkajs finds the partition leaders in the metadata it holds: read the offsets first.
    expect((await admin.fetchTopicOffsets(topic)).map((offsets) => offsets.high)).toEqual(["40", "0"]);
    await admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: "20" }] });
    const after = await describeLogDirs(port, [{ topic, partitions: [0] }]);
    const trimmed = after.results[0]?.topics[0]?.partitions[0]?.partitionSize ?? -1;
    expect(trimmed).toBeGreaterThan(0);
    expect(trimmed).toBeLessThan(first?.partitionSize ?? 0);
  });
});
