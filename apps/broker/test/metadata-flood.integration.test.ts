// One raw Metadata v4 request naming 100,000 new topics with allow_auto_topic_creation=true, sent over a socket to a
// broker child process on the embedded default: the broker answers every name within its default caps (the first
// 10,000 names resolved, at most the auto-creation burst plus what the token bucket refilled meanwhile created, the
// rest of those LEADER_NOT_AVAILABLE, the names above the cap POLICY_VIOLATION), its resident memory grows by less
// than 256 MB (peak RSS during the request against RSS before, from /proc), and kafkajs works afterwards.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { decodeResponse, encodeRequest } from "@nereus/kafka/protocol";
import { Kafka, logLevel } from "kafkajs";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerProcess, freePort, tempDir, testConfig } from "./support/broker-fixture.js";

const NAMES = 100_000;
const REQUEST_CAP = 10_000;
const BURST = 100;
const RATE_PER_SECOND = 100;
const RSS_GROWTH_BOUND_BYTES = 256 * 1024 * 1024;
const KAFKA_ERROR = { NONE: 0, LEADER_NOT_AVAILABLE: 5, POLICY_VIOLATION: 44 } as const;

const processes: BrokerProcess[] = [];
afterEach(async () => {
  for (const broker of processes.splice(0)) await broker.stop("SIGKILL");
});

/** A field of /proc/<pid>/status in bytes (VmRSS: resident now; VmHWM: the peak resident size so far). */
function memoryField(pid: number, field: "VmRSS" | "VmHWM"): number {
  const line = readFileSync(`/proc/${String(pid)}/status`, "utf8")
    .split("\n")
    .find((candidate) => candidate.startsWith(`${field}:`));
  const kilobytes = Number(line?.split(/\s+/)[1]);
  if (!Number.isFinite(kilobytes)) throw new Error(`no ${field} in /proc/${String(pid)}/status`);
  return kilobytes * 1024;
}

/** Sends one request frame on a new connection to 127.0.0.1:`port` and resolves with the response frame's body. */
function roundTrip(port: number, frame: Uint8Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    const chunks: Buffer[] = [];
    let received = 0;
    socket.on("error", reject);
    socket.on("close", () => reject(new Error(`connection closed after ${String(received)} bytes of the response`)));
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (received < 4) return;
      const all = Buffer.concat(chunks);
      const size = all.readInt32BE(0);
      if (all.length < 4 + size) return;
      socket.removeAllListeners("close");
      socket.destroy();
      resolve(all.subarray(4, 4 + size));
    });
    socket.on("connect", () => socket.write(frame));
  });
}

describe("a Metadata request naming 100,000 new topics", () => {
  test("is answered within the caps, grows the broker's RSS by less than 256 MB, and leaves the broker serving kafkajs", async () => {
    const port = await freePort();
    const broker = await BrokerProcess.start(
      testConfig("embedded", { kafkaPort: port }),
      path.join(tempDir("flood-config"), "broker.json"),
    );
    processes.push(broker);

    const body = {
      topics: Array.from({ length: NAMES }, (_, index) => ({
        topicId: "00000000-0000-0000-0000-000000000000",
        name: `flood-${String(index)}`,
      })),
      allowAutoTopicCreation: true,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    };
    const frame = encodeRequest({ apiKey: 3, apiVersion: 4, correlationId: 7, clientId: "flood" }, body);
    const rssBefore = memoryField(broker.pid, "VmRSS");
    const started = Date.now();
    const response = decodeResponse({ apiKey: 3, apiVersion: 4 }, await roundTrip(port, frame));
    const elapsedSeconds = (Date.now() - started) / 1000;
    const growth = memoryField(broker.pid, "VmHWM") - rssBefore;
    console.log(
      `[metadata-flood] answered in ${elapsedSeconds.toFixed(2)} s; broker RSS ${(rssBefore / 2 ** 20).toFixed(0)} MB before, peak growth ${(growth / 2 ** 20).toFixed(1)} MB`,
    );

    expect(response.header.correlationId).toBe(7);
    const topics = response.body.topics;
    expect(topics).toHaveLength(NAMES);
    const created = topics.filter((topic) => topic.errorCode === KAFKA_ERROR.NONE).length;
    const deferred = topics.filter((topic) => topic.errorCode === KAFKA_ERROR.LEADER_NOT_AVAILABLE).length;
    expect(created).toBeGreaterThanOrEqual(BURST);
    expect(created).toBeLessThanOrEqual(BURST + Math.ceil(RATE_PER_SECOND * elapsedSeconds));
    expect(created + deferred).toBe(REQUEST_CAP);
    expect(topics.slice(REQUEST_CAP).every((topic) => topic.errorCode === KAFKA_ERROR.POLICY_VIOLATION)).toBe(true);
    expect(growth).toBeLessThan(RSS_GROWTH_BOUND_BYTES);

    // A normal client afterwards: it auto-creates a topic (retrying while the bucket refills), produces and reads back.
    const kafka = new Kafka({
      clientId: "after-flood",
      brokers: [`127.0.0.1:${String(port)}`],
      logLevel: logLevel.NOTHING,
      retry: { retries: 10, initialRetryTime: 200 },
    });
    const topic = `after-${randomBytes(4).toString("hex")}`;
    const producer = kafka.producer({ allowAutoTopicCreation: true });
    const admin = kafka.admin();
    await producer.connect();
    await admin.connect();
    try {
      await producer.send({ topic, acks: -1, messages: [{ value: "one" }, { value: "two" }] });
      expect(await admin.fetchTopicOffsets(topic)).toEqual([
        expect.objectContaining({ partition: 0, high: "2", low: "0" }),
      ]);
      const listed = await admin.listTopics();
      expect(listed).toContain(topic);
      expect(listed).toContain("flood-0");
    } finally {
      await producer.disconnect();
      await admin.disconnect();
    }
    expect((await broker.stop("SIGTERM")).code).toBe(0);
  });
});
