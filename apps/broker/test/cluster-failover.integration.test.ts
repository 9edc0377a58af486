// kill -9 of brokers in a three-broker cluster (child processes, membership on, etcd + s3proxy, lease TTL 3 s) in
// the middle of a kafkajs idempotent acks=all produce loop and a consumer group of three members, each bootstrapped
// at a different broker. Each round kills one broker (in turn) and restarts it. The failover time of a round is from
// the kill until a round of sends started after it, one record for every partition, is acknowledged: the
// victim's partitions have moved to the survivors. Afterwards every acknowledged record is in the log exactly once,
// and the group consumed all of them, resuming from committed offsets after each move (not from the beginning).
// Kill rounds: NEREUS_CLUSTER_KILLS (default 3). The same with a rolling restart: each broker stopped with SIGTERM
// (it hands its partitions and groups over first) and started again, with no send failing.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { type Consumer, Kafka, logLevel, type Producer } from "kafkajs";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerProcess, freePort, tempDir, testConfig } from "./support/broker-fixture.js";
import { runCommand } from "./support/run-command.js";

const PARTITIONS = 6;
const KILLS = Number(process.env.NEREUS_CLUSTER_KILLS ?? "3");
const LEASE_TTL_MS = 3_000;
/** Kill to acknowledgement: lease TTL (a dead broker's lease must lapse) plus this much for clients and claims. */
const FAILOVER_BOUND_MS = LEASE_TTL_MS + 12_000;

const processes: BrokerProcess[] = [];
const consumers: Consumer[] = [];

afterEach(async () => {
  for (const consumer of consumers.splice(0)) await consumer.disconnect().catch(() => undefined);
  for (const broker of processes.splice(0)) await broker.stop("SIGKILL");
});

async function waitFor(what: string, condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function client(brokers: string[], clientId: string): Kafka {
  return new Kafka({
    clientId,
    brokers,
    logLevel: logLevel.NOTHING,
    retry: { retries: 100, initialRetryTime: 100, maxRetryTime: 500 },
  });
}

/** Acknowledged records and when each produce request was sent and acknowledged. */
interface ProduceLog {
  readonly acknowledged: string[];
  readonly sends: { sentAt: number; ackedAt: number }[];
  /** The error a send failed with (the loop stops): a non-retriable error, or retries exhausted. */
  failure?: unknown;
}

/** Sends one record to every partition per round until `stop()`; resolves its log when stopped. */
function produceLoop(producer: Producer, topic: string): { log: ProduceLog; stop: () => Promise<void> } {
  const log: ProduceLog = { acknowledged: [], sends: [] };
  let stopped = false;
  const running = (async () => {
    for (let sequence = 0; !stopped; sequence += 1) {
      const values = Array.from({ length: PARTITIONS }, (_, partition) => `r-${String(sequence)}-${String(partition)}`);
      const sentAt = Date.now();
      // One send per partition: kafkajs 2.2.4 keeps the answers of a send per broker, and when a partition's leader
      // moves during a retry to a broker that already answered the same send, it never sends that partition's
      // records and still resolves the send.
      await Promise.all(
        values.map((value, partition) =>
          producer.send({ topic, acks: -1, messages: [{ partition, key: value, value }] }),
        ),
      );
      log.sends.push({ sentAt, ackedAt: Date.now() });
      log.acknowledged.push(...values);
    }
  })().catch((error: unknown) => {
    log.failure = error;
  });
  return {
    log,
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

/** How a round takes a broker away: kill -9 of a partition's leader, or a graceful stop of each broker in turn. */
interface Scenario {
  readonly name: string;
  readonly signal: NodeJS.Signals;
  readonly rounds: number;
}

const SCENARIOS: readonly Scenario[] = [
  { name: "kill -9 of a partition leader", signal: "SIGKILL", rounds: KILLS },
  { name: "rolling restart (SIGTERM) of every broker", signal: "SIGTERM", rounds: 3 },
];

describe.each(SCENARIOS)("$name in a three-broker cluster", ({ signal, rounds }) => {
  test(
    `partitions and the group move within the lease TTL plus a bound (${String(rounds)} rounds)`,
    async () => {
      const cluster = `f${randomBytes(5).toString("hex")}`;
      const nodes = await Promise.all(
        [1, 2, 3].map(async (nodeId) => {
          const port = await freePort();
          const config = testConfig("cluster", {
            cluster,
            kafkaPort: port,
            overrides: { nodeId, membership: { enabled: true, leaseTtlMs: LEASE_TTL_MS } },
          });
          return {
            nodeId,
            bootstrap: `127.0.0.1:${String(port)}`,
            config,
            configFile: path.join(tempDir("cluster"), "broker.json"),
          };
        }),
      );
      const live = new Map<number, BrokerProcess>();
      const start = async (node: (typeof nodes)[number]): Promise<void> => {
        const broker = await BrokerProcess.start(node.config, node.configFile);
        processes.push(broker);
        live.set(node.nodeId, broker);
      };
      await Promise.all(nodes.map((node) => start(node)));
      const bootstraps = nodes.map((node) => node.bootstrap);
      const kafka = client(bootstraps, "cluster-failover");
      const admin = kafka.admin();
      await admin.connect();
      const topic = `failover-${randomBytes(4).toString("hex")}`;
      for (let attempt = 0; ; attempt += 1) {
        const described = await admin.describeCluster();
        if (described.brokers.length === 3) break;
        if (attempt > 100) throw new Error("the brokers did not see each other");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS }] })).toBe(true);

      const groupId = `group-${randomBytes(4).toString("hex")}`;
      const received: string[] = [];
      for (let member = 0; member < 3; member += 1) {
        const rotated = [...bootstraps.slice(member), ...bootstraps.slice(0, member)];
        const consumer = client(rotated, `member-${String(member)}`).consumer({
          groupId,
          sessionTimeout: 10_000,
          heartbeatInterval: 500,
          rebalanceTimeout: 10_000,
          maxWaitTimeInMs: 200,
        });
        consumers.push(consumer);
        await consumer.connect();
        await consumer.subscribe({ topics: [topic], fromBeginning: true });
        await consumer.run({
          eachMessage: async ({ message }) => {
            received.push(message.value?.toString() ?? "");
          },
        });
      }

      const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
      await producer.connect();
      const loop = produceLoop(producer, topic);
      const { log } = loop;
      const failovers: number[] = [];
      /** `check`, unless a send failed: then that error. */
      const producing =
        (check: () => boolean): (() => boolean) =>
        () => {
          if (log.failure !== undefined) throw log.failure;
          return check();
        };
      try {
        for (let round = 0; round < rounds; round += 1) {
          const before = log.acknowledged.length;
          await waitFor(
            "records acknowledged before the kill",
            producing(() => log.acknowledged.length >= before + 10 * PARTITIONS),
          );
          // kill -9: the leader of partition `round` (mod the partition count); SIGTERM: each broker in turn.
          const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
          const leader = metadata.topics[0]?.partitions.find((p) => p.partitionId === round % PARTITIONS)?.leader;
          const node =
            signal === "SIGKILL"
              ? nodes.find((candidate) => candidate.nodeId === leader)!
              : nodes[round % nodes.length]!;
          const killedAt = Date.now();
          const exit = await live.get(node.nodeId)!.stop(signal);
          if (signal === "SIGTERM") expect(exit.code).toBe(0);
          live.delete(node.nodeId);
          await waitFor(
            "a round of sends started after the kill to be acknowledged",
            producing(() => log.sends.some((send) => send.sentAt > killedAt)),
          );
          const failover = log.sends.find((send) => send.sentAt > killedAt)!.ackedAt - killedAt;
          failovers.push(failover);
          expect(failover).toBeLessThan(FAILOVER_BOUND_MS);
          await start(node);
        }
        const before = log.acknowledged.length;
        await waitFor(
          "records acknowledged after the last restart",
          producing(() => log.acknowledged.length >= before + 10 * PARTITIONS),
        );
      } finally {
        await loop.stop();
        await producer.disconnect();
        await admin.disconnect();
      }

      expect(log.failure).toBeUndefined();
      const acknowledged = log.acknowledged;
      const wanted = new Set(acknowledged);
      await waitFor(
        "the group to consume every acknowledged record",
        () => {
          const seen = new Set(received);
          return acknowledged.every((value) => seen.has(value));
        },
        120_000,
      );
      // Re-deliveries after a move come from the committed offsets, so they are a small part of what was consumed.
      const redelivered = received.length - new Set(received).size;
      expect(redelivered).toBeLessThan(acknowledged.length / 2);

      const consumed = await runCommand(
        "kcat",
        ["-b", bootstraps.join(","), "-C", "-t", topic, "-o", "beginning", "-e", "-q", "-f", "%s\n"],
        { timeoutMs: 60_000 },
      );
      expect(consumed.code).toBe(0);
      const counts = new Map<string, number>();
      for (const value of consumed.stdout.toString("utf8").split("\n")) {
        if (value.length > 0) counts.set(value, (counts.get(value) ?? 0) + 1);
      }
      expect(acknowledged.filter((value) => counts.get(value) !== 1)).toEqual([]);
      expect([...counts.keys()].filter((value) => !wanted.has(value))).toEqual([]);

      console.log(
        `cluster failover over ${String(failovers.length)} ${signal} rounds (lease TTL ${String(LEASE_TTL_MS)} ms): ` +
          `p50 ${String(percentile(failovers, 0.5))} ms, max ${String(Math.max(...failovers))} ms; ` +
          `${String(acknowledged.length)} records acknowledged, ${String(redelivered)} re-delivered to the group`,
      );
    },
    90_000 + rounds * 30_000,
  );
});
