// Topic incarnations over a real StreamStore on core's in-memory providers: create-or-get, concurrent creators,
// resumption of half-done transitions, deletion tombstones, new incarnations with new ledger ids, lost responses.
import { ErrorCode, type TxnRequest, streamIdFromName } from "@nereus/core";
import { expectNereusError } from "@nereus/core/testing";
import { afterEach, describe, expect, test } from "vitest";
import { LedgerHarness } from "../../test/ledger-harness.js";
import { type PulsarTopic, topicStreamName } from "./pulsar-topic.js";
import { topicRecordCodec } from "./topic-record-codec.js";
import { parseTopicName } from "./topic-name.js";

let harness: LedgerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const ORDERS = parseTopicName("orders");

function writesTopicRecord(request: unknown): boolean {
  return (request as TxnRequest).writes.some((write) => write.key.includes("/pulsar/topics/"));
}

describe("TopicRegistry", () => {
  test("createOrGet creates one ACTIVE incarnation with its stream, then returns it unchanged", async () => {
    harness = new LedgerHarness();
    const registry = harness.factory.topics;
    const created = await registry.createOrGet(ORDERS, "OBJECT_WAL_ASYNC_OBJECT");
    expect(created.created).toBe(true);
    expect(created.topic).toMatchObject({
      name: "persistent://public/default/orders",
      incarnation: 1,
      state: "ACTIVE",
      profile: "OBJECT_WAL_ASYNC_OBJECT",
      ledgerId: 2n ** 62n,
      createdAtMillis: harness.now,
    });
    expect((await harness.streams.getHead(created.topic.streamId)).profile).toBe("OBJECT_WAL_ASYNC_OBJECT");
    const again = await registry.createOrGet(ORDERS, "OBJECT_WAL_SYNC_OBJECT");
    expect(again).toEqual({ topic: created.topic, created: false });
    expect(await registry.get(ORDERS)).toEqual(created.topic);
    expect(await registry.get(parseTopicName("absent"))).toBeUndefined();
  });

  test("concurrent creators agree on one incarnation; every topic gets its own ledger id", async () => {
    harness = new LedgerHarness();
    const registry = harness.factory.topics;
    const results = await Promise.all(
      Array.from({ length: 5 }, () => registry.createOrGet(ORDERS, "OBJECT_WAL_SYNC_OBJECT")),
    );
    expect(new Set(results.map((result) => result.topic.ledgerId)).size).toBe(1);
    const others = await Promise.all(
      ["a", "b", "c"].map((name) => registry.createOrGet(parseTopicName(name), "OBJECT_WAL_SYNC_OBJECT")),
    );
    const ids = [results[0]!.topic.ledgerId, ...others.map((result) => result.topic.ledgerId)];
    expect(new Set(ids).size).toBe(4);
  });

  test("delete leaves a tombstone; creating again is incarnation + 1 on a new stream with a higher ledger id", async () => {
    harness = new LedgerHarness();
    const registry = harness.factory.topics;
    const first = (await registry.createOrGet(ORDERS, "OBJECT_WAL_SYNC_OBJECT")).topic;
    expect(await registry.delete(ORDERS)).toEqual({ ...first, state: "DELETED" });
    expect(await registry.delete(ORDERS)).toBeUndefined();
    expect(await registry.get(ORDERS)).toBeUndefined();
    expect((await harness.streams.getHead(first.streamId)).state).toBe("DELETED");
    const second = (await registry.createOrGet(ORDERS, "OBJECT_WAL_SYNC_OBJECT")).topic;
    expect(second.incarnation).toBe(2);
    expect(second.streamId).not.toBe(first.streamId);
    expect(second.ledgerId > first.ledgerId).toBe(true);
  });

  test("a creation or deletion interrupted after its first step is finished by the next caller", async () => {
    harness = new LedgerHarness();
    const registry = harness.factory.topics;
    const codec = topicRecordCodec(registry.keyspace);
    const key = registry.keyspace.topicKey(ORDERS);
    const halfCreated: PulsarTopic = {
      name: ORDERS.fullName,
      incarnation: 1,
      state: "CREATING",
      streamName: topicStreamName(ORDERS.fullName, 1),
      streamId: streamIdFromName(topicStreamName(ORDERS.fullName, 1)),
      ledgerId: 2n ** 62n + 100n,
      profile: "OBJECT_WAL_SYNC_OBJECT",
      createdAtMillis: 5,
    };
    await harness.metadata.txn({ compares: [], writes: [{ type: "put", key, value: codec.encode(halfCreated) }] });
    const finished = await registry.get(ORDERS);
    expect(finished).toEqual({ ...halfCreated, state: "ACTIVE" });
    const halfDeleted = { ...halfCreated, state: "DELETING" as const };
    const stored = await harness.metadata.get(key);
    await harness.metadata.txn({
      compares: [{ key, modRevision: stored!.modRevision }],
      writes: [{ type: "put", key, value: codec.encode(halfDeleted) }],
    });
    expect(await registry.get(ORDERS)).toBeUndefined();
    expect((await harness.streams.getHead(halfCreated.streamId)).state).toBe("DELETED");
    expect((await registry.createOrGet(ORDERS, "OBJECT_WAL_SYNC_OBJECT")).topic.incarnation).toBe(2);
  });

  test("lost responses of record writes are resolved by reading the record again", async () => {
    harness = new LedgerHarness();
    const registry = harness.factory.topics;
    harness.metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", when: writesTopicRecord, times: 2 });
    const created = await registry.createOrGet(ORDERS, "OBJECT_WAL_SYNC_OBJECT");
    expect(created.topic.state).toBe("ACTIVE");
    harness.metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", when: writesTopicRecord, times: 2 });
    expect(await registry.delete(ORDERS)).toEqual({ ...created.topic, state: "DELETED" });
    expect(await registry.get(ORDERS)).toBeUndefined();
  });

  test("a profile this runtime cannot run is refused, and the name stays free for another profile", async () => {
    harness = new LedgerHarness();
    const registry = harness.factory.topics;
    await expectNereusError(registry.createOrGet(ORDERS, "BOOKKEEPER_WAL_ONLY"), ErrorCode.UNSUPPORTED_STORAGE_PROFILE);
    expect(await registry.get(ORDERS)).toBeUndefined();
    const created = await registry.createOrGet(ORDERS, "OBJECT_WAL_SYNC_OBJECT");
    expect(created.topic).toMatchObject({ incarnation: 2, profile: "OBJECT_WAL_SYNC_OBJECT" });
  });

  test("list returns the ACTIVE topics of one namespace", async () => {
    harness = new LedgerHarness();
    const registry = harness.factory.topics;
    for (const name of ["a", "b", "acme/x/c", "persistent://public/default/d-partition-0"]) {
      await registry.createOrGet(parseTopicName(name), "OBJECT_WAL_SYNC_OBJECT");
    }
    await registry.delete(parseTopicName("b"));
    expect((await registry.list("public", "default")).map((topic) => topic.name)).toEqual([
      "persistent://public/default/a",
      "persistent://public/default/d-partition-0",
    ]);
    expect((await registry.list("acme", "x")).map((topic) => topic.name)).toEqual(["persistent://acme/x/c"]);
  });
});
