import {
  GenerationZeroVisibleCoordinator,
  StableHeadCoordinator,
  createStreamStore,
  streamIdFromName,
  type StreamStore,
} from "@nereus/core";
import { InMemoryMetadataStore, MemoryWalProvider } from "@nereus/core/testing";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { SILENT_LOGGER } from "../logging/broker-logger.js";
import { partitionStreamName } from "./kafka-topic.js";
import { topicRecordCodec } from "./topic-record-codec.js";
import { TopicRegistry, type TopicSpec } from "./topic-registry.js";

let metadata: InMemoryMetadataStore;
let store: StreamStore;
let registry: TopicRegistry;

beforeEach(() => {
  metadata = new InMemoryMetadataStore();
  const wal = new MemoryWalProvider({ walKind: "OBJECT" });
  store = createStreamStore({
    metadata,
    cluster: "registry",
    writerId: "w",
    walWriters: [wal],
    walReaders: [wal],
    completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator()],
  });
  registry = new TopicRegistry({ store, metadata, cluster: "registry", logger: SILENT_LOGGER, clock: () => 1_000 });
});
afterEach(() => store.close());

const spec = (name: string, partitionCount = 2): TopicSpec => ({
  name,
  partitionCount,
  profile: "OBJECT_WAL_SYNC_OBJECT",
  configs: { "retention.ms": "1000" },
});
const streamOf = (topicId: string, partition: number): string =>
  streamIdFromName(partitionStreamName(topicId, partition));

describe("TopicRegistry", () => {
  test("creates the record and one stream per partition with the topic's profile and identity attributes", async () => {
    const outcome = await registry.create(spec("orders", 3));
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.topic).toMatchObject({
      name: "orders",
      state: "ACTIVE",
      partitionCount: 3,
      profile: "OBJECT_WAL_SYNC_OBJECT",
      configs: { "retention.ms": "1000" },
      createdAtMillis: 1_000,
    });
    for (let partition = 0; partition < 3; partition += 1) {
      const head = await store.getHead(streamOf(outcome.topic.topicId, partition));
      expect(head).toMatchObject({ state: "ACTIVE", profile: "OBJECT_WAL_SYNC_OBJECT" });
      expect(head.attributes).toEqual({
        "kafka.partition": String(partition),
        "kafka.topic": "orders",
        "kafka.topic.id": outcome.topic.topicId,
      });
    }
    // A second process sees it through the store.
    const other = new TopicRegistry({ store, metadata, cluster: "registry", logger: SILENT_LOGGER });
    expect(await other.lookup("orders")).toEqual(outcome.topic);
    expect(await other.lookupById(outcome.topic.topicId)).toEqual(outcome.topic);
    expect((await other.list()).map((topic) => topic.name)).toEqual(["orders"]);
  });

  test("refuses existing names and names that collide by '.' versus '_'", async () => {
    await registry.create(spec("a.b"));
    expect(await registry.create(spec("a.b"))).toMatchObject({ ok: false, reason: "exists" });
    expect(await registry.create(spec("a_b"))).toMatchObject({
      ok: false,
      reason: "collision",
      message: "Topic 'a_b' collides with existing topic: a.b",
    });
  });

  test("concurrent creations of one name create it once", async () => {
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => registry.create(spec("race"))));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "exists")).toHaveLength(4);
  });

  test("a profile this runtime cannot run is refused and leaves nothing behind", async () => {
    const outcome = await registry.create({ ...spec("bk"), profile: "BOOKKEEPER_WAL_ONLY" });
    expect(outcome).toMatchObject({ ok: false, reason: "unsupported-profile" });
    expect(await registry.lookup("bk")).toBeUndefined();
    expect(await metadata.get(registry.keyspace.topicKey("bk"))).toBeUndefined();
  });

  test("delete removes the streams, the checkpoints and the record; the name can be created again with a new id", async () => {
    const created = await registry.create(spec("gone", 2));
    if (!created.ok) throw new Error("not created");
    const deleted: string[] = [];
    registry.onDeleted((topic) => deleted.push(topic.name));
    await metadata.txn({
      compares: [],
      writes: [
        {
          type: "put",
          key: registry.keyspace.producerStateKey(streamOf(created.topic.topicId, 0)),
          value: new Uint8Array([1]),
        },
      ],
    });
    expect(await registry.delete("gone")).toMatchObject({ ok: true });
    expect(deleted).toEqual(["gone"]);
    for (let partition = 0; partition < 2; partition += 1)
      expect((await store.getHead(streamOf(created.topic.topicId, partition))).state).toBe("DELETED");
    expect(await metadata.get(registry.keyspace.producerStateKey(streamOf(created.topic.topicId, 0)))).toBeUndefined();
    expect(await registry.lookup("gone")).toBeUndefined();
    expect(await registry.delete("gone")).toEqual({ ok: false, reason: "unknown" });
    const again = await registry.create(spec("gone", 1));
    expect(again.ok && again.topic.topicId !== created.topic.topicId).toBe(true);
  });

  test("a creation or deletion interrupted by a crash is finished by the next lookup", async () => {
    const codec = topicRecordCodec(registry.keyspace);
    const halfCreated = {
      name: "half",
      topicId: "11111111-2222-4333-8444-555555555555",
      state: "CREATING" as const,
      partitionCount: 2,
      profile: "OBJECT_WAL_SYNC_OBJECT" as const,
      configs: {},
      createdAtMillis: 5,
    };
    await metadata.txn({
      compares: [],
      writes: [{ type: "put", key: registry.keyspace.topicKey("half"), value: codec.encode(halfCreated) }],
    });
    expect(await registry.lookup("half")).toMatchObject({
      name: "half",
      state: "ACTIVE",
      topicId: halfCreated.topicId,
    });
    expect((await store.getHead(streamOf(halfCreated.topicId, 1))).state).toBe("ACTIVE");

    const created = await registry.create(spec("doomed", 1));
    if (!created.ok) throw new Error("not created");
    const marked = { ...created.topic, state: "DELETING" as const };
    await metadata.txn({
      compares: [],
      writes: [{ type: "put", key: registry.keyspace.topicKey("doomed"), value: codec.encode(marked) }],
    });
    const fresh = new TopicRegistry({ store, metadata, cluster: "registry", logger: SILENT_LOGGER });
    expect(await fresh.lookup("doomed")).toBeUndefined();
    // Creating the name again waits for the resumed deletion, then succeeds.
    expect(await fresh.create(spec("doomed"))).toMatchObject({ ok: true });
    expect((await store.getHead(streamOf(created.topic.topicId, 0))).state).toBe("DELETED");
  });
});
