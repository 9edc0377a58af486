// Kafka SASL re-authentication with the Java client (kafka-clients 4.1, clients/JavaKafkaSasl.java): with
// kafka.sasl.connectionsMaxReauthMs at 3 s, SaslAuthenticate tells the client its session lifetime and a producer
// that sends for about 12 s re-authenticates on its open connections (more successful authentications than
// connections, none failed) without losing a record. (A connection that lets its session expire is closed at its next
// request: packages/kafka's sasl-connection tests.) Apache Kafka's own `kafka-configs` (ConfigCommand from the
// "kafka" Maven set) adds a SCRAM credential that then logs in, and deletes it.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { type JavaProgram, artifactSetDir } from "@nereus/test-services";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type InProcessBroker, startInProcess, tempDir, testConfig } from "./support/broker-fixture.js";
import { DRIVER_JVM_ARGS, compileJavaClient } from "./support/java-client.js";
import { runCommand } from "./support/run-command.js";

const run = promisify(execFile);

const LIFETIME_MS = 3_000;
const ADMIN = { user: "admin", password: "reauth-secret-1d9e" };

let broker: InProcessBroker;
let program: JavaProgram | undefined;

beforeAll(async () => {
  const compiling = compileJavaClient("kafka", "JavaKafkaSasl");
  broker = await startInProcess(
    testConfig("embedded", {
      overrides: {
        kafka: {
          listeners: [{ name: "SASL", host: "127.0.0.1", port: 0, securityProtocol: "SASL_PLAINTEXT" }],
          sasl: {
            mechanisms: ["SCRAM-SHA-256"],
            scramUsers: [{ name: ADMIN.user, password: ADMIN.password, mechanism: "SCRAM-SHA-256" }],
            connectionsMaxReauthMs: LIFETIME_MS,
          },
        },
        pulsar: { enabled: false },
      },
    }),
  );
  program = await compiling;
}, 600_000);

afterAll(async () => {
  program?.dispose();
  await broker?.broker.close("test finished");
});

async function counter(name: string): Promise<number> {
  const metric = await broker.broker.metrics.getSingleMetric(name)?.get();
  return metric?.values[0]?.value ?? Number.NaN;
}

describe("SASL re-authentication", () => {
  test("a Java producer re-authenticates on its connections within the session lifetime and keeps producing", async () => {
    if (program === undefined) throw new Error("the driver did not compile");
    const port = broker.broker.kafkaListenerPorts.get("SASL") ?? 0;
    const opened = await counter("nereus_kafka_connections_opened_total");
    const succeeded = await counter("nereus_kafka_authentications_succeeded_total");
    const result = await program.run(
      [
        "produce-slowly",
        `127.0.0.1:${String(port)}`,
        "SASL_PLAINTEXT",
        "-",
        "SCRAM-SHA-256",
        ADMIN.user,
        ADMIN.password,
        `reauth-${randomBytes(4).toString("hex")}`,
        "24",
        "500",
      ],
      { timeoutMs: 120_000, jvmArgs: DRIVER_JVM_ARGS },
    );
    expect(result.lines.filter((line) => line.startsWith("ERROR"))).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.lines.filter((line) => line.startsWith("ACK "))).toHaveLength(24);
    const connections = (await counter("nereus_kafka_connections_opened_total")) - opened;
    const authentications = (await counter("nereus_kafka_authentications_succeeded_total")) - succeeded;
    expect(connections).toBeGreaterThan(0);
    expect(authentications).toBeGreaterThanOrEqual(connections + 2);
    expect(await counter("nereus_kafka_authentications_failed_total")).toBe(0);
  }, 180_000);

  test("kafka-configs adds a SCRAM credential that logs in, and deletes it", async () => {
    const port = broker.broker.kafkaListenerPorts.get("SASL") ?? 0;
    const properties = path.join(tempDir("kafka-configs"), "admin.properties");
    fs.writeFileSync(
      properties,
      [
        "security.protocol=SASL_PLAINTEXT",
        "sasl.mechanism=SCRAM-SHA-256",
        `sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="${ADMIN.user}" password="${ADMIN.password}";`,
        "",
      ].join("\n"),
    );
    const user = `dave-${randomBytes(3).toString("hex")}`;
    const configs = (args: readonly string[]) =>
      run(
        "java",
        [
          ...DRIVER_JVM_ARGS,
          "-cp",
          path.join(artifactSetDir("kafka"), "*"),
          "kafka.admin.ConfigCommand",
          "--bootstrap-server",
          `127.0.0.1:${String(port)}`,
          "--command-config",
          properties,
          ...args,
          "--entity-type",
          "users",
          "--entity-name",
          user,
        ],
        { timeout: 90_000 },
      );
    const login = () =>
      runCommand(
        "kcat",
        [
          "-b",
          `127.0.0.1:${String(port)}`,
          "-X",
          "security.protocol=SASL_PLAINTEXT",
          "-X",
          "sasl.mechanisms=SCRAM-SHA-256",
          "-X",
          `sasl.username=${user}`,
          "-X",
          "sasl.password=dave-secret",
          "-L",
          "-m",
          "5",
        ],
        { timeoutMs: 60_000 },
      );
    const added = await configs(["--alter", "--add-config", "SCRAM-SHA-256=[iterations=4096,password=dave-secret]"]);
    expect(added.stdout).toContain(`Completed updating config for user ${user}.`);
    expect((await login()).code).toBe(0);
    const deleted = await configs(["--alter", "--delete-config", "SCRAM-SHA-256"]);
    expect(deleted.stdout).toContain(`Completed updating config for user ${user}.`);
    const refused = await login();
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/Authentication failed during authentication due to invalid credentials/);
  }, 180_000);
});
