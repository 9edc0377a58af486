// Three brokers (child processes, membership on, etcd + s3proxy) under Apache Kafka's Java client for the cluster
// tests: two idempotent acks=all producers and a consumer group of three members, each member bootstrapped at a
// different broker (clients/ClusterKafkaClients.java), running until the test finishes them. `finish` stops the
// producers, waits for the group to consume every acknowledged record and checks the log: every acknowledged
// record exactly once, at the offset it was acknowledged with, and nothing else.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { JavaProgram, SpawnedJava } from "@nereus/test-services";
import { type Admin, Kafka, logLevel } from "kafkajs";
import { expect } from "vitest";
import { BrokerProcess, freePort, tempDir, testConfig } from "./broker-fixture.js";
import { DRIVER_JVM_ARGS } from "./java-client.js";
import { RawKafkaClient } from "./raw-kafka-client.js";
import { runCommand } from "./run-command.js";

/** A broker's start-up on a machine busy with clients and other brokers. */
const BROKER_START_TIMEOUT_MS = 180_000;

/** An acknowledged record as the producer saw it. */
interface Ack {
  readonly value: string;
  readonly partition: number;
  readonly offset: number;
  readonly sentAt: number;
  readonly ackedAt: number;
}

interface Node {
  readonly nodeId: number;
  readonly bootstrap: string;
  readonly config: object;
  readonly configFile: string;
}

/** What `finish` found. */
interface RunSummary {
  readonly acknowledged: number;
  /** Records the group received more than once (after a move, from its committed offsets). */
  readonly redelivered: number;
}

async function waitFor(what: string, condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

function acksOf(lines: readonly string[]): Ack[] {
  return lines
    .filter((line) => line.startsWith("ACK "))
    .map((line) => {
      const [, value, partition, offset, sentAt, ackedAt] = line.split(" ");
      return {
        value: value ?? "",
        partition: Number(partition),
        offset: Number(offset),
        sentAt: Number(sentAt),
        ackedAt: Number(ackedAt),
      };
    });
}

/** Lines of a JVM that report a failure: a failed send, a client that stopped early, a non-retriable commit error. */
function failuresOf(jvm: SpawnedJava): string[] {
  return jvm.lines.filter(
    (line) =>
      line.startsWith("ERR ") ||
      line.startsWith("FAIL ") ||
      (line.startsWith("COMMITFAIL ") && !line.endsWith(" true")),
  );
}

/** A running cluster with its Java clients. Every process it starts is killed by `dispose`. */
export class JavaClusterRun {
  readonly topic = `java-cluster-${randomBytes(4).toString("hex")}`;
  readonly groupId = `java-group-${randomBytes(3).toString("hex")}`;
  readonly #nodes: readonly Node[];
  readonly #live = new Map<number, BrokerProcess>();
  readonly #processes: BrokerProcess[] = [];
  readonly #admin: Admin;
  readonly #stops = tempDir("java-stop");
  #producers: SpawnedJava | undefined;
  #group: SpawnedJava | undefined;

  private constructor(nodes: readonly Node[]) {
    this.#nodes = nodes;
    this.#admin = new Kafka({
      clientId: "java-cluster",
      brokers: nodes.map((node) => node.bootstrap),
      logLevel: logLevel.NOTHING,
      retry: { retries: 50, initialRetryTime: 100, maxRetryTime: 500 },
    }).admin();
  }

  /** Starts three brokers, creates the topic and starts the clients of `program`. */
  static async start(
    program: JavaProgram,
    options: { leaseTtlMs: number; partitions: number },
  ): Promise<JavaClusterRun> {
    const cluster = `j${randomBytes(5).toString("hex")}`;
    const nodes = await Promise.all(
      [1, 2, 3].map(async (nodeId): Promise<Node> => {
        const port = await freePort();
        const config = testConfig("cluster", {
          cluster,
          kafkaPort: port,
          overrides: {
            nodeId,
            membership: { enabled: true, leaseTtlMs: options.leaseTtlMs },
            pulsar: { enabled: false },
          },
        });
        return {
          nodeId,
          bootstrap: `127.0.0.1:${String(port)}`,
          config,
          configFile: path.join(tempDir("java"), "b.json"),
        };
      }),
    );
    const run = new JavaClusterRun(nodes);
    await Promise.all(nodes.map((node) => run.startBroker(node.nodeId)));
    await run.#createTopic(options.partitions);
    const bootstraps = nodes.map((node) => node.bootstrap).join(",");
    run.#group = program.spawn(["group", bootstraps, run.topic, run.groupId, path.join(run.#stops, "group")], {
      timeoutMs: 300_000,
      jvmArgs: DRIVER_JVM_ARGS,
    });
    run.#producers = program.spawn(["produce", bootstraps, run.topic, path.join(run.#stops, "producers"), "2", "300"], {
      timeoutMs: 300_000,
      jvmArgs: DRIVER_JVM_ARGS,
    });
    return run;
  }

  /** The node ids of the brokers running now. */
  get liveNodeIds(): number[] {
    return [...this.#live.keys()];
  }

  /** Starts broker `nodeId` (again) and waits until it serves. */
  async startBroker(nodeId: number): Promise<void> {
    const node = this.#nodes[nodeId - 1]!;
    writeFileSync(node.configFile, JSON.stringify(node.config));
    const broker = BrokerProcess.spawn(["--config", node.configFile, "--log-level", "info"]);
    this.#processes.push(broker);
    await broker.ready(BROKER_START_TIMEOUT_MS);
    this.#live.set(nodeId, broker);
  }

  /** Stops broker `nodeId` with `signal`; resolves with its exit. */
  async stopBroker(nodeId: number, signal: NodeJS.Signals): Promise<{ code: number | null }> {
    const broker = this.#live.get(nodeId);
    if (broker === undefined) throw new Error(`broker ${String(nodeId)} is not running`);
    this.#live.delete(nodeId);
    return broker.stop(signal);
  }

  /** Each partition's leader (by partition index), as the live brokers report it. */
  async leaders(): Promise<number[]> {
    const metadata = await this.#admin.fetchTopicMetadata({ topics: [this.topic] });
    return [...metadata.topics[0]!.partitions]
      .sort((a, b) => a.partitionId - b.partitionId)
      .map((partition) => partition.leader);
  }

  /** The group's coordinator, as broker `askNodeId` names it. */
  async coordinator(askNodeId: number): Promise<number> {
    const client = await RawKafkaClient.connect(this.#nodes[askNodeId - 1]!.bootstrap);
    try {
      return (await client.request(10, 1, { key: this.groupId, keyType: 0, coordinatorKeys: [] })).nodeId;
    } finally {
      await client.close();
    }
  }

  /** `check`, unless a client reported a failure: then throws it. */
  healthy(check: () => boolean): () => boolean {
    return () => {
      const failed = [...failuresOf(this.#producers!), ...failuresOf(this.#group!)];
      if (failed.length > 0) throw new Error(`a Java client failed: ${failed.slice(0, 5).join("; ")}`);
      return check();
    };
  }

  /** Records acknowledged so far. */
  ackCount(): number {
    return this.#producers!.lines.filter((line) => line.startsWith("ACK ")).length;
  }

  /** Waits until `count` more records are acknowledged. */
  async produced(count: number, timeoutMs = 60_000): Promise<void> {
    const target = this.ackCount() + count;
    await waitFor(
      `${String(count)} more acknowledged records`,
      this.healthy(() => this.ackCount() >= target),
      timeoutMs,
    );
  }

  /**
   * Waits until every partition of `partitions` acknowledged a record sent after `since`; resolves with the time from
   * `since` to the last of those first acknowledgements.
   */
  async movedWithin(partitions: readonly number[], since: number, timeoutMs = 60_000): Promise<number> {
    const firstAck = (partition: number): Ack | undefined =>
      acksOf(this.#producers!.lines).find((ack) => ack.partition === partition && ack.sentAt > since);
    await waitFor(
      "every moved partition to acknowledge a record sent after the move",
      this.healthy(() => partitions.every((partition) => firstAck(partition) !== undefined)),
      timeoutMs,
    );
    return Math.max(since, ...partitions.map((partition) => firstAck(partition)!.ackedAt)) - since;
  }

  /** Stops the producers, lets the group catch up, stops it and checks the log (see the module comment). */
  async finish(): Promise<RunSummary> {
    const producers = this.#producers!;
    const group = this.#group!;
    writeFileSync(path.join(this.#stops, "producers"), "");
    expect(await producers.exited).toBe(0);
    expect(failuresOf(producers)).toEqual([]);
    expect(producers.lines.at(-1)).toBe("DONE");
    const acks = acksOf(producers.lines);
    const consumed = (): string[] =>
      group.lines.filter((line) => line.startsWith("REC ")).map((line) => line.split(" ")[4] ?? "");
    try {
      await waitFor(
        "the group to consume every acknowledged record",
        this.healthy(() => {
          const seen = new Set(consumed());
          return acks.every((ack) => seen.has(ack.value));
        }),
        90_000,
      );
    } finally {
      writeFileSync(path.join(this.#stops, "group"), "");
    }
    expect(await group.exited).toBe(0);
    expect(failuresOf(group)).toEqual([]);

    const bootstraps = this.#nodes.map((node) => node.bootstrap).join(",");
    const read = await runCommand(
      "kcat",
      ["-b", bootstraps, "-C", "-t", this.topic, "-o", "beginning", "-e", "-q", "-f", "%p %o %s\n"],
      { timeoutMs: 60_000 },
    );
    expect(read.code).toBe(0);
    const positions = new Map<string, string[]>();
    for (const line of read.stdout.toString("utf8").split("\n")) {
      const [partition, offset, value] = line.split(" ");
      if (value !== undefined) positions.set(value, [...(positions.get(value) ?? []), `${partition!} ${offset!}`]);
    }
    expect(
      acks.filter((ack) => positions.get(ack.value)?.join() !== `${String(ack.partition)} ${String(ack.offset)}`),
    ).toEqual([]);
    const acknowledged = new Set(acks.map((ack) => ack.value));
    // Every send succeeded, so a stored record nobody saw acknowledged would be a record stored twice or invented.
    expect([...positions.keys()].filter((value) => !acknowledged.has(value))).toEqual([]);
    return { acknowledged: acks.length, redelivered: consumed().length - new Set(consumed()).size };
  }

  /** Kills every client and broker this run started. */
  async dispose(): Promise<void> {
    this.#producers?.child.kill("SIGKILL");
    this.#group?.child.kill("SIGKILL");
    await this.#admin.disconnect().catch(() => undefined);
    for (const broker of this.#processes) await broker.stop("SIGKILL");
  }

  async #createTopic(partitions: number): Promise<void> {
    await this.#admin.connect();
    const brokerCount = (): Promise<number> =>
      this.#admin.describeCluster().then(
        (described) => described.brokers.length,
        () => 0,
      );
    for (let attempt = 0; (await brokerCount()) < 3; attempt += 1) {
      if (attempt > 100) throw new Error("the brokers did not see each other");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await this.#admin.createTopics({ topics: [{ topic: this.topic, numPartitions: partitions }] })).toBe(true);
  }
}
