// Hostile bytes at a TLS listener: thousands of garbage and truncated ClientHellos (random bytes, TLS records with a
// handshake header and a cut body, records claiming 16 KiB and ending early, plaintext Kafka requests) in bounded
// waves, and clients that open a connection and send nothing. Each socket is closed by the broker without a Kafka
// connection ever being opened for it; the failed
// handshakes are counted; a client without a certificate on the mutual-TLS listener gets no Kafka answer; and the
// real clients — a mutual-TLS kafkajs client and a plaintext one — produce and consume undisturbed meanwhile.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import tls from "node:tls";
import { encodeRequest } from "@nereus/kafka/protocol";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type InProcessBroker, startInProcess, testConfig } from "./support/broker-fixture.js";
import { sendHostileHellos } from "./support/hostile-hellos.js";
import { type TestCertificates, generateTestCertificates } from "./support/test-certificates.js";

/** Hostile connections per run: 3,000 in CI; NEREUS_TLS_FUZZ_CONNECTIONS=100000 for a long run. */
const HOSTILE_CONNECTIONS = Number(process.env.NEREUS_TLS_FUZZ_CONNECTIONS ?? 3_000);
const WAVE = 100;
const PLAINTEXT_API_VERSIONS = encodeRequest(
  { apiKey: 18, apiVersion: 3, correlationId: 1, clientId: "plaintext" },
  { clientSoftwareName: "x", clientSoftwareVersion: "1" },
);

let certs: TestCertificates;
let broker: InProcessBroker;
let tlsPort: number;
let plainPort: number;

beforeAll(async () => {
  certs = await generateTestCertificates();
  broker = await startInProcess(
    testConfig("embedded", {
      overrides: {
        kafka: {
          listeners: [
            { name: "PLAIN", port: 0, securityProtocol: "PLAINTEXT" },
            {
              name: "MTLS",
              port: 0,
              securityProtocol: "SSL",
              tls: {
                certFile: certs.serverCertFile,
                keyFile: certs.serverKeyFile,
                caFile: certs.caFile,
                clientAuth: "required",
              },
            },
          ],
        },
        pulsar: { enabled: false },
      },
    }),
  );
  tlsPort = broker.broker.kafkaListenerPorts.get("MTLS")!;
  plainPort = broker.broker.kafkaListenerPorts.get("PLAIN")!;
});

afterAll(async () => {
  await broker?.broker.close("test finished");
});

async function counter(name: string): Promise<number> {
  const text = await broker.broker.metrics.getSingleMetricAsString(name);
  return text
    .split("\n")
    .filter((line) => line.startsWith(name))
    .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
}

function kafkaClient(port: number, ssl: Record<string, unknown> | undefined): Kafka {
  return new Kafka({
    clientId: "steady",
    brokers: [`127.0.0.1:${String(port)}`],
    ...(ssl === undefined ? {} : { ssl }),
    logLevel: logLevel.NOTHING,
    retry: { retries: 5, initialRetryTime: 100, maxRetryTime: 1_000 },
  });
}

/** Produces `count` records and reads them back on `kafka`; resolves with the values read. */
async function steadyTraffic(kafka: Kafka, topic: string, count: number): Promise<string[]> {
  const producer = kafka.producer({ allowAutoTopicCreation: true });
  await producer.connect();
  for (let index = 0; index < count; index += 1)
    await producer.send({ topic, acks: -1, messages: [{ value: `${topic}-${String(index)}` }] });
  await producer.disconnect();
  const consumer = kafka.consumer({ groupId: `g-${topic}`, maxWaitTimeInMs: 200 });
  const read: string[] = [];
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`read ${String(read.length)} of ${String(count)}`)), 60_000);
    void consumer.run({
      eachMessage: async ({ message }) => {
        read.push(message.value?.toString() ?? "");
        if (read.length === count) {
          clearTimeout(timer);
          resolve();
        }
      },
    });
  });
  await consumer.disconnect();
  return read;
}

describe("hostile TLS clients", () => {
  test(
    `${String(HOSTILE_CONNECTIONS)} garbage and truncated ClientHellos: every socket closed, no Kafka connection opened, real clients undisturbed`,
    async () => {
      const acceptedBefore = await counter("nereus_listener_connections_accepted_total");
      const failuresBefore = await counter("nereus_listener_tls_handshake_failures_total");
      const ca = fs.readFileSync(certs.caFile, "utf8");
      const mtls = {
        ca: [ca],
        cert: fs.readFileSync(certs.clientCertFile, "utf8"),
        key: fs.readFileSync(certs.clientKeyFile, "utf8"),
      };
      const topic = `steady-${randomBytes(3).toString("hex")}`;
      const steady = Promise.all([
        steadyTraffic(kafkaClient(tlsPort, mtls), `${topic}-tls`, 100),
        steadyTraffic(kafkaClient(plainPort, undefined), `${topic}-plain`, 100),
      ]);
      const outcomes = await sendHostileHellos(tlsPort, HOSTILE_CONNECTIONS, PLAINTEXT_API_VERSIONS, WAVE);
      const [tlsRead, plainRead] = await steady;
      expect(tlsRead).toEqual(Array.from({ length: 100 }, (_, index) => `${topic}-tls-${String(index)}`));
      expect(plainRead).toEqual(Array.from({ length: 100 }, (_, index) => `${topic}-plain-${String(index)}`));
      expect(outcomes.filter((outcome) => !outcome.closedByServer)).toEqual([]);
      // The broker answers garbage with at most a TLS alert: never a Kafka response frame.
      expect(outcomes.filter((outcome) => outcome.answeredBytes > 7)).toEqual([]);
      // Only the two steady clients' connections (a few each) reached the Kafka side.
      expect((await counter("nereus_listener_connections_accepted_total")) - acceptedBefore).toBeLessThan(20);
      expect((await counter("nereus_listener_tls_handshake_failures_total")) - failuresBefore).toBeGreaterThanOrEqual(
        HOSTILE_CONNECTIONS * 0.9,
      );
    },
    Math.max(180_000, HOSTILE_CONNECTIONS * 6),
  );

  test("a TLS client without a certificate on the mutual-TLS listener never gets a Kafka answer", async () => {
    const socket = tls.connect({
      host: "127.0.0.1",
      port: tlsPort,
      ca: fs.readFileSync(certs.caFile, "utf8"),
      servername: "localhost",
    });
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    const ended = new Promise<string>((resolve) => {
      socket.on("error", (error) => resolve(error.message));
      socket.on("close", () => resolve("closed"));
    });
    socket.on("secureConnect", () =>
      socket.write(
        encodeRequest(
          { apiKey: 3, apiVersion: 12, correlationId: 7, clientId: "nameless" },
          {
            topics: null,
            allowAutoTopicCreation: false,
            includeClusterAuthorizedOperations: false,
            includeTopicAuthorizedOperations: false,
          },
        ),
      ),
    );
    expect(
      await Promise.race([ended, new Promise((resolve) => setTimeout(() => resolve("timeout"), 15_000))]),
    ).not.toBe("timeout");
    expect(Buffer.concat(received).length).toBe(0);
  });

  test("connections that never finish their handshake are closed by the handshake timeout", async () => {
    const silent = await Promise.all(
      Array.from(
        { length: 20 },
        () =>
          new Promise<net.Socket>((resolve) => {
            const socket = net.connect({ host: "127.0.0.1", port: tlsPort }, () => resolve(socket));
            socket.on("error", () => undefined);
          }),
      ),
    );
    const closed = await Promise.all(
      silent.map(
        (socket) =>
          new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), 20_000);
            socket.on("close", () => {
              clearTimeout(timer);
              resolve(true);
            });
          }),
      ),
    );
    for (const socket of silent) socket.destroy();
    expect(closed.every(Boolean)).toBe(true);
  });
});
