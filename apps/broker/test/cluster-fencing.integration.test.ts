// A broker cut off from etcd (its etcd connection runs through a loopback TCP proxy that the test blackholes) in a
// three-broker cluster (in this process, etcd + s3proxy, lease TTL 3 s). Produce requests go to it without pause
// before, during and until the end of the cut; once its lease is gone another broker takes its partitions and
// acknowledges records of its own. Then the proxy heals: requests the cut-off broker sent to etcd during the cut
// arrive late. Reading every partition back: each acknowledged record is there exactly once, and no record sent to
// the cut-off broker after the cut began is there at all (it could never be acknowledged, so it must not appear).
import { randomBytes } from "node:crypto";
import { loadServices } from "@nereus/test-services";
import { Kafka, logLevel } from "kafkajs";
import { protocol } from "@nereus/kafka";
import { afterEach, describe, expect, test } from "vitest";
import { type InProcessBroker, startInProcess, testConfig } from "./support/broker-fixture.js";
import { RawKafkaClient } from "./support/raw-kafka-client.js";
import { runCommand } from "./support/run-command.js";
import { TcpProxy } from "./support/tcp-proxy.js";

const PARTITIONS = 12;
const LEASE_TTL_MS = 3_000;
const REQUEST_TIMEOUT_MS = 5_000;
const CUT_OFF = 1;

const running: InProcessBroker[] = [];
const proxies: TcpProxy[] = [];

afterEach(async () => {
  for (const proxy of proxies.splice(0)) proxy.heal();
  for (const broker of running.splice(0)) await broker.broker.close("test finished");
  for (const proxy of proxies.splice(0)) await proxy.close();
});

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** One broker's view: the live brokers and each partition's leader. */
async function metadataOf(bootstrap: string, topic: string): Promise<{ brokers: number[]; leaders: number[] }> {
  const client = await RawKafkaClient.connect(bootstrap);
  try {
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
    };
  } finally {
    await client.close();
  }
}

/** A produced value and what became of it. */
interface Sent {
  readonly value: string;
  readonly sentAt: number;
  outcome: "acknowledged" | "refused" | "unanswered";
}

/**
 * Sends one record per partition per request to `bootstrap` until `stop()`, each value unique; a request without
 * an answer within the timeout leaves its records unanswered (and the connection is replaced).
 */
function produceLoop(
  bootstrap: string,
  topic: string,
  partitions: readonly number[],
  prefix: string,
): { sent: Sent[]; stop: () => Promise<void> } {
  const sent: Sent[] = [];
  let stopped = false;
  const running = (async () => {
    let client: RawKafkaClient | undefined;
    for (let sequence = 0; !stopped; sequence += 1) {
      client ??= await RawKafkaClient.connect(bootstrap);
      const records = partitions.map((partition) => ({
        value: `${prefix}-${String(sequence)}-${String(partition)}`,
        sentAt: Date.now(),
        outcome: "unanswered" as Sent["outcome"],
      }));
      sent.push(...records);
      const answer = await withTimeout(
        client.request(0, 9, {
          transactionalId: null,
          acks: -1,
          timeoutMs: 2_000,
          topicData: [
            {
              name: topic,
              partitionData: partitions.map((index, position) => ({
                index,
                records: protocol.encodeRecordBatch({
                  baseTimestamp: Date.now(),
                  records: [{ value: utf8(records[position]!.value) }],
                }),
              })),
            },
          ],
        }),
        REQUEST_TIMEOUT_MS,
      );
      if (answer === "timeout") {
        void client.close().catch(() => undefined);
        client = undefined;
        continue;
      }
      for (const response of answer.responses[0]?.partitionResponses ?? []) {
        const record = records[partitions.indexOf(response.index)];
        if (record !== undefined) record.outcome = response.errorCode === 0 ? "acknowledged" : "refused";
      }
      if (records.some((record) => record.outcome !== "acknowledged"))
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client?.close().catch(() => undefined);
  })();
  return {
    sent,
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}

const acknowledged = (sent: readonly Sent[]): number =>
  sent.filter((record) => record.outcome === "acknowledged").length;

describe("a broker partitioned from etcd", () => {
  test("cannot append once its lease is gone: nothing it wrote after the cut becomes visible", async () => {
    const services = loadServices();
    const proxy = await TcpProxy.start(services.etcd.endpoint);
    proxies.push(proxy);
    const cluster = `p${randomBytes(5).toString("hex")}`;
    for (const nodeId of [1, 2, 3]) {
      const etcd =
        nodeId === CUT_OFF
          ? {
              storage: {
                metadata: {
                  kind: "etcd" as const,
                  endpoints: [`http://127.0.0.1:${String(proxy.port)}`],
                  requestTimeoutMs: 1_500,
                },
              },
            }
          : {};
      running.push(
        await startInProcess(
          testConfig("cluster", {
            cluster,
            overrides: { nodeId, membership: { enabled: true, leaseTtlMs: LEASE_TTL_MS }, ...etcd },
          }),
        ),
      );
    }
    const bootstrapOf = (nodeId: number): string => running[nodeId - 1]!.bootstrap;
    const admin = new Kafka({ clientId: "fencing", brokers: [bootstrapOf(2)], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    // A topic with at least one partition led by the broker that will be cut off.
    let topic = "";
    let owned: number[] = [];
    for (let attempt = 0; owned.length === 0; attempt += 1) {
      if (attempt === 4) throw new Error("the cut-off broker leads no partition of four topics");
      topic = `fenced-${randomBytes(4).toString("hex")}`;
      expect(await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS }] })).toBe(true);
      const leaders = await waitFor("every broker to see three live brokers", async () => {
        const views = await Promise.all([1, 2, 3].map((nodeId) => metadataOf(bootstrapOf(nodeId), topic)));
        return views.every((view) => view.brokers.length === 3) ? views[0]!.leaders : undefined;
      });
      owned = leaders.flatMap((leader, partition) => (leader === CUT_OFF ? [partition] : []));
    }
    await admin.disconnect();

    const toCutOff = produceLoop(bootstrapOf(CUT_OFF), topic, owned, "a");
    let cutAt = Number.POSITIVE_INFINITY;
    let takeover: { sent: Sent[]; stop: () => Promise<void> } | undefined;
    try {
      await waitFor("records acknowledged by the owner before the cut", async () =>
        acknowledged(toCutOff.sent) >= 20 * owned.length ? true : undefined,
      );
      cutAt = Date.now();
      proxy.blackhole();

      // The survivors see the lease go and take the partitions over.
      const leaders = await waitFor("the survivors to lead the cut-off broker's partitions", async () => {
        const view = await metadataOf(bootstrapOf(2), topic);
        return view.brokers.includes(CUT_OFF) ? undefined : view.leaders;
      });
      const takenOverAt = Date.now();
      const successor = leaders[owned[0]!]!;
      const moved = owned.filter((partition) => leaders[partition] === successor);
      takeover = produceLoop(bootstrapOf(successor), topic, moved, "b");
      await waitFor("records acknowledged by the successor", async () =>
        acknowledged(takeover!.sent) >= 20 * moved.length ? true : undefined,
      );
      // The request in flight at the cut can outlive the whole takeover (it times out after REQUEST_TIMEOUT_MS):
      // keep producing to the cut-off broker until it has been sent requests made well after the cut.
      await waitFor("a request to the cut-off broker made a request timeout after the cut", async () =>
        toCutOff.sent.some((record) => record.sentAt >= cutAt + REQUEST_TIMEOUT_MS) ? true : undefined,
      );
      console.log(
        `fencing: the survivors led the partitions ${String(takenOverAt - cutAt)} ms after the cut ` +
          `(lease TTL ${String(LEASE_TTL_MS)} ms)`,
      );
    } finally {
      await takeover?.stop();
      await toCutOff.stop();
    }
    expect(toCutOff.sent.filter((record) => record.sentAt >= cutAt && record.outcome === "acknowledged")).toEqual([]);

    // Heal: the cut-off broker's requests held during the cut reach etcd now; it registers again.
    proxy.heal();
    await waitFor(
      "the healed broker to be live again",
      async () => ((await metadataOf(bootstrapOf(2), topic)).brokers.length === 3 ? true : undefined),
      60_000,
    );
    const kafka = new Kafka({
      clientId: "fencing-after",
      brokers: [1, 2, 3].map(bootstrapOf),
      logLevel: logLevel.NOTHING,
      retry: { retries: 30, initialRetryTime: 100, maxRetryTime: 500 },
    });
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    const healed = owned.map((partition) => `c-${String(partition)}`);
    for (const [index, partition] of owned.entries())
      await producer.send({ topic, acks: -1, messages: [{ partition, value: healed[index]! }] });
    await producer.disconnect();

    const consumed = await runCommand(
      "kcat",
      ["-b", bootstrapOf(2), "-C", "-t", topic, "-o", "beginning", "-e", "-q", "-f", "%s\n"],
      { timeoutMs: 60_000 },
    );
    expect(consumed.code).toBe(0);
    const counts = new Map<string, number>();
    for (const value of consumed.stdout.toString("utf8").split("\n"))
      if (value.length > 0) counts.set(value, (counts.get(value) ?? 0) + 1);

    const all = [...toCutOff.sent, ...(takeover?.sent ?? [])];
    const wanted = [
      ...all.filter((record) => record.outcome === "acknowledged").map((record) => record.value),
      ...healed,
    ];
    expect(wanted.filter((value) => counts.get(value) !== 1)).toEqual([]);
    const fenced = toCutOff.sent.filter((record) => record.sentAt >= cutAt);
    expect(fenced.length).toBeGreaterThan(0);
    expect(fenced.filter((record) => counts.has(record.value)).map((record) => record.value)).toEqual([]);
    // Records in flight at the cut may or may not have been stored, but never twice; nothing else is there.
    const known = new Set([...all.map((record) => record.value), ...healed]);
    expect([...counts.keys()].filter((value) => !known.has(value))).toEqual([]);
    expect([...counts.entries()].filter(([, count]) => count > 1)).toEqual([]);
    console.log(
      `fencing: ${String(acknowledged(toCutOff.sent))} records acknowledged by the owner before the cut, ` +
        `${String(fenced.length)} sent to it after the cut (none visible), ` +
        `${String(acknowledged(takeover?.sent ?? []))} acknowledged by the successor`,
    );
  }, 150_000);
});
