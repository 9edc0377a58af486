// The read-only admin API (/admin/v1) of a real broker after real clients: kcat writes a known number of records to
// each partition of a 3-partition topic, a kafkajs group reads and commits them, kcat writes more. The API's end
// offsets and committed offsets must equal what kafkajs' admin client reads over the Kafka protocol, its lag their
// difference, and /metrics must carry the same lag per partition. On the embedded default and on etcd + s3proxy.
import { type Admin, Kafka, logLevel } from "kafkajs";
import { afterEach, describe, expect, test } from "vitest";
import type { BrokerView, GroupDetail, GroupList, TopicDetail, TopicList } from "../src/admin/admin-views.js";
import { MORE_RECORDS, TOTAL_LAG, type Scenario, kcatProducer, seedTopicAndGroup } from "./admin-scenario.js";
import { type InProcessBroker, type StorageKind, startInProcess, testConfig } from "./support/broker-fixture.js";
import { readExposition } from "./support/prometheus-text.js";

const running: InProcessBroker[] = [];
const admins: Admin[] = [];

afterEach(async () => {
  for (const admin of admins.splice(0)) await admin.disconnect().catch(() => undefined);
  for (const broker of running.splice(0)) await broker.broker.close("test finished");
});

function kafkaOf(broker: InProcessBroker): Kafka {
  return new Kafka({
    clientId: "admin-api-test",
    brokers: [broker.bootstrap],
    logLevel: logLevel.NOTHING,
    retry: { retries: 10, initialRetryTime: 100, maxRetryTime: 1_000 },
  });
}

async function getJson<T>(broker: InProcessBroker, path: string, status = 200): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${String(broker.broker.adminPort)}${path}`);
  expect(response.status, path).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return (await response.json()) as T;
}

async function seeded(
  kind: StorageKind,
  overrides = {},
): Promise<{ broker: InProcessBroker; kafka: Kafka; scenario: Scenario }> {
  const broker = await startInProcess(testConfig(kind, { overrides }));
  running.push(broker);
  const kafka = kafkaOf(broker);
  const scenario = await seedTopicAndGroup(kafka, kcatProducer(broker.bootstrap), "api");
  return { broker, kafka, scenario };
}

describe.each<StorageKind>(["embedded", "cluster"])("the admin API on the %s storage", (kind) => {
  test("brokers, topics and groups agree with what kafkajs reads over the Kafka protocol; /metrics has the lag", async () => {
    const { broker, kafka, scenario } = await seeded(kind);
    const { topic, group } = scenario;
    const admin = kafka.admin();
    admins.push(admin);
    await admin.connect();
    const kafkaEnds = (await admin.fetchTopicOffsets(topic)).sort((left, right) => left.partition - right.partition);
    expect(kafkaEnds.map((offset) => Number(offset.high))).toEqual(scenario.endOffsets);
    const [kafkaCommitted] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
    const committed = [...(kafkaCommitted?.partitions ?? [])].sort((left, right) => left.partition - right.partition);
    expect(committed.map((partition) => Number(partition.offset))).toEqual(scenario.committedOffsets);

    const { brokers } = await getJson<{ brokers: BrokerView[] }>(broker, "/admin/v1/brokers");
    expect(brokers).toHaveLength(1);
    expect(brokers[0]).toMatchObject({
      nodeId: 0,
      serving: true,
      storage: {
        metadata: kind === "embedded" ? "sqlite" : "etcd",
        objects: kind === "embedded" ? "filesystem" : "s3",
        writable: true,
      },
    });
    expect(brokers[0]?.version).toMatch(/^\d+\.\d+\.\d+/);
    const pulsarPort = broker.broker.pulsarPort;
    expect(brokers[0]?.listeners.map((listener) => [listener.name, listener.port, listener.advertised])).toEqual([
      ["kafka", broker.broker.kafkaPort, broker.bootstrap],
      ...(pulsarPort === undefined ? [] : [["pulsar", pulsarPort, `pulsar://127.0.0.1:${String(pulsarPort)}`]]),
      ["admin", broker.broker.adminPort, `127.0.0.1:${String(broker.broker.adminPort)}`],
    ]);

    const list = await getJson<TopicList>(broker, "/admin/v1/topics");
    const listed = list.topics.find((candidate) => candidate.name === topic);
    expect(list.next).toBeNull();
    expect(listed?.partitions.map((partition) => [partition.startOffset, partition.endOffset])).toEqual(
      scenario.endOffsets.map((end) => [0, end]),
    );
    expect(listed?.records).toBe(scenario.endOffsets.reduce((sum, end) => sum + end, 0));
    expect(listed?.appendedBytes).toBeGreaterThan(0);

    const detail = await getJson<TopicDetail>(broker, `/admin/v1/topics/${encodeURIComponent(topic)}`);
    expect(detail.partitionCount).toBe(3);
    for (const partition of detail.partitions) {
      expect(partition.state).toBe("ACTIVE");
      expect(partition.profile).toBe("OBJECT_WAL_SYNC_OBJECT");
      expect(partition.streamId).toMatch(/^s-[a-z2-7]{52}$/);
      const storage = partition.storage!;
      // kcat's acks=all batches: at least one commit per write round that had records for the partition.
      const rounds = 1 + (MORE_RECORDS[partition.partition]! > 0 ? 1 : 0);
      expect(storage.commits).toBeGreaterThanOrEqual(rounds);
      expect(storage.wal.ranges).toBeGreaterThanOrEqual(rounds);
      expect(storage.wal.objects).toBeGreaterThanOrEqual(1);
      expect(storage.wal.bytes).toBeGreaterThan(0);
      expect(storage.truncated).toBe(false);
      expect(storage.writer?.writerId).toBe("broker-0");
      // Materialization: "async" on the filesystem store (only OBJECT_WAL_ASYNC_OBJECT topics), "all" on S3.
      if (kind === "embedded") expect(storage.materialization).toBeNull();
      else expect(storage.materialization?.materializedEnd).toBeLessThanOrEqual(partition.endOffset!);
    }

    const groups = await getJson<GroupList>(broker, "/admin/v1/groups");
    expect(groups.omittedPartitions).toBe(0);
    expect(groups.groups.find((candidate) => candidate.groupId === group)).toEqual({
      groupId: group,
      state: "Empty",
      protocolType: "consumer",
      members: 0,
      partitions: 3,
      lag: TOTAL_LAG,
    });
    const described = await getJson<GroupDetail>(broker, `/admin/v1/groups/${encodeURIComponent(group)}`);
    expect(described.memberList).toEqual([]);
    expect(
      described.offsets.map((offset) => [
        offset.topic,
        offset.partition,
        offset.committedOffset,
        offset.endOffset,
        offset.lag,
      ]),
    ).toEqual(
      committed.map((partition) => [
        topic,
        partition.partition,
        Number(partition.offset),
        Number(kafkaEnds[partition.partition]?.high),
        Number(kafkaEnds[partition.partition]?.high) - Number(partition.offset),
      ]),
    );

    const exposition = readExposition(
      await (await fetch(`http://127.0.0.1:${String(broker.broker.adminPort)}/metrics`)).text(),
    );
    expect(exposition.problems).toEqual([]);
    const lagSamples = exposition.samples
      .filter((sample) => sample.name === "nereus_kafka_consumer_group_lag" && sample.labels.group === group)
      .map((sample) => [sample.labels.topic, sample.labels.partition, sample.value]);
    expect(lagSamples.sort()).toEqual(MORE_RECORDS.map((lag, partition) => [topic, String(partition), lag]).sort());
    expect(exposition.samples.find((sample) => sample.name === "nereus_kafka_consumer_group_lag_omitted")?.value).toBe(
      0,
    );
  });
});

describe("the admin API on generations", () => {
  test("a materialized topic shows its generations and the backlog drained to 0", async () => {
    const { broker, scenario } = await seeded("embedded", { storage: { materialization: "all" } });
    const path = `/admin/v1/topics/${encodeURIComponent(scenario.topic)}`;
    const deadline = Date.now() + 60_000;
    let detail = await getJson<TopicDetail>(broker, path);
    const drained = (candidate: TopicDetail): boolean =>
      candidate.partitions.every(
        (partition) =>
          partition.storage?.materialization?.backlogRecords === 0 && partition.storage.generations.committed > 0,
      );
    while (!drained(detail)) {
      if (Date.now() > deadline) throw new Error(`not materialized within 60 s: ${JSON.stringify(detail.partitions)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      detail = await getJson<TopicDetail>(broker, path);
    }
    for (const partition of detail.partitions) {
      const storage = partition.storage!;
      expect(storage.materialization).toMatchObject({ materializedEnd: partition.endOffset, backlogBytes: 0 });
      expect(storage.generations.highestLevel).toBeGreaterThanOrEqual(1);
      expect(storage.generations.objects).toBeGreaterThanOrEqual(1);
      expect(storage.generations.bytes).toBeGreaterThan(0);
      expect(storage.generations.bytes).toBeLessThanOrEqual(partition.appendedBytes!);
    }
  });
});

describe("the admin API's answers to what it does not serve", () => {
  test("unknown names and paths are 404, writes 405, bad parameters 400 — each with an error body", async () => {
    const broker = await startInProcess(testConfig("embedded"));
    running.push(broker);
    const base = `http://127.0.0.1:${String(broker.broker.adminPort)}`;
    const index = await getJson<{ endpoints: string[] }>(broker, "/admin/v1");
    expect(index.endpoints).toContain("/admin/v1/topics/{name}");
    expect(await getJson(broker, "/admin/v1/topics/no-such-topic", 404)).toEqual({
      error: { status: 404, message: 'no topic "no-such-topic"' },
    });
    expect(await getJson(broker, "/admin/v1/groups/nobody", 404)).toMatchObject({ error: { status: 404 } });
    expect(await getJson(broker, "/admin/v1/streams", 404)).toMatchObject({ error: { status: 404 } });
    expect(await getJson(broker, "/admin/v1/topics/a/b", 404)).toMatchObject({ error: { status: 404 } });
    expect(await getJson(broker, "/admin/v1/topics?limit=0", 400)).toMatchObject({ error: { status: 400 } });
    expect(await getJson(broker, "/admin/v1/topics/%zz", 400)).toMatchObject({ error: { status: 400 } });
    const write = await fetch(`${base}/admin/v1/topics/x`, { method: "DELETE" });
    expect(write.status).toBe(405);
    expect(write.headers.get("allow")).toBe("GET, HEAD");
    const empty = await getJson<TopicList>(broker, "/admin/v1/topics?limit=1");
    expect(empty).toEqual({ topics: [], next: null });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  test("topic listings are pages in name order", async () => {
    const broker = await startInProcess(testConfig("embedded"));
    running.push(broker);
    const admin = kafkaOf(broker).admin();
    admins.push(admin);
    await admin.connect();
    await admin.createTopics({ topics: ["c", "a", "b"].map((topic) => ({ topic, numPartitions: 1 })) });
    const first = await getJson<TopicList>(broker, "/admin/v1/topics?limit=2");
    expect([first.topics.map((topic) => topic.name), first.next]).toEqual([["a", "b"], "b"]);
    const second = await getJson<TopicList>(broker, "/admin/v1/topics?limit=2&after=b");
    expect([second.topics.map((topic) => topic.name), second.next]).toEqual([["c"], null]);
  });
});
