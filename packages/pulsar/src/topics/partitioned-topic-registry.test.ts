import { ErrorCode } from "@nereus/core";
import { InMemoryMetadataStore, expectNereusError } from "@nereus/core/testing";
import { describe, expect, test } from "vitest";
import { PartitionedTopicRegistry } from "./partitioned-topic-registry.js";
import { PulsarKeyspace } from "./pulsar-keys.js";
import { parseTopicName } from "./topic-name.js";

const EVENTS = parseTopicName("acme/ns/events");

function registry(metadata = new InMemoryMetadataStore()): PartitionedTopicRegistry {
  return new PartitionedTopicRegistry(metadata, new PulsarKeyspace("c1"), () => 42);
}

describe("PartitionedTopicRegistry", () => {
  test("create is put-if-absent, grow only raises the count, delete removes the record", async () => {
    const topics = registry();
    expect(await topics.get(EVENTS)).toBeUndefined();
    expect(await topics.create(EVENTS, 4)).toEqual({
      ok: true,
      topic: { name: "persistent://acme/ns/events", partitionCount: 4, createdAtMillis: 42 },
    });
    expect(await topics.create(EVENTS, 8)).toMatchObject({ ok: false, reason: "exists" });
    expect(await topics.grow(EVENTS, 2)).toMatchObject({ ok: false, reason: "shrink" });
    expect(await topics.grow(EVENTS, 6)).toMatchObject({ ok: true, topic: { partitionCount: 6 } });
    expect((await topics.get(EVENTS))?.partitionCount).toBe(6);
    expect(await topics.delete(EVENTS)).toMatchObject({ partitionCount: 6 });
    expect(await topics.delete(EVENTS)).toBeUndefined();
    expect(await topics.grow(EVENTS, 9)).toEqual({ ok: false, reason: "unknown" });
  });

  test("a lost create response is recognised as this call's own write", async () => {
    const metadata = new InMemoryMetadataStore();
    const topics = registry(metadata);
    metadata.faults.add({ op: "txn", mode: "apply-then-lose-response" });
    expect(await topics.create(EVENTS, 3)).toMatchObject({ ok: true, topic: { partitionCount: 3 } });
  });

  test("bad counts and partition names are refused before any I/O", async () => {
    const topics = registry();
    await expectNereusError(topics.create(EVENTS, 0), ErrorCode.INVALID_ARGUMENT);
    await expectNereusError(topics.create(EVENTS, 2 ** 31), ErrorCode.INVALID_ARGUMENT);
    await expectNereusError(topics.create(parseTopicName("events-partition-1"), 2), ErrorCode.INVALID_ARGUMENT);
  });

  test("list returns a namespace's partitioned topics only, across scan pages", async () => {
    const topics = registry();
    const names = Array.from({ length: 520 }, (_, index) => `acme/ns/t${String(index).padStart(3, "0")}`);
    for (const name of names) await topics.create(parseTopicName(name), 2);
    await topics.create(parseTopicName("acme/other/t000"), 3);
    const listed = await topics.list("acme", "ns");
    expect(listed.map((topic) => topic.name)).toEqual(names.map((name) => `persistent://${name}`));
    expect(await topics.list("acme", "none")).toEqual([]);
  });
});
