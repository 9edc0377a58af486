// The TLS pieces of a listener with real certificates (made by openssl): the material is checked at start-up with
// errors naming the file at fault; a verified client certificate reaches the broker connection as its subject in
// Kafka's RFC 2253 order, which is the SSL listener's principal; and subjects are escaped as RFC 2253 says.
import fs from "node:fs";
import path from "node:path";
import tls from "node:tls";
import { certificatePrincipal, formatPrincipal, type ConnectionTransport } from "@nereus/kafka";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type TestCertificates, generateTestCertificates } from "../../test/support/test-certificates.js";
import { tempDir } from "../../test/support/temp-dirs.js";
import { StartupError } from "../errors/startup-error.js";
import { PinoBrokerLogger } from "../logging/broker-logger.js";
import { rfc2253Subject } from "./certificate-subject.js";
import { ConnectionAdmission } from "./connection-admission.js";
import { type KafkaListener, startKafkaListener } from "./kafka-listener.js";
import { registerListenerMetrics } from "./listener-metrics.js";
import { RequestMemoryBudget } from "./request-memory-budget.js";
import { loadTlsMaterial } from "./tls-material.js";

let certs: TestCertificates;
let listener: KafkaListener | undefined;

beforeAll(async () => {
  certs = await generateTestCertificates();
});

afterAll(async () => {
  await listener?.close();
});

function startupError(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(StartupError);
    return (error as Error).message;
  }
  throw new Error("expected a StartupError");
}

describe("TLS material", () => {
  test("loads a certificate, its key and a CA bundle", () => {
    const material = loadTlsMaterial("Kafka listener SSL", {
      certFile: certs.serverCertFile,
      keyFile: certs.serverKeyFile,
      caFile: certs.caFile,
      clientAuth: "required",
    });
    expect(material.serverOptions).toMatchObject({ requestCert: true, rejectUnauthorized: true });
    expect(material.subject).toContain("CN=localhost");
  });

  test("names the listener and the file at fault", () => {
    const base = { certFile: certs.serverCertFile, keyFile: certs.serverKeyFile, clientAuth: "none" as const };
    const dir = tempDir("bad-pem");
    const notPem = path.join(dir, "not.pem");
    fs.writeFileSync(notPem, "hello\n");
    expect(
      startupError(() => loadTlsMaterial("Kafka listener SSL", { ...base, certFile: "/nonexistent/cert.pem" })),
    ).toBe("Kafka listener SSL: cannot read certFile /nonexistent/cert.pem (ENOENT)");
    expect(startupError(() => loadTlsMaterial("admin HTTPS listener", { ...base, certFile: notPem }))).toBe(
      `admin HTTPS listener: certFile ${notPem} holds no PEM certificate`,
    );
    expect(startupError(() => loadTlsMaterial("Pulsar TLS listener", { ...base, keyFile: notPem }))).toMatch(
      new RegExp(`^Pulsar TLS listener: keyFile ${notPem} holds no usable PEM private key`),
    );
    expect(startupError(() => loadTlsMaterial("Kafka listener SSL", { ...base, keyFile: certs.clientKeyFile }))).toBe(
      `Kafka listener SSL: keyFile ${certs.clientKeyFile} is not the private key of the certificate in ${certs.serverCertFile}`,
    );
    expect(startupError(() => loadTlsMaterial("Kafka listener SSL", { ...base, caFile: notPem }))).toBe(
      `Kafka listener SSL: caFile ${notPem} holds no PEM certificate`,
    );
    expect(startupError(() => loadTlsMaterial("Kafka listener SSL", base, Date.now() + 10 * 86_400_000))).toMatch(
      /^Kafka listener SSL: the certificate in .* expired on /,
    );
  });
});

describe("client certificate subjects", () => {
  test("a verified client certificate reaches the connection as its RFC 2253 subject, the SSL principal", async () => {
    const transports: ConnectionTransport[] = [];
    const registry = new Registry();
    listener = await startKafkaListener({
      name: "MTLS",
      securityProtocol: "SSL",
      tls: loadTlsMaterial("Kafka listener MTLS", {
        certFile: certs.serverCertFile,
        keyFile: certs.serverKeyFile,
        caFile: certs.caFile,
        clientAuth: "requested",
      }),
      host: "127.0.0.1",
      port: 0,
      maxFrameBytes: 1024,
      maxInFlightRequests: 10,
      maxInFlightBytesPerConnection: 1 << 20,
      requestMemory: new RequestMemoryBudget(1 << 20),
      admission: new ConnectionAdmission({ maxConnections: 10, maxConnectionsPerIp: 10 }),
      idleTimeoutMs: 0,
      requestFrameTimeoutMs: 5_000,
      logger: new PinoBrokerLogger({ level: "error", sink: { write: () => undefined } }),
      metrics: registerListenerMetrics(registry),
      apiName: () => "test",
      openConnection: (_peer, transport) => {
        transports.push(transport);
        return { handleFrame: () => Promise.resolve(undefined), close: () => undefined };
      },
    });
    const ca = fs.readFileSync(certs.caFile);
    const connect = (identity: { cert?: Buffer; key?: Buffer }): Promise<void> =>
      new Promise((resolve, reject) => {
        const socket = tls.connect({
          host: "127.0.0.1",
          port: listener!.port,
          ca,
          servername: "localhost",
          ...identity,
        });
        socket.on("secureConnect", () => setTimeout(() => socket.end(resolve), 50));
        socket.on("error", reject);
      });
    await connect({ cert: fs.readFileSync(certs.clientCertFile), key: fs.readFileSync(certs.clientKeyFile) });
    await connect({});
    expect(transports).toEqual([
      { listenerName: "MTLS", securityProtocol: "SSL", peerCertificateSubject: certs.clientSubject },
      { listenerName: "MTLS", securityProtocol: "SSL" },
    ]);
    expect(formatPrincipal(certificatePrincipal(transports[0]!)!)).toBe(
      "User:CN=alice,OU=Streaming,O=Nereus Tests,C=US",
    );
    expect(certificatePrincipal(transports[1]!)).toBeUndefined();
    expect(certificatePrincipal({ ...transports[0]!, securityProtocol: "SASL_SSL" })).toBeUndefined();
  });

  test("RFC 2253: most specific first, special characters escaped", () => {
    expect(rfc2253Subject("C=US\nO=Acme, Inc.\nCN=a+b")).toBe("CN=a\\+b,O=Acme\\, Inc.,C=US");
    expect(rfc2253Subject("CN=#hash \nO= lead")).toBe("O=\\ lead,CN=\\#hash\\ ");
  });
});
