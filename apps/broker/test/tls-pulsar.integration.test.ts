// Pulsar over TLS with the Java client (pulsar-client 4.2.4): the broker serves pulsar+ssl:// on its TLS listener
// next to the plaintext one; a client that trusts the CA (hostname verification on) produces and consumes through
// it — its topic lookup must answer brokerServiceUrlTls, or the client has nowhere to go — and a plaintext client
// keeps working on pulsar:// at the same time. A client that does not trust the CA cannot connect; hostile
// ClientHellos at the TLS port are closed without disturbing it.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type InProcessBroker, startInProcess, testConfig } from "./support/broker-fixture.js";
import { JavaPulsarDriver, receivedMessages, sentMessages } from "./support/java-pulsar-driver.js";
import { sendHostileHellos } from "./support/hostile-hellos.js";
import { type TestCertificates, generateTestCertificates } from "./support/test-certificates.js";

let certs: TestCertificates;
let broker: InProcessBroker;
let driver: JavaPulsarDriver;

beforeAll(async () => {
  [certs, driver] = await Promise.all([generateTestCertificates(), JavaPulsarDriver.compile()]);
  broker = await startInProcess(
    testConfig("embedded", {
      overrides: {
        pulsar: {
          enabled: true,
          port: 0,
          tls: { port: 0, certFile: certs.serverCertFile, keyFile: certs.serverKeyFile },
        },
      },
    }),
  );
});

afterAll(async () => {
  await broker?.broker.close("test finished");
});

const topicName = (): string => `persistent://public/default/tls-${randomBytes(4).toString("hex")}`;

describe("Pulsar TLS listener", () => {
  test("the Java client produces and consumes over pulsar+ssl:// while a plaintext client uses pulsar://", async () => {
    const tlsUrl = `pulsar+ssl://localhost:${String(broker.broker.pulsarTlsPort)}`;
    const plainUrl = `pulsar://127.0.0.1:${String(broker.broker.pulsarPort)}`;
    const topic = topicName();
    const trust = { tlsTrustCertsFile: certs.caFile };
    const sentOverTls = sentMessages(
      await driver.run(
        "produce",
        { url: tlsUrl, topic, count: 300, batching: true, keys: 8, name: "tls", ...trust },
        120_000,
      ),
    );
    const sentPlain = sentMessages(
      await driver.run(
        "produce",
        { url: plainUrl, topic, start: 300, count: 100, batching: false, keys: 8, name: "plain" },
        120_000,
      ),
    );
    expect(sentOverTls).toHaveLength(300);
    expect(sentPlain).toHaveLength(100);
    const lines = await driver.run("consume", { url: tlsUrl, topic, sub: "tls-sub", count: 400, ...trust }, 120_000);
    expect(lines.at(-1)).toMatch(/^DONE /);
    const received = receivedMessages(lines);
    expect(received.map((message) => message.sha).sort()).toEqual(
      [...sentOverTls, ...sentPlain].map((message) => message.sha).sort(),
    );
  });

  test("500 garbage and truncated ClientHellos at the TLS port are each closed; a TLS client still connects", async () => {
    const connectFrame = Uint8Array.from([0, 0, 0, 10, 0, 0, 0, 6, 8, 2, 18, 2, 118, 49]);
    const outcomes = await sendHostileHellos(broker.broker.pulsarTlsPort!, 500, connectFrame);
    expect(outcomes.filter((outcome) => !outcome.closedByServer)).toEqual([]);
    const handshake = await new Promise<boolean>((resolve) => {
      const socket = tls.connect(
        {
          host: "127.0.0.1",
          port: broker.broker.pulsarTlsPort!,
          ca: fs.readFileSync(certs.caFile),
          servername: "localhost",
        },
        () => {
          socket.destroy();
          resolve(true);
        },
      );
      socket.on("error", () => resolve(false));
    });
    expect(handshake).toBe(true);
  });

  test("a client that does not trust the broker's CA cannot connect", async () => {
    await expect(
      driver.run(
        "produce",
        {
          url: `pulsar+ssl://localhost:${String(broker.broker.pulsarTlsPort)}`,
          topic: topicName(),
          count: 1,
          operationTimeoutMs: 5_000,
          timeoutMs: 15_000,
        },
        40_000,
      ),
    ).rejects.toThrow();
  });
});
