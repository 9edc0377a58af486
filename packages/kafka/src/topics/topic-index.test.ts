import {
  GenerationZeroVisibleCoordinator,
  type OperationOptions,
  type ScanOptions,
  type ScanPage,
  StableHeadCoordinator,
  type StreamStore,
  createStreamStore,
} from "@nereus/core";
import { InMemoryMetadataStore, MemoryWalProvider } from "@nereus/core/testing";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { SILENT_LOGGER } from "../logging/broker-logger.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import type { KafkaTopic } from "./kafka-topic.js";
import { topicRecordCodec } from "./topic-record-codec.js";
import { TopicRegistry, type TopicRegistryOptions, type TopicSpec } from "./topic-registry.js";

/** The in-memory store, counting the scans it serves (a listing of the topics is a scan). */
class CountingMetadataStore extends InMemoryMetadataStore {
  scans = 0;

  override scan(prefix: string, options: ScanOptions): Promise<ScanPage> {
    this.scans += 1;
    return super.scan(prefix, options);
  }
}

const CLUSTER = "index";
let metadata: CountingMetadataStore;
let store: StreamStore;

beforeEach(() => {
  metadata = new CountingMetadataStore();
  const wal = new MemoryWalProvider({ walKind: "OBJECT" });
  store = createStreamStore({
    metadata,
    cluster: CLUSTER,
    writerId: "w",
    walWriters: [wal],
    walReaders: [wal],
    completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator()],
  });
});
afterEach(() => store.close());

/** One broker process's registry over the shared stores. */
const registry = (options: Partial<TopicRegistryOptions> = {}): TopicRegistry =>
  new TopicRegistry({ store, metadata, cluster: CLUSTER, logger: SILENT_LOGGER, ...options });
const spec = (name: string, partitionCount = 1): TopicSpec => ({
  name,
  partitionCount,
  profile: "OBJECT_WAL_SYNC_OBJECT",
  configs: {},
});

async function created(from: TopicRegistry, name: string, partitionCount = 1): Promise<KafkaTopic> {
  const outcome = await from.create(spec(name, partitionCount));
  if (!outcome.ok) throw new Error(`${name} not created: ${outcome.message}`);
  return outcome.topic;
}

/** A topic record as a broker without the index wrote it: the record alone, no claim or id key. */
async function legacyTopic(name: string, topicId: string): Promise<KafkaTopic> {
  const probe = registry();
  const topic: KafkaTopic = {
    name,
    topicId,
    state: "ACTIVE",
    partitionCount: 1,
    profile: "OBJECT_WAL_SYNC_OBJECT",
    configs: {},
    createdAtMillis: 1,
  };
  await metadata.txn({
    compares: [],
    writes: [
      { type: "put", key: probe.keyspace.topicKey(name), value: topicRecordCodec(probe.keyspace).encode(topic) },
    ],
  });
  return topic;
}

const get = (key: string, options?: OperationOptions) => metadata.get(key, options);

describe("TopicRegistry's topic index", () => {
  test("creating topics and finding them by id lists no topics once the index is complete", async () => {
    const broker = registry();
    for (let index = 0; index < 20; index += 1) await created(broker, `warm-${String(index)}`);
    metadata.scans = 0;
    const topics: KafkaTopic[] = [];
    for (let index = 0; index < 20; index += 1) topics.push(await created(broker, `late-${String(index)}`));
    const other = registry();
    for (const topic of topics) expect(await other.lookupById(topic.topicId)).toEqual(topic);
    expect(await other.lookupById("11111111-1111-4111-8111-111111111111")).toBeUndefined();
    expect(metadata.scans).toBe(0);
  });

  test("two brokers on one store: a name colliding with the other's topic is refused, and of two racing colliding names one is created", async () => {
    const first = registry();
    const second = registry();
    await created(first, "a.b");
    expect(await second.create(spec("a_b"))).toMatchObject({
      ok: false,
      reason: "collision",
      message: "Topic 'a_b' collides with existing topic: a.b",
    });
    const race = await Promise.all([
      first.create(spec("x.y")),
      second.create(spec("x_y")),
      first.create(spec("x_y")),
      second.create(spec("x.y")),
    ]);
    expect(race.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(
      race.filter((outcome) => !outcome.ok && (outcome.reason === "collision" || outcome.reason === "exists")),
    ).toHaveLength(3);
  });

  test("deleting a topic releases its claim and id: the colliding name can be created and the old id is unknown", async () => {
    const broker = registry();
    const dotted = await created(broker, "c.d");
    expect(await broker.delete("c.d")).toMatchObject({ ok: true });
    expect(await get(broker.keyspace.topicClaimKey("c.d"))).toBeUndefined();
    expect(await get(broker.keyspace.topicIdKey(dotted.topicId))).toBeUndefined();
    expect(await registry().lookupById(dotted.topicId)).toBeUndefined();
    const underscored = await created(broker, "c_d");
    expect(await registry().lookupById(underscored.topicId)).toEqual(underscored);
  });

  test("topics from before the index get their keys from a backfill, once per cluster", async () => {
    const legacy = await legacyTopic("old.one", "0f6b2c1e-3d4a-4b5c-8d9e-a0b1c2d3e4f5");
    await legacyTopic("old.two", "1f6b2c1e-3d4a-4b5c-8d9e-a0b1c2d3e4f5");
    const broker = registry();
    expect(await broker.lookupById(legacy.topicId)).toEqual(legacy);
    expect(await broker.create(spec("old_one"))).toMatchObject({
      ok: false,
      reason: "collision",
      message: "Topic 'old_one' collides with existing topic: old.one",
    });
    expect(await get(broker.keyspace.topicIndexKey())).toBeDefined();
    metadata.scans = 0;
    const restarted = registry();
    expect(await restarted.create(spec("old_two"))).toMatchObject({ ok: false, reason: "collision" });
    await created(restarted, "new.one");
    expect(metadata.scans).toBe(0);
  });

  test("of two colliding topics from before the index, one keeps the claim; deleting either leaves the right claim", async () => {
    await legacyTopic("dup.a", "0f6b2c1e-3d4a-4b5c-8d9e-a0b1c2d3e4f5");
    await legacyTopic("dup_a", "1f6b2c1e-3d4a-4b5c-8d9e-a0b1c2d3e4f5");
    const broker = registry();
    expect(await broker.create(spec("dup-b"))).toMatchObject({ ok: true });
    const claim = await get(broker.keyspace.topicClaimKey("dup.a"));
    expect(claim).toBeDefined();
    // "dup.a" sorts first, so it holds the claim; deleting "dup_a" leaves it.
    expect(await broker.delete("dup_a")).toMatchObject({ ok: true });
    expect((await get(broker.keyspace.topicClaimKey("dup.a")))?.modRevision).toBe(claim?.modRevision);
    expect(await broker.create(spec("dup_a"))).toMatchObject({ ok: false, reason: "collision" });
    expect(await broker.delete("dup.a")).toMatchObject({ ok: true });
    expect(await get(broker.keyspace.topicClaimKey("dup.a"))).toBeUndefined();
    expect(await broker.create(spec("dup_a"))).toMatchObject({ ok: true });
  });

  test("a claim whose topic record is gone does not block the name", async () => {
    const broker = registry();
    const ghost = await created(broker, "ghost.x");
    // Remove the record alone, as no registry does: the claim and id keys stay behind.
    await metadata.txn({ compares: [], writes: [{ type: "delete", key: broker.keyspace.topicKey("ghost.x") }] });
    const fresh = registry();
    const outcome = await fresh.create(spec("ghost_x"));
    expect(outcome).toMatchObject({ ok: true });
    expect(await fresh.lookupById(ghost.topicId)).toBeUndefined();
  });

  test("a partition limit refuses creations and added partitions above it, and counts deletions", async () => {
    const broker = registry({ maxPartitions: 5 });
    await created(broker, "three", 3);
    expect(await broker.create(spec("three-more", 3))).toMatchObject({ ok: false, reason: "partition-limit" });
    const racing = await Promise.all([
      broker.create(spec("one-a")),
      broker.create(spec("one-b")),
      broker.create(spec("one-c")),
    ]);
    expect(racing.filter((outcome) => outcome.ok)).toHaveLength(2);
    expect(await broker.addPartitions("three", 4, () => undefined)).toMatchObject({
      ok: false,
      errorCode: KafkaErrorCode.POLICY_VIOLATION,
    });
    await broker.delete("one-a");
    expect(await broker.addPartitions("three", 4, () => undefined)).toMatchObject({ ok: true });
    // A second process counts what exists with one listing.
    expect(await registry({ maxPartitions: 5 }).create(spec("one-d"))).toMatchObject({
      ok: false,
      reason: "partition-limit",
    });
    expect(await registry({ maxPartitions: 6 }).create(spec("one-d"))).toMatchObject({ ok: true });
  });
});
