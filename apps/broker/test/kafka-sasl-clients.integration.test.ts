// Kafka SASL with real clients, on one broker with a SASL_PLAINTEXT and a SASL_SSL listener (SCRAM-SHA-512,
// SCRAM-SHA-256 and PLAIN enabled; an administrator SCRAM user created from the configuration, a PLAIN user from the
// configuration). Java kafka-clients 4.1 (clients/JavaKafkaSasl.java): the Admin client logged in as the
// administrator creates, describes and deletes SCRAM credentials; a producer and a consumer logged in with the new
// credential round-trip records over both listeners; a wrong password is refused with the exception and message the
// client reports; PLAIN works. kcat (librdkafka 2.0.2) produces and consumes with SCRAM-SHA-512 over both listeners
// and reports a wrong password; a client speaking PLAINTEXT to the SASL listener gets nothing. Failed attempts are
// logged with the user and the peer, never the password.
import { randomBytes } from "node:crypto";
import type { JavaProgram } from "@nereus/test-services";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type InProcessBroker, startInProcess, testConfig } from "./support/broker-fixture.js";
import { DRIVER_JVM_ARGS, compileJavaClient } from "./support/java-client.js";
import { runCommand } from "./support/run-command.js";
import { type TestCertificates, generateTestCertificates } from "./support/test-certificates.js";

const ADMIN = { user: "admin", password: "admin-secret-7f3a" };
const PLAIN = { user: "plain-user", password: "plain-secret-91c2" };
const COUNT = 200;

let certs: TestCertificates;
let broker: InProcessBroker;
let program: JavaProgram | undefined;

beforeAll(async () => {
  const compiling = compileJavaClient("kafka", "JavaKafkaSasl");
  certs = await generateTestCertificates();
  broker = await startInProcess(
    testConfig("embedded", {
      overrides: {
        kafka: {
          listeners: [
            { name: "SASL", host: "127.0.0.1", port: 0, securityProtocol: "SASL_PLAINTEXT" },
            {
              name: "SASL_TLS",
              host: "127.0.0.1",
              port: 0,
              securityProtocol: "SASL_SSL",
              tls: { certFile: certs.serverCertFile, keyFile: certs.serverKeyFile },
            },
          ],
          sasl: {
            mechanisms: ["SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN"],
            plainUsers: [{ name: PLAIN.user, password: PLAIN.password }],
            scramUsers: [{ name: ADMIN.user, password: ADMIN.password, mechanism: "SCRAM-SHA-512" }],
          },
        },
        pulsar: { enabled: false },
        log: { level: "info" },
      },
    }),
  );
  program = await compiling;
}, 600_000);

afterAll(async () => {
  program?.dispose();
  await broker?.broker.close("test finished");
});

type Listener = "SASL" | "SASL_TLS";

function bootstrap(listener: Listener): string {
  const port = broker.broker.kafkaListenerPorts.get(listener);
  if (port === undefined) throw new Error(`no listener ${listener}`);
  return `127.0.0.1:${String(port)}`;
}

interface Login {
  readonly listener: Listener;
  readonly mechanism: "PLAIN" | "SCRAM-SHA-256" | "SCRAM-SHA-512";
  readonly user: string;
  readonly password: string;
}

/** Runs the Java driver; its exit code and stdout lines. */
async function java(
  command: string,
  login: Login,
  args: readonly string[],
): Promise<{ code: number; lines: string[] }> {
  if (program === undefined) throw new Error("the driver did not compile");
  const protocol = login.listener === "SASL" ? "SASL_PLAINTEXT" : "SASL_SSL";
  const caFile = login.listener === "SASL" ? "-" : certs.caFile;
  const result = await program.run(
    [command, bootstrap(login.listener), protocol, caFile, login.mechanism, login.user, login.password, ...args],
    { timeoutMs: 120_000, jvmArgs: DRIVER_JVM_ARGS },
  );
  return { code: result.code ?? -1, lines: result.lines };
}

async function javaOk(command: string, login: Login, args: readonly string[]): Promise<string[]> {
  const { code, lines } = await java(command, login, args);
  expect(lines.filter((line) => line.startsWith("ERROR"))).toEqual([]);
  expect(code).toBe(0);
  return lines;
}

function kcatSasl(login: Login): string[] {
  const flags = [
    "-b",
    bootstrap(login.listener),
    "-X",
    `security.protocol=${login.listener === "SASL" ? "SASL_PLAINTEXT" : "SASL_SSL"}`,
    "-X",
    `sasl.mechanisms=${login.mechanism}`,
    "-X",
    `sasl.username=${login.user}`,
    "-X",
    `sasl.password=${login.password}`,
  ];
  return login.listener === "SASL" ? flags : [...flags, "-X", `ssl.ca.location=${certs.caFile}`];
}

const admin = (listener: Listener = "SASL"): Login => ({ listener, mechanism: "SCRAM-SHA-512", ...ADMIN });
const topicName = (): string => `sasl-${randomBytes(4).toString("hex")}`;

describe("Java kafka-clients over SASL", () => {
  test("the Admin client creates and describes SCRAM credentials; the new user produces and consumes over SASL_PLAINTEXT and SASL_SSL", async () => {
    const user = `alice-${randomBytes(3).toString("hex")}`;
    const password = `pw-${randomBytes(6).toString("hex")}`;
    expect(await javaOk("alter", admin(), [user, "SCRAM-SHA-512", password, "8192"])).toContain("ALTERED");
    expect(await javaOk("alter", admin("SASL_TLS"), [user, "SCRAM-SHA-256", password, "4096"])).toContain("ALTERED");
    const described = (await javaOk("describe", admin(), [user, ADMIN.user])).filter((line) =>
      line.startsWith("CREDENTIAL "),
    );
    expect(described.sort()).toEqual(
      [
        `CREDENTIAL ${ADMIN.user} SCRAM-SHA-512 8192`,
        `CREDENTIAL ${user} SCRAM-SHA-256 4096`,
        `CREDENTIAL ${user} SCRAM-SHA-512 8192`,
      ].sort(),
    );

    for (const [listener, mechanism] of [
      ["SASL", "SCRAM-SHA-512"],
      ["SASL_TLS", "SCRAM-SHA-256"],
    ] as const) {
      const login: Login = { listener, mechanism, user, password };
      const topic = topicName();
      const acks = (await javaOk("produce", login, [topic, String(COUNT)])).filter((line) => line.startsWith("ACK "));
      expect(acks).toHaveLength(COUNT);
      const records = (await javaOk("consume", login, [topic, String(COUNT)])).filter((line) =>
        line.startsWith("REC "),
      );
      expect(records).toEqual(
        Array.from({ length: COUNT }, (_, index) => `REC sasl-${String(index)} value-${String(index)}`),
      );
    }

    expect(await javaOk("delete", admin(), [user, "SCRAM-SHA-512"])).toContain("DELETED");
    const deleted = await java("produce", { listener: "SASL", mechanism: "SCRAM-SHA-512", user, password }, [
      topicName(),
      "1",
    ]);
    expect(deleted.code).toBe(3);
    expect(deleted.lines).toContain(
      "ERROR org.apache.kafka.common.errors.SaslAuthenticationException Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512",
    );
    const missing = await java("describe", admin(), [`nobody-${randomBytes(3).toString("hex")}`]);
    expect(missing.lines.join("\n")).toMatch(/ERROR org\.apache\.kafka\.common\.errors\.ResourceNotFoundException/);
  }, 300_000);

  test("a wrong password is refused with the client's SaslAuthenticationException; PLAIN users log in", async () => {
    const wrong = await java("produce", { ...admin(), password: "not-the-password" }, [topicName(), "1"]);
    expect(wrong.code).toBe(3);
    expect(wrong.lines).toContain(
      "ERROR org.apache.kafka.common.errors.SaslAuthenticationException Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512",
    );
    const plainLogin: Login = { listener: "SASL_TLS", mechanism: "PLAIN", ...PLAIN };
    const topic = topicName();
    expect((await javaOk("produce", plainLogin, [topic, "20"])).filter((line) => line.startsWith("ACK "))).toHaveLength(
      20,
    );
    const wrongPlain = await java("produce", { ...plainLogin, password: "plain-wrong" }, [topic, "1"]);
    expect(wrongPlain.lines).toContain(
      "ERROR org.apache.kafka.common.errors.SaslAuthenticationException Authentication failed: Invalid username or password",
    );
    const failures = broker.logs.filter((line) => line.includes("SASL authentication failed"));
    expect(
      failures.some((line) => line.includes(`"user":"${ADMIN.user}"`) && line.includes('"peer":"127.0.0.1:')),
    ).toBe(true);
    expect(failures.some((line) => line.includes(`"user":"${PLAIN.user}"`))).toBe(true);
    expect(broker.logs.join("\n")).not.toMatch(/not-the-password|plain-wrong|admin-secret|plain-secret/);
  }, 300_000);
});

describe("kcat (librdkafka 2.0.2) over SASL", () => {
  test.each<Listener>(["SASL", "SASL_TLS"])(
    "SCRAM-SHA-512 produces and consumes on %s",
    async (listener) => {
      const topic = topicName();
      const lines = Array.from({ length: COUNT }, (_, index) => `kcat-${String(index)}`);
      const login = admin(listener);
      const produced = await runCommand("kcat", [...kcatSasl(login), "-P", "-t", topic, "-p", "0", "-X", "acks=all"], {
        input: `${lines.join("\n")}\n`,
        timeoutMs: 60_000,
      });
      expect(produced.stderr).not.toMatch(/error|fail/i);
      expect(produced.code).toBe(0);
      const consumed = await runCommand(
        "kcat",
        [...kcatSasl(login), "-C", "-t", topic, "-o", "beginning", "-e", "-c", String(COUNT), "-q"],
        { timeoutMs: 60_000 },
      );
      expect(consumed.code).toBe(0);
      expect(consumed.stdout.toString("utf8")).toBe(`${lines.join("\n")}\n`);
    },
    120_000,
  );

  test("a wrong password is reported by librdkafka; PLAINTEXT against the SASL listener gets no metadata", async () => {
    const wrong = await runCommand("kcat", [...kcatSasl({ ...admin(), password: "kcat-wrong" }), "-L", "-m", "5"], {
      timeoutMs: 60_000,
    });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(
      /SASL authentication error: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512/,
    );
    const plaintext = await runCommand("kcat", ["-b", bootstrap("SASL"), "-L", "-m", "5"], { timeoutMs: 60_000 });
    expect(plaintext.code).not.toBe(0);
    expect(plaintext.stdout.toString("utf8")).not.toMatch(/topic/i);
  }, 120_000);
});
