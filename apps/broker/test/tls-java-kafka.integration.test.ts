// Java kafka-clients 4.1 over TLS: the idempotent producer and a two-member consumer group over an SSL listener (the
// broker's certificate checked against the CA with a PEM truststore, hostname verification on) and over mutual TLS
// (a PEM keystore with the client certificate) — every record acknowledged is read back once with its key, value
// and header.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { JavaProgram } from "@nereus/test-services";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type InProcessBroker, startInProcess, tempDir, testConfig } from "./support/broker-fixture.js";
import { compileJavaClient, runJavaClient } from "./support/java-client.js";
import { type TestCertificates, generateTestCertificates } from "./support/test-certificates.js";

const COUNT = 600;
let program: JavaProgram | undefined;
let certs: TestCertificates;
let broker: InProcessBroker;

beforeAll(async () => {
  [program, certs] = await Promise.all([compileJavaClient("kafka", "JavaKafkaClients"), generateTestCertificates()]);
  const tls = { certFile: certs.serverCertFile, keyFile: certs.serverKeyFile, caFile: certs.caFile };
  broker = await startInProcess(
    testConfig("embedded", {
      overrides: {
        topics: { defaultPartitions: 3 },
        pulsar: { enabled: false },
        kafka: {
          listeners: [
            { name: "SSL", port: 0, securityProtocol: "SSL", tls },
            { name: "MTLS", port: 0, securityProtocol: "SSL", tls: { ...tls, clientAuth: "required" } },
          ],
        },
      },
    }),
  );
}, 600_000);

afterAll(async () => {
  await broker?.broker.close("test finished");
  program?.dispose();
});

/** A client properties file: SSL with the CA as PEM truststore, and with `keystore` the client's PEM keystore. */
function clientProperties(name: string, keystore: string | undefined): string {
  const lines = [
    "security.protocol=SSL",
    "ssl.truststore.type=PEM",
    `ssl.truststore.location=${certs.caFile}`,
    ...(keystore === undefined ? [] : ["ssl.keystore.type=PEM", `ssl.keystore.location=${keystore}`]),
  ];
  const file = path.join(tempDir("java-tls"), `${name}.properties`);
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

async function roundTrip(listener: string, properties: string): Promise<void> {
  const bootstrap = `localhost:${String(broker.broker.kafkaListenerPorts.get(listener))}`;
  const topic = `java-tls-${randomBytes(4).toString("hex")}`;
  const acks = (
    await runJavaClient(program!, ["produce", bootstrap, topic, String(COUNT), properties], 150_000)
  ).filter((line) => line.startsWith("ACK "));
  expect(acks).toHaveLength(COUNT);
  const lines = await runJavaClient(
    program!,
    ["group", bootstrap, topic, `g-${topic}`, String(COUNT), properties],
    150_000,
  );
  const keys = new Set<string>();
  for (const line of lines.filter((entry) => entry.startsWith("REC "))) {
    const [, , key, value, header] = line.split(" ");
    const index = (key ?? "").slice("java-".length);
    expect(value).toBe(`value-${index}`);
    expect(header).toBe(index);
    keys.add(key ?? "");
  }
  expect(keys.size).toBe(COUNT);
}

describe("Java kafka-clients over TLS", () => {
  test("SSL: producer and consumer group, the broker certificate verified with hostname verification", async () => {
    await roundTrip("SSL", clientProperties("ssl", undefined));
  });

  test("mutual TLS: the client presents its certificate from a PEM keystore", async () => {
    await roundTrip("MTLS", clientProperties("mtls", certs.clientKeystoreFile));
  });
});
