// SCRAM credentials on etcd are the cluster's: two brokers of one cluster (etcd + s3proxy), a credential the Java
// Admin client creates through one broker logs in through the other at once (kcat, SCRAM-SHA-256), and a deletion
// through the second refuses the next login through the first. The administrator comes from both brokers'
// configuration.
import { randomBytes } from "node:crypto";
import type { JavaProgram } from "@nereus/test-services";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type InProcessBroker, startInProcess, testConfig } from "./support/broker-fixture.js";
import { DRIVER_JVM_ARGS, compileJavaClient } from "./support/java-client.js";
import { runCommand } from "./support/run-command.js";

const ADMIN = { user: "admin", password: "cluster-admin-5b21" };
const brokers: InProcessBroker[] = [];
let program: JavaProgram | undefined;

beforeAll(async () => {
  const compiling = compileJavaClient("kafka", "JavaKafkaSasl");
  const cluster = `t${randomBytes(5).toString("hex")}`;
  for (const nodeId of [1, 2]) {
    brokers.push(
      await startInProcess(
        testConfig("cluster", {
          cluster,
          overrides: {
            nodeId,
            kafka: {
              listeners: [{ name: "SASL", host: "127.0.0.1", port: 0, securityProtocol: "SASL_PLAINTEXT" }],
              sasl: {
                mechanisms: ["SCRAM-SHA-512", "SCRAM-SHA-256"],
                scramUsers: [{ name: ADMIN.user, password: ADMIN.password, mechanism: "SCRAM-SHA-512" }],
              },
            },
            pulsar: { enabled: false },
          },
        }),
      ),
    );
  }
  program = await compiling;
}, 600_000);

afterAll(async () => {
  program?.dispose();
  for (const broker of brokers.splice(0)) await broker.broker.close("test finished");
});

function bootstrap(index: number): string {
  return `127.0.0.1:${String(brokers[index]?.broker.kafkaListenerPorts.get("SASL") ?? 0)}`;
}

async function admin(index: number, args: readonly string[]): Promise<string[]> {
  if (program === undefined) throw new Error("the driver did not compile");
  const result = await program.run(
    [args[0]!, bootstrap(index), "SASL_PLAINTEXT", "-", "SCRAM-SHA-512", ADMIN.user, ADMIN.password, ...args.slice(1)],
    { timeoutMs: 120_000, jvmArgs: DRIVER_JVM_ARGS },
  );
  expect(result.lines.filter((line) => line.startsWith("ERROR"))).toEqual([]);
  expect(result.code).toBe(0);
  return result.lines;
}

function kcatLogin(index: number, user: string, password: string) {
  return runCommand(
    "kcat",
    [
      "-b",
      bootstrap(index),
      "-X",
      "security.protocol=SASL_PLAINTEXT",
      "-X",
      "sasl.mechanisms=SCRAM-SHA-256",
      "-X",
      `sasl.username=${user}`,
      "-X",
      `sasl.password=${password}`,
      "-L",
      "-m",
      "5",
    ],
    { timeoutMs: 60_000 },
  );
}

describe("SCRAM credentials shared by the brokers of a cluster", () => {
  test("created through one broker, they log in through the other; deleted through it, they are refused everywhere", async () => {
    const user = `carol-${randomBytes(3).toString("hex")}`;
    const password = `pw-${randomBytes(6).toString("hex")}`;
    expect(await admin(0, ["alter", user, "SCRAM-SHA-256", password, "4096"])).toContain("ALTERED");
    const through = await kcatLogin(1, user, password);
    expect(through.stderr).not.toMatch(/authentication/i);
    expect(through.code).toBe(0);
    expect(through.stdout.toString("utf8")).toMatch(/broker 2 at 127\.0\.0\.1/);

    expect(await admin(1, ["describe", ADMIN.user, user])).toEqual(
      expect.arrayContaining([`CREDENTIAL ${ADMIN.user} SCRAM-SHA-512 8192`, `CREDENTIAL ${user} SCRAM-SHA-256 4096`]),
    );
    expect(await admin(1, ["delete", user, "SCRAM-SHA-256"])).toContain("DELETED");
    const refused = await kcatLogin(0, user, password);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(
      /Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-256/,
    );
  }, 240_000);
});
