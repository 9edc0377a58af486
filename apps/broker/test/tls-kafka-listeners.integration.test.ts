// Kafka over TLS with real clients: one broker with three listeners at once — PLAINTEXT on loopback, SSL (client
// certificate requested) and MTLS (SSL, client certificate required). kafkajs produces and consumes over SSL and
// over mutual TLS; Metadata on each listener advertises that listener's own port (a client never leaves its
// listener); the required listener refuses a client without a certificate and one whose certificate another CA
// signed; kcat (librdkafka) produces and consumes over SSL; the connection of a client certificate carries the
// certificate's subject in Kafka's RFC 2253 order.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type InProcessBroker, startInProcess, testConfig } from "./support/broker-fixture.js";
import { runCommand } from "./support/run-command.js";
import { type TestCertificates, generateTestCertificates } from "./support/test-certificates.js";

let certs: TestCertificates;
let broker: InProcessBroker;
let ports: ReadonlyMap<string, number>;

beforeAll(async () => {
  certs = await generateTestCertificates();
  const tls = { certFile: certs.serverCertFile, keyFile: certs.serverKeyFile, caFile: certs.caFile };
  broker = await startInProcess(
    testConfig("embedded", {
      overrides: {
        kafka: {
          listeners: [
            { name: "PLAINTEXT", host: "127.0.0.1", port: 0, securityProtocol: "PLAINTEXT" },
            {
              name: "SSL",
              host: "127.0.0.1",
              port: 0,
              securityProtocol: "SSL",
              tls: { ...tls, clientAuth: "requested" },
            },
            {
              name: "MTLS",
              host: "127.0.0.1",
              port: 0,
              securityProtocol: "SSL",
              tls: { ...tls, clientAuth: "required" },
            },
          ],
        },
        pulsar: { enabled: false },
      },
    }),
  );
  ports = broker.broker.kafkaListenerPorts;
});

afterAll(async () => {
  await broker?.broker.close("test finished");
});

function portOf(name: string): number {
  const port = ports.get(name);
  if (port === undefined) throw new Error(`no listener ${name}`);
  return port;
}

function client(listener: string, ssl: Record<string, unknown> | undefined): Kafka {
  return new Kafka({
    clientId: `tls-test-${listener}`,
    brokers: [`127.0.0.1:${String(portOf(listener))}`],
    ...(ssl === undefined ? {} : { ssl }),
    logLevel: logLevel.NOTHING,
    connectionTimeout: 5_000,
    retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 500 },
  });
}

const ca = (): string => fs.readFileSync(certs.caFile, "utf8");
const clientIdentity = (): { cert: string; key: string } => ({
  cert: fs.readFileSync(certs.clientCertFile, "utf8"),
  key: fs.readFileSync(certs.clientKeyFile, "utf8"),
});

/** Produces `count` records to a new topic and consumes them back; returns the values read, in order. */
async function roundTrip(kafka: Kafka, count: number): Promise<{ sent: string[]; read: string[] }> {
  const topic = `tls-${randomBytes(4).toString("hex")}`;
  const sent = Array.from({ length: count }, (_, index) => `${String(index)}:${randomBytes(8).toString("hex")}`);
  const producer = kafka.producer({ allowAutoTopicCreation: true });
  await producer.connect();
  try {
    for (let start = 0; start < count; start += 100)
      await producer.send({ topic, acks: -1, messages: sent.slice(start, start + 100).map((value) => ({ value })) });
  } finally {
    await producer.disconnect();
  }
  const consumer = kafka.consumer({ groupId: `g-${topic}`, maxWaitTimeInMs: 200 });
  const read: string[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const done = new Promise<void>((resolve) => {
      void consumer.run({
        eachMessage: async ({ message }) => {
          read.push(message.value?.toString("utf8") ?? "");
          if (read.length >= count) resolve();
        },
      });
    });
    await Promise.race([
      done,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`read ${String(read.length)} of ${String(count)}`)), 60_000),
      ),
    ]);
  } finally {
    await consumer.disconnect();
  }
  return { sent, read };
}

describe("Kafka TLS listeners", () => {
  test("kafkajs produces and consumes over SSL (server certificate verified against the CA)", async () => {
    const { sent, read } = await roundTrip(client("SSL", { ca: [ca()] }), 1_000);
    expect(read).toEqual(sent);
  });

  test("kafkajs produces and consumes over mutual TLS", async () => {
    const { sent, read } = await roundTrip(client("MTLS", { ca: [ca()], ...clientIdentity() }), 500);
    expect(read).toEqual(sent);
  });

  test("Metadata and FindCoordinator advertise the listener the request came in on", async () => {
    const expectations: [string, Record<string, unknown> | undefined][] = [
      ["PLAINTEXT", undefined],
      ["SSL", { ca: [ca()] }],
      ["MTLS", { ca: [ca()], ...clientIdentity() }],
    ];
    for (const [listener, ssl] of expectations) {
      const admin = client(listener, ssl).admin();
      await admin.connect();
      try {
        const cluster = await admin.describeCluster();
        expect(cluster.brokers).toEqual([{ nodeId: 0, host: "127.0.0.1", port: portOf(listener) }]);
        const coordinator = await admin.describeGroups([`group-${listener}`]);
        expect(coordinator.groups).toHaveLength(1);
      } finally {
        await admin.disconnect();
      }
    }
  });

  test("the mutual TLS listener refuses a client without a certificate and one signed by another CA", async () => {
    const stranger = {
      cert: fs.readFileSync(certs.strangerCertFile, "utf8"),
      key: fs.readFileSync(certs.strangerKeyFile, "utf8"),
    };
    for (const ssl of [{ ca: [ca()] }, { ca: [ca()], ...stranger }]) {
      const admin = client("MTLS", ssl).admin();
      await expect(admin.connect().then(() => admin.listTopics())).rejects.toThrow();
      await admin.disconnect();
    }
    // The listener that only requests a certificate refuses one it cannot verify, too.
    const admin = client("SSL", { ca: [ca()], ...stranger }).admin();
    await expect(admin.connect().then(() => admin.listTopics())).rejects.toThrow();
    await admin.disconnect();
  });

  test("a plaintext client cannot talk to a TLS listener, and a TLS client cannot talk to the plaintext one", async () => {
    const plainOnTls = client("SSL", undefined).admin();
    await expect(plainOnTls.connect().then(() => plainOnTls.listTopics())).rejects.toThrow();
    await plainOnTls.disconnect();
    const tlsOnPlain = client("PLAINTEXT", { ca: [ca()] }).admin();
    await expect(tlsOnPlain.connect().then(() => tlsOnPlain.listTopics())).rejects.toThrow();
    await tlsOnPlain.disconnect();
  });

  test("the admin API lists every listener with its protocol, bound port and advertised address", async () => {
    const response = await fetch(`http://127.0.0.1:${String(broker.broker.adminPort)}/admin/v1/brokers`);
    const { brokers } = (await response.json()) as {
      brokers: {
        listeners: { name: string; listener?: string; protocol?: string; port: number; advertised: string }[];
      }[];
    };
    expect(brokers[0]?.listeners.filter((listener) => listener.name === "kafka")).toEqual(
      [
        ["PLAINTEXT", undefined],
        ["SSL", "SSL"],
        ["MTLS", "SSL"],
      ].map(([name, protocol]) => ({
        name: "kafka",
        listener: name,
        ...(protocol === undefined ? {} : { protocol }),
        host: "127.0.0.1",
        port: portOf(name!),
        advertised: `127.0.0.1:${String(portOf(name!))}`,
      })),
    );
  });

  test("kcat produces and consumes over SSL", async () => {
    const topic = `kcat-tls-${randomBytes(4).toString("hex")}`;
    const bootstrap = `127.0.0.1:${String(portOf("SSL"))}`;
    const ssl = ["-X", "security.protocol=SSL", "-X", `ssl.ca.location=${certs.caFile}`];
    const lines = Array.from({ length: 2_000 }, (_, index) => `${String(index)}-${randomBytes(6).toString("hex")}`);
    const produced = await runCommand("kcat", ["-b", bootstrap, ...ssl, "-P", "-t", topic, "-X", "acks=all"], {
      input: `${lines.join("\n")}\n`,
      timeoutMs: 60_000,
    });
    expect(produced.stderr.toString()).not.toMatch(/fail|error/i);
    expect(produced.code).toBe(0);
    const consumed = await runCommand(
      "kcat",
      ["-b", bootstrap, ...ssl, "-C", "-t", topic, "-o", "beginning", "-e", "-c", String(lines.length), "-q"],
      { timeoutMs: 60_000 },
    );
    expect(consumed.code).toBe(0);
    expect(consumed.stdout.toString("utf8").trimEnd().split("\n")).toEqual(lines);
  });
});
