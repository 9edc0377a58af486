// The broker against hostile and careless clients, spoken on raw sockets (loopback only, every loop bounded). One
// broker process on its embedded default with small limits (300 connections per IP, 1 s to send a request frame,
// 64 MiB of request memory) takes every probe; after each probe the process is alive, a fresh connection is
// answered, a real client (kafkajs) still produces and reads back, and the broker's resident memory grew less than
// the bound the probe states (sampled every 25 ms while the probe runs, against the figure just before it).
// Malformed record batches, Metadata floods and a full disk have suites of their own
// (malformed-produce, metadata-flood, disk-full).
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { encodeRequest } from "@nereus/kafka/protocol";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { BrokerProcess, freePort, tempDir, testConfig } from "./support/broker-fixture.js";
import { RawKafkaSocket, apiVersionsErrorCode } from "./support/raw-kafka-socket.js";

const MIB = 1024 * 1024;
const REQUEST_MEMORY_BYTES = 64 * MIB;
const FRAME_TIMEOUT_MS = 1_000;
const MAX_CONNECTIONS_PER_IP = 300;

let broker: BrokerProcess;
let kafkaPort: number;
let adminPort: number;
let kafka: Kafka;
const topic = `hostile-${randomBytes(4).toString("hex")}`;
let produced = 0;

function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${String(pid)}/status`, "utf8"));
  if (match === null) throw new Error(`no VmRSS for pid ${String(pid)}`);
  return Number(match[1]) * 1024;
}

/** Runs `probe` while sampling the broker's RSS; resolves with the peak growth over the figure before it. */
async function peakGrowth(probe: () => Promise<void>): Promise<number> {
  const before = rssBytes(broker.pid);
  let peak = before;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssBytes(broker.pid));
    } catch {
      // The process is gone: the check after the probe reports it.
    }
  }, 25);
  try {
    await probe();
  } finally {
    clearInterval(sampler);
  }
  const growth = Math.max(peak, rssBytes(broker.pid)) - before;
  if (process.env.NEREUS_TEST_PRINT_GROWTH === "1") console.log(`rss growth ${String(Math.round(growth / MIB))} MiB`);
  return growth;
}

/** Resolves with the raw HTTP response to `request` sent to the admin port. */
function rawHttp(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port: adminPort });
    let received = "";
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (received += chunk));
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.on("error", reject);
    socket.write(request);
  });
}

beforeAll(async () => {
  kafkaPort = await freePort();
  adminPort = await freePort();
  const config = testConfig("embedded", {
    kafkaPort,
    overrides: {
      admin: { port: adminPort },
      pulsar: { enabled: false },
      connections: {
        maxConnectionsPerIp: MAX_CONNECTIONS_PER_IP,
        requestFrameTimeoutMs: FRAME_TIMEOUT_MS,
        requestMemoryBytes: REQUEST_MEMORY_BYTES,
      },
    },
  });
  broker = await BrokerProcess.start(config, path.join(tempDir("hostile-config"), "broker.json"));
  kafka = new Kafka({
    clientId: "hostile-suite",
    brokers: [`127.0.0.1:${String(kafkaPort)}`],
    logLevel: logLevel.NOTHING,
    retry: { retries: 5, initialRetryTime: 100 },
  });
  await expectServing();
});

afterAll(async () => {
  await broker?.stop("SIGTERM");
});

/** The broker process is alive, answers a fresh connection, and a real client produces and reads everything back. */
async function expectServing(): Promise<void> {
  expect(broker.child.exitCode, broker.stderr.join("")).toBeNull();
  expect(await apiVersionsErrorCode(kafkaPort)).toBe(0);
  const producer = kafka.producer({ allowAutoTopicCreation: true });
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, messages: [{ value: `m-${String(produced)}` }] });
    produced += 1;
  } finally {
    await producer.disconnect();
  }
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [offsets] = await admin.fetchTopicOffsets(topic);
    expect(offsets?.high).toBe(String(produced));
  } finally {
    await admin.disconnect();
  }
}

afterEach(async () => {
  await expectServing();
});

describe("the broker under hostile clients", () => {
  test("admin HTTP: request targets that are not URLs and malformed HTTP are answered, never fatal", async () => {
    for (const target of ["//", "///", "http://[::1", "//%zz?x", "*"]) {
      expect(await rawHttp(`GET ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`), target).toMatch(
        /^HTTP\/1\.1 404 /,
      );
    }
    expect(await rawHttp("\x00\x01\x02 garbage\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 /);
    const health = await fetch(`http://127.0.0.1:${String(adminPort)}/healthz`);
    expect(health.status).toBe(200);
  });

  test("a 2 GiB size prefix and negative sizes close that connection only (growth < 16 MiB)", async () => {
    const growth = await peakGrowth(async () => {
      for (const prefix of [0x7fff_ffff, 0x8000_0000, 0xffff_ffff]) {
        const client = await RawKafkaSocket.connect(kafkaPort);
        const frame = Buffer.alloc(4 + 1_024);
        frame.writeUInt32BE(prefix, 0);
        client.socket.write(frame);
        expect(await client.closedWithin(5_000)).toBe(true);
      }
    });
    expect(growth).toBeLessThan(16 * MIB);
  });

  test("10,000 garbage frames on 100 connections are refused or answered (growth < 128 MiB)", async () => {
    const growth = await peakGrowth(async () => {
      const clients = await Promise.all(Array.from({ length: 100 }, () => RawKafkaSocket.connect(kafkaPort)));
      for (const [index, client] of clients.entries()) {
        const frames: Buffer[] = [];
        for (let count = 0; count < 100; count += 1) {
          const body = randomBytes(2 + ((index * 100 + count) % 2_000));
          // Half of them carry a real header (ApiVersions, Metadata or Produce) before garbage, the rest are noise.
          if (count % 2 === 0) body.writeInt16BE([18, 3, 0][count % 3]!, 0);
          const size = Buffer.alloc(4);
          size.writeInt32BE(body.length, 0);
          frames.push(size, body);
        }
        client.socket.write(Buffer.concat(frames));
      }
      // Each connection is answered or closed; none may hang.
      await Promise.all(clients.map(async (client) => expect(await client.closedWithin(15_000)).toBe(true)));
    });
    expect(growth).toBeLessThan(128 * MIB);
  });

  test("connections beyond the per-IP limit are refused on accept; the admitted ones keep working (growth < 64 MiB)", async () => {
    const growth = await peakGrowth(async () => {
      const clients: RawKafkaSocket[] = [];
      try {
        for (let index = 0; index < MAX_CONNECTIONS_PER_IP + 100; index += 1)
          clients.push(await RawKafkaSocket.connect(kafkaPort));
        const refused = await Promise.all(clients.map((client) => client.closedWithin(3_000)));
        // The suite's own earlier connections may still be closing, so at least the 100 beyond the limit are refused.
        expect(refused.filter(Boolean).length).toBeGreaterThanOrEqual(100);
        const admitted = clients.filter((client) => !client.isClosed);
        expect(admitted.length).toBeGreaterThan(0);
        admitted[0]!.socket.write(
          encodeRequest(
            { apiKey: 18, apiVersion: 3, correlationId: 9, clientId: "admitted" },
            { clientSoftwareName: "probe", clientSoftwareVersion: "1" },
          ),
        );
        expect(await admitted[0]!.next(1)).toHaveLength(1);
      } finally {
        for (const client of clients) client.destroy();
      }
    });
    expect(growth).toBeLessThan(64 * MIB);
  });

  test("senders that stall inside a request frame are cut off after the frame timeout", async () => {
    const clients = await Promise.all(Array.from({ length: 50 }, () => RawKafkaSocket.connect(kafkaPort)));
    const started = Date.now();
    for (const [index, client] of clients.entries()) {
      // A size prefix and part of the frame; some send only part of the prefix.
      client.socket.write(
        index % 5 === 0 ? Buffer.from([0, 0]) : Buffer.concat([Buffer.from([0, 0, 0x03, 0xe8]), Buffer.alloc(10)]),
      );
    }
    const closed = await Promise.all(clients.map((client) => client.closedWithin(FRAME_TIMEOUT_MS + 10_000)));
    expect(closed.every(Boolean)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(FRAME_TIMEOUT_MS - 100);
  });

  test("ten connections each sending 40 MiB frames are held to the request memory budget (growth < 192 MiB, not 400)", async () => {
    const frameBytes = 40 * MIB;
    // One shared buffer written to every socket (no copy per socket): a size prefix and all but the last byte.
    const payload = Buffer.alloc(4 + frameBytes - 1, 0x41);
    payload.writeInt32BE(frameBytes, 0);
    const growth = await peakGrowth(async () => {
      const clients = await Promise.all(Array.from({ length: 10 }, () => RawKafkaSocket.connect(kafkaPort)));
      for (const client of clients) client.socket.write(payload);
      // The broker reads one frame at a time within its budget; each stalls one byte short and is cut off by the
      // frame timeout, which lets the next one in.
      const closed = await Promise.all(clients.map((client) => client.closedWithin(10 * (FRAME_TIMEOUT_MS + 5_000))));
      expect(closed.every(Boolean)).toBe(true);
    });
    expect(growth).toBeLessThan(192 * MIB);
  });

  test("a client that half-closes during a long-polling Fetch gets the answer at once", async () => {
    const client = await RawKafkaSocket.connect(kafkaPort);
    const fetchBody = {
      clusterId: null,
      replicaId: -1,
      replicaState: { replicaId: -1, replicaEpoch: -1 },
      maxWaitMs: 20_000,
      minBytes: 1_000_000,
      maxBytes: 1_048_576,
      isolationLevel: 0,
      sessionId: 0,
      sessionEpoch: -1,
      topics: [
        {
          topic,
          topicId: "00000000-0000-0000-0000-000000000000",
          partitions: [
            {
              partition: 0,
              currentLeaderEpoch: -1,
              fetchOffset: 0,
              lastFetchedEpoch: -1,
              logStartOffset: -1,
              partitionMaxBytes: 1_048_576,
              replicaDirectoryId: "00000000-0000-0000-0000-000000000000",
            },
          ],
        },
      ],
      forgottenTopicsData: [],
      rackId: "",
    };
    client.socket.write(
      encodeRequest({ apiKey: 1, apiVersion: 11, correlationId: 5, clientId: "long-poll" }, fetchBody),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    client.socket.end();
    expect(await client.next(1, 5_000)).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await client.closedWithin(5_000)).toBe(true);
  });
});
