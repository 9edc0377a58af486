// Kafka ACLs with the Java client (kafka-clients 4.1, clients/JavaKafkaAcls.java) on a broker with authorization on
// and a SASL_PLAINTEXT listener with two PLAIN users: "admin", a super user, manages ACLs with the Admin client as
// kafka-acls does (createAcls, describeAcls with filters, deleteAcls); "alice", an ordinary user, gets the exceptions
// the Java client reports for a denied request (TopicAuthorizationException, GroupAuthorizationException,
// ClusterAuthorizationException) until the ACLs kafka-acls --producer / --consumer would add allow her.
import { randomBytes } from "node:crypto";
import type { JavaProgram } from "@nereus/test-services";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type InProcessBroker, startInProcess, testConfig } from "./support/broker-fixture.js";
import { DRIVER_JVM_ARGS, compileJavaClient } from "./support/java-client.js";

const ADMIN = { user: "admin", password: "admin-secret-5d1e" };
const ALICE = { user: "alice", password: "alice-secret-c09b" };
type User = typeof ADMIN;

let broker: InProcessBroker;
let program: JavaProgram | undefined;

beforeAll(async () => {
  const compiling = compileJavaClient("kafka", "JavaKafkaAcls");
  broker = await startInProcess(
    testConfig("embedded", {
      overrides: {
        kafka: {
          listeners: [{ name: "SASL", host: "127.0.0.1", port: 0, securityProtocol: "SASL_PLAINTEXT" }],
          sasl: {
            mechanisms: ["PLAIN"],
            plainUsers: [
              { name: ADMIN.user, password: ADMIN.password },
              { name: ALICE.user, password: ALICE.password },
            ],
          },
          authorization: { enabled: true, superUsers: [`User:${ADMIN.user}`] },
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

/** Runs the driver as `user`; its exit code and stdout lines. */
async function java(user: User, command: string, args: readonly string[]): Promise<{ code: number; lines: string[] }> {
  if (program === undefined) throw new Error("the driver did not compile");
  const port = broker.broker.kafkaListenerPorts.get("SASL");
  if (port === undefined) throw new Error("no SASL listener");
  const result = await program.run([command, `127.0.0.1:${String(port)}`, user.user, user.password, ...args], {
    timeoutMs: 120_000,
    jvmArgs: DRIVER_JVM_ARGS,
  });
  return { code: result.code ?? -1, lines: result.lines };
}

async function javaOk(user: User, command: string, args: readonly string[]): Promise<string[]> {
  const { code, lines } = await java(user, command, args);
  expect(lines.filter((line) => line.startsWith("ERROR"))).toEqual([]);
  expect(code).toBe(0);
  return lines;
}

/** The exception class the driver reported for a failed run. */
async function javaError(user: User, command: string, args: readonly string[]): Promise<string> {
  const { code, lines } = await java(user, command, args);
  expect(code).toBe(3);
  const error = lines.find((line) => line.startsWith("ERROR "));
  return error?.split(" ")[1] ?? `no error line in: ${lines.join(" | ")}`;
}

const ERRORS = "org.apache.kafka.common.errors.";
const tagged = (prefix: string, lines: readonly string[]): string[] =>
  lines.filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length));

describe("Kafka ACLs with the Java client", () => {
  test("kafka-acls style bindings are created, described by filter and deleted; a client is denied until they allow it", async () => {
    const topic = `acl-${randomBytes(4).toString("hex")}`;
    const group = `team-${randomBytes(3).toString("hex")}`;
    // No ACL: the producer and the consumer get the Java client's authorization exceptions.
    expect(await javaError(ALICE, "produce", [topic, "3"])).toBe(`${ERRORS}TopicAuthorizationException`);
    expect(await javaError(ALICE, "consume", [topic, group, "3"])).toBe(`${ERRORS}TopicAuthorizationException`);
    expect(await javaError(ALICE, "describe", ["ANY,-,ANY,-,-,ANY,ANY"])).toBe(
      `${ERRORS}ClusterAuthorizationException`,
    );

    // kafka-acls --add --allow-principal User:alice --producer --topic <topic>
    const producer = ["WRITE", "DESCRIBE", "CREATE"].map(
      (operation) => `TOPIC,${topic},LITERAL,User:alice,*,${operation},ALLOW`,
    );
    expect(await javaOk(ADMIN, "create", producer)).toContain("CREATED 3");
    expect(tagged("ACK ", await javaOk(ALICE, "produce", [topic, "3"]))).toEqual(["0", "1", "2"]);

    // READ on the topic but not yet on the group: the consumer is refused the group.
    expect(await javaOk(ADMIN, "create", [`TOPIC,${topic},LITERAL,User:alice,*,READ,ALLOW`])).toContain("CREATED 1");
    expect(await javaError(ALICE, "consume", [topic, group, "3"])).toBe(`${ERRORS}GroupAuthorizationException`);
    // READ on every group named team-* (a PREFIXED pattern).
    expect(await javaOk(ADMIN, "create", ["GROUP,team-,PREFIXED,User:alice,*,READ,ALLOW"])).toContain("CREATED 1");
    expect(tagged("REC ", await javaOk(ALICE, "consume", [topic, group, "3"]))).toEqual(["v0", "v1", "v2"]);

    // describeAcls with filters: everything, what applies to the group (MATCH), one entry, another principal.
    const described = tagged(
      "ACL ",
      await javaOk(ADMIN, "describe", [
        "ANY,-,ANY,-,-,ANY,ANY",
        `GROUP,${group},MATCH,-,-,ANY,ANY`,
        `TOPIC,${topic},LITERAL,User:alice,-,WRITE,ALLOW`,
        "ANY,-,ANY,User:bob,-,ANY,ANY",
      ]),
    );
    const byFilter = (index: number): string[] => tagged(`${String(index)} `, described).sort();
    const topicAcls = ["CREATE", "DESCRIBE", "READ", "WRITE"].map(
      (operation) => `TOPIC,${topic},LITERAL,User:alice,*,${operation},ALLOW`,
    );
    const groupAcl = "GROUP,team-,PREFIXED,User:alice,*,READ,ALLOW";
    expect(byFilter(0)).toEqual([groupAcl, ...topicAcls].sort());
    expect(byFilter(1)).toEqual([groupAcl]);
    expect(byFilter(2)).toEqual([`TOPIC,${topic},LITERAL,User:alice,*,WRITE,ALLOW`]);
    expect(byFilter(3)).toEqual([]);

    // deleteAcls: without WRITE on any topic the idempotent producer is refused its producer id (Kafka needs
    // IDEMPOTENT_WRITE on the cluster or WRITE on some topic); deleting everything of alice leaves no ACL.
    expect(tagged("DELETED ", await javaOk(ADMIN, "delete", [`TOPIC,${topic},ANY,-,-,WRITE,ANY`]))).toEqual([
      `TOPIC,${topic},LITERAL,User:alice,*,WRITE,ALLOW`,
    ]);
    expect(await javaError(ALICE, "produce", [topic, "1"])).toBe(`${ERRORS}ClusterAuthorizationException`);
    const deleted = tagged("DELETED ", await javaOk(ADMIN, "delete", ["ANY,-,ANY,User:alice,-,ANY,ANY"]));
    expect(deleted.sort()).toEqual([groupAcl, ...topicAcls.filter((acl) => !acl.includes(",WRITE,"))].sort());
    expect(tagged("ACL ", await javaOk(ADMIN, "describe", ["ANY,-,ANY,-,-,ANY,ANY"]))).toEqual([]);
  });
});
