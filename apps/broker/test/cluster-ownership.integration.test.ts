// Three brokers with cluster membership on one etcd + s3proxy (in this process): every broker reports the same three
// live brokers, the same leader for each partition and the same coordinator for a group, spread over the brokers;
// only the leader answers ListOffsets (the others NOT_LEADER_OR_FOLLOWER) and only the coordinator answers group
// requests (the others NOT_COORDINATOR). A broker that closes hands its partitions to the survivors at once. On the
// embedded storage, membership is refused at start-up.
import { randomBytes } from "node:crypto";
import { Kafka, logLevel } from "kafkajs";
import { afterEach, describe, expect, test } from "vitest";
import { type InProcessBroker, startInProcess, testConfig } from "./support/broker-fixture.js";
import { RawKafkaClient } from "./support/raw-kafka-client.js";

const NOT_LEADER_OR_FOLLOWER = 6;
const NOT_COORDINATOR = 16;
const UNKNOWN_MEMBER_ID = 25;
const PARTITIONS = 6;

const running: InProcessBroker[] = [];
const clients: RawKafkaClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  for (const broker of running.splice(0)) await broker.broker.close("test finished");
});

async function raw(broker: InProcessBroker): Promise<RawKafkaClient> {
  const client = await RawKafkaClient.connect(broker.bootstrap);
  clients.push(client);
  return client;
}

/** The brokers a Metadata answer lists and the leader of each partition of `topic`. */
async function metadataOf(
  client: RawKafkaClient,
  topic: string,
): Promise<{ brokers: number[]; leaders: number[]; controllerId: number }> {
  const response = await client.request(3, 4, {
    topics: [{ name: topic, topicId: "00000000-0000-0000-0000-000000000000" }],
    allowAutoTopicCreation: false,
    includeClusterAuthorizedOperations: false,
    includeTopicAuthorizedOperations: false,
  });
  const partitions = [...(response.topics[0]?.partitions ?? [])].sort((a, b) => a.partitionIndex - b.partitionIndex);
  return {
    brokers: response.brokers.map((broker) => broker.nodeId).sort(),
    leaders: partitions.map((partition) => partition.leaderId),
    controllerId: response.controllerId,
  };
}

async function listOffsetsError(client: RawKafkaClient, topic: string, partition: number): Promise<number> {
  const response = await client.request(2, 4, {
    replicaId: -1,
    isolationLevel: 0,
    topics: [
      {
        name: topic,
        partitions: [{ partitionIndex: partition, currentLeaderEpoch: -1, timestamp: -1, maxNumOffsets: 1 }],
      },
    ],
    timeoutMs: 0,
  });
  return response.topics[0]?.partitions[0]?.errorCode ?? -1;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("cluster membership on the embedded storage", () => {
  test("is refused at start-up: other brokers could not see this one", async () => {
    await expect(
      startInProcess(testConfig("embedded", { overrides: { membership: { enabled: true } } })),
    ).rejects.toThrow(/membership.enabled needs the etcd metadata store/);
  });
});

describe("cluster membership of three brokers on etcd + s3proxy", () => {
  test("leaders and coordinators agree and spread, only owners serve, a closing broker hands over", async () => {
    const cluster = `c${randomBytes(5).toString("hex")}`;
    for (const nodeId of [1, 2, 3]) {
      running.push(
        await startInProcess(
          testConfig("cluster", { cluster, overrides: { nodeId, membership: { enabled: true, leaseTtlMs: 3_000 } } }),
        ),
      );
    }
    const topic = `spread-${randomBytes(4).toString("hex")}`;
    const admin = new Kafka({
      clientId: "cluster-test",
      brokers: [running[0]!.bootstrap],
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    expect(await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS }] })).toBe(true);
    await admin.disconnect();

    const rawClients = await Promise.all(running.map((broker) => raw(broker)));
    const views = await waitFor("every broker to see three live brokers", async () => {
      const all = await Promise.all(rawClients.map((client) => metadataOf(client, topic)));
      return all.every((view) => view.brokers.length === 3) ? all : undefined;
    });
    const leaders = views[0]!.leaders;
    for (const view of views) {
      expect(view.brokers).toEqual([1, 2, 3]);
      expect(view.leaders).toEqual(leaders);
      expect(view.controllerId).toBe(1);
    }
    expect(leaders).toHaveLength(PARTITIONS);
    expect(new Set(leaders).size).toBeGreaterThanOrEqual(2);

    for (let partition = 0; partition < PARTITIONS; partition += 1) {
      for (const [index, client] of rawClients.entries()) {
        const expected = index + 1 === leaders[partition] ? 0 : NOT_LEADER_OR_FOLLOWER;
        expect(await listOffsetsError(client, topic, partition)).toBe(expected);
      }
    }

    const groupId = `group-${randomBytes(4).toString("hex")}`;
    const coordinators = await Promise.all(
      rawClients.map(
        async (client) => (await client.request(10, 1, { key: groupId, keyType: 0, coordinatorKeys: [] })).nodeId,
      ),
    );
    expect(new Set(coordinators).size).toBe(1);
    for (const [index, client] of rawClients.entries()) {
      const heartbeat = await client.request(12, 1, { groupId, generationId: 1, memberId: "m", groupInstanceId: null });
      expect(heartbeat.errorCode).toBe(index + 1 === coordinators[0] ? UNKNOWN_MEMBER_ID : NOT_COORDINATOR);
    }

    // Close the leader of partition 0: the survivors list two brokers and lead every partition among them.
    const victim = leaders[0]!;
    const closedAt = Date.now();
    await running[victim - 1]!.broker.close("leaving");
    const survivors = rawClients.filter((_, index) => index + 1 !== victim);
    const clientOf = new Map(rawClients.map((client, index) => [index + 1, client]));
    const after = await waitFor("the survivors to lead every partition", async () => {
      const all = await Promise.all(survivors.map((client) => metadataOf(client, topic)));
      return all.every((view) => view.brokers.length === 2 && !view.leaders.includes(victim)) ? all : undefined;
    });
    expect(after[0]!.leaders).toEqual(after[1]!.leaders);
    for (let partition = 0; partition < PARTITIONS; partition += 1) {
      // Partitions the survivors led before stay where they were.
      if (leaders[partition] !== victim) expect(after[0]!.leaders[partition]).toBe(leaders[partition]);
      const leader = clientOf.get(after[0]!.leaders[partition]!)!;
      const served = await waitFor("the new leader to serve", async () =>
        (await listOffsetsError(leader, topic, partition)) === 0 ? true : undefined,
      );
      expect(served).toBe(true);
    }
    console.log(`cluster: graceful hand-over of broker ${String(victim)} took ${String(Date.now() - closedAt)} ms`);
  });
});
