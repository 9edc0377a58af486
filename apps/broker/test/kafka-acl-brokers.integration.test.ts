// Two brokers of one cluster on etcd + s3proxy (cluster membership on) share their ACLs: an ACL created through one
// broker is enforced by the other as soon as its watch on the ACL records fires (the periodic reload is set to ten
// minutes here, so only the watch can explain it), and a deletion likewise; after a restart the ACLs are read back
// from etcd. The denial shows in the broker's /metrics. Clients log in with SASL PLAIN ("admin" is a super user, "alice" an ordinary user) over raw connections
// aimed at one broker each.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, test } from "vitest";
import { type InProcessBroker, startInProcess, testConfig } from "./support/broker-fixture.js";
import { readExposition } from "./support/prometheus-text.js";
import { RawKafkaClient } from "./support/raw-kafka-client.js";

const USERS = { admin: "admin-secret-2b7c", alice: "alice-secret-e81d" };
const TOPIC_AUTHORIZATION_FAILED = 29;
const WATCH_DEADLINE_MS = 10_000;
const TOPIC = 2;
const LITERAL = 3;
const READ = 3;
const DESCRIBE = 8;
const ALLOW = 3;
const ANY = 1;

const running: InProcessBroker[] = [];
const clients: RawKafkaClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  for (const broker of running.splice(0)) await broker.broker.close("test finished");
});

async function startBroker(cluster: string, nodeId: number): Promise<InProcessBroker> {
  const broker = await startInProcess(
    testConfig("cluster", {
      cluster,
      overrides: {
        nodeId,
        membership: { enabled: true, leaseTtlMs: 3_000 },
        kafka: {
          listeners: [{ name: "SASL", host: "127.0.0.1", port: 0, securityProtocol: "SASL_PLAINTEXT" }],
          sasl: {
            mechanisms: ["PLAIN"],
            plainUsers: Object.entries(USERS).map(([name, password]) => ({ name, password })),
          },
          authorization: { enabled: true, superUsers: ["User:admin"], aclRefreshIntervalMs: 600_000 },
        },
        pulsar: { enabled: false },
      },
    }),
  );
  running.push(broker);
  return broker;
}

async function login(broker: InProcessBroker, user: keyof typeof USERS): Promise<RawKafkaClient> {
  const port = broker.broker.kafkaListenerPorts.get("SASL");
  const client = await RawKafkaClient.connect(`127.0.0.1:${String(port)}`);
  clients.push(client);
  expect((await client.request(17, 1, { mechanism: "PLAIN" })).errorCode).toBe(0);
  const auth = await client.request(36, 2, { authBytes: new TextEncoder().encode(`\0${user}\0${USERS[user]}`) });
  expect(auth.errorCode).toBe(0);
  return client;
}

/** Alice's Metadata error for `topic` through `client`. */
async function metadataError(client: RawKafkaClient, topic: string): Promise<number | undefined> {
  const response = await client.request(3, 12, {
    topics: [{ name: topic, topicId: "00000000-0000-0000-0000-000000000000" }],
    allowAutoTopicCreation: false,
    includeClusterAuthorizedOperations: false,
    includeTopicAuthorizedOperations: false,
  });
  return response.topics[0]?.errorCode;
}

async function eventually(probe: () => Promise<boolean>): Promise<void> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > WATCH_DEADLINE_MS) throw new Error("the other broker did not follow the ACL change");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("ACLs shared by the brokers of a cluster", () => {
  test("a change made through one broker is enforced by the other through its watch, and survives a restart", async () => {
    const cluster = `acl${randomBytes(4).toString("hex")}`;
    const topic = `shared-${randomBytes(3).toString("hex")}`;
    const first = await startBroker(cluster, 1);
    const second = await startBroker(cluster, 2);
    const admin = await login(first, "admin");
    const created = await admin.request(19, 7, {
      topics: [{ name: topic, numPartitions: 1, replicationFactor: -1, assignments: [], configs: [] }],
      timeoutMs: 10_000,
      validateOnly: false,
    });
    expect(created.topics[0]?.errorCode).toBe(0);
    const aliceOnSecond = await login(second, "alice");
    expect(await metadataError(aliceOnSecond, topic)).toBe(TOPIC_AUTHORIZATION_FAILED);
    const exposition = readExposition(
      await (await fetch(`http://127.0.0.1:${String(second.broker.adminPort)}/metrics`)).text(),
    );
    expect(exposition.problems).toEqual([]);
    expect(
      exposition.samples.find(
        (sample) => sample.name === "nereus_kafka_authorization_denials_total" && sample.labels.api === "Metadata",
      )?.value,
    ).toBe(1);

    const binding = {
      resourceType: TOPIC,
      resourceName: topic,
      resourcePatternType: LITERAL,
      principal: "User:alice",
      host: "*",
      operation: READ,
      permissionType: ALLOW,
    };
    expect((await admin.request(30, 1, { creations: [binding] })).results[0]?.errorCode).toBe(0);
    await eventually(async () => (await metadataError(aliceOnSecond, topic)) === 0);

    const described = await (
      await login(second, "admin")
    ).request(29, 3, {
      resourceTypeFilter: ANY,
      resourceNameFilter: null,
      patternTypeFilter: ANY,
      principalFilter: "User:alice",
      hostFilter: null,
      operation: ANY,
      permissionType: ANY,
    });
    expect(described.resources).toEqual([
      {
        resourceType: TOPIC,
        resourceName: topic,
        patternType: LITERAL,
        acls: [{ principal: "User:alice", host: "*", operation: READ, permissionType: ALLOW }],
      },
    ]);

    await second.broker.close("restart");
    running.splice(running.indexOf(second), 1);
    const restarted = await startBroker(cluster, 2);
    expect(await metadataError(await login(restarted, "alice"), topic)).toBe(0);

    const removed = await admin.request(31, 2, {
      filters: [
        {
          resourceTypeFilter: TOPIC,
          resourceNameFilter: topic,
          patternTypeFilter: LITERAL,
          principalFilter: null,
          hostFilter: null,
          operation: DESCRIBE,
          permissionType: ANY,
        },
        {
          resourceTypeFilter: TOPIC,
          resourceNameFilter: topic,
          patternTypeFilter: ANY,
          principalFilter: "User:alice",
          hostFilter: null,
          operation: ANY,
          permissionType: ALLOW,
        },
      ],
    });
    expect(removed.filterResults.map((result) => result.matchingAcls.length)).toEqual([0, 1]);
    const aliceOnRestarted = await login(restarted, "alice");
    await eventually(async () => (await metadataError(aliceOnRestarted, topic)) === TOPIC_AUTHORIZATION_FAILED);
  });
});
