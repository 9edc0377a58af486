// The producer registry's rules without connections: one name per topic, the four access modes, the queue of
// WaitForExclusive producers, fencing, and the topic epoch a reconnecting exclusive producer is checked against.
import { describe, expect, test } from "vitest";
import { ProducerAccessMode, ServerError } from "../protocol/index.js";
import { type TopicProducerMember, TopicProducers } from "./topic-producers.js";

const TOPIC = "persistent://public/default/t";

interface RecordingMember extends TopicProducerMember {
  readonly events: string[];
}

function member(name: string, accessMode: number, topicEpoch?: bigint): RecordingMember {
  const events: string[] = [];
  return {
    name,
    accessMode,
    topicEpoch,
    events,
    fenced: () => events.push("fenced"),
    promoted: (epoch) => events.push(`promoted ${String(epoch)}`),
  };
}

describe("TopicProducers", () => {
  test("shared producers coexist; a name is connected once; another topic is separate", () => {
    const producers = new TopicProducers();
    expect(producers.attach(TOPIC, member("a", ProducerAccessMode.Shared))).toEqual({
      kind: "attached",
      topicEpoch: undefined,
    });
    expect(producers.attach(TOPIC, member("b", ProducerAccessMode.Shared)).kind).toBe("attached");
    expect(producers.attach(TOPIC, member("a", ProducerAccessMode.Shared))).toMatchObject({
      kind: "refused",
      error: ServerError.ProducerBusy,
    });
    expect(producers.attach(`${TOPIC}-2`, member("a", ProducerAccessMode.Shared)).kind).toBe("attached");
    expect(producers.attachedNames(TOPIC)).toEqual(["a", "b"]);
  });

  test("Exclusive takes a free topic with a new epoch; others are refused ProducerFenced (exclusive) or ProducerBusy (shared)", () => {
    const producers = new TopicProducers();
    const first = member("x", ProducerAccessMode.Exclusive);
    expect(producers.attach(TOPIC, first)).toEqual({ kind: "attached", topicEpoch: 0n });
    expect(producers.attach(TOPIC, member("y", ProducerAccessMode.Exclusive))).toMatchObject({
      kind: "refused",
      error: ServerError.ProducerFenced,
    });
    expect(producers.attach(TOPIC, member("s", ProducerAccessMode.Shared))).toMatchObject({
      kind: "refused",
      error: ServerError.ProducerBusy,
    });
    producers.detach(TOPIC, first);
    expect(producers.attach(TOPIC, member("y", ProducerAccessMode.Exclusive))).toEqual({
      kind: "attached",
      topicEpoch: 1n,
    });
  });

  test("Exclusive is refused ProducerFenced while shared producers publish", () => {
    const producers = new TopicProducers();
    producers.attach(TOPIC, member("s", ProducerAccessMode.Shared));
    expect(producers.attach(TOPIC, member("x", ProducerAccessMode.Exclusive))).toMatchObject({
      kind: "refused",
      error: ServerError.ProducerFenced,
      message: expect.stringContaining("shared producers") as unknown,
    });
  });

  test("WaitForExclusive queues behind the current producers and gets the topic, in order, once it is free", () => {
    const producers = new TopicProducers();
    const shared = member("s", ProducerAccessMode.Shared);
    producers.attach(TOPIC, shared);
    const first = member("w1", ProducerAccessMode.WaitForExclusive);
    const second = member("w2", ProducerAccessMode.WaitForExclusive);
    expect(producers.attach(TOPIC, first)).toEqual({ kind: "queued" });
    expect(producers.attach(TOPIC, second)).toEqual({ kind: "queued" });
    expect(producers.attach(TOPIC, member("s2", ProducerAccessMode.Shared))).toMatchObject({
      error: ServerError.ProducerBusy,
    });
    expect(producers.attach(TOPIC, member("w1", ProducerAccessMode.Shared))).toMatchObject({
      error: ServerError.ProducerBusy,
    });
    producers.detach(TOPIC, shared);
    expect(first.events).toEqual(["promoted 0"]);
    expect(second.events).toEqual([]);
    producers.detach(TOPIC, first);
    expect(second.events).toEqual(["promoted 1"]);
    expect(producers.attachedNames(TOPIC)).toEqual(["w2"]);
  });

  test("a queued producer that leaves is never promoted", () => {
    const producers = new TopicProducers();
    const holder = member("x", ProducerAccessMode.Exclusive);
    producers.attach(TOPIC, holder);
    const waiting = member("w", ProducerAccessMode.WaitForExclusive);
    producers.attach(TOPIC, waiting);
    producers.detach(TOPIC, waiting);
    producers.detach(TOPIC, holder);
    expect(waiting.events).toEqual([]);
    expect(producers.attach(TOPIC, member("s", ProducerAccessMode.Shared)).kind).toBe("attached");
  });

  test("ExclusiveWithFencing fences every attached and queued producer, its own name included, and takes the topic", () => {
    const producers = new TopicProducers();
    const shared = member("s", ProducerAccessMode.Shared);
    const sameName = member("f", ProducerAccessMode.Shared);
    producers.attach(TOPIC, shared);
    producers.attach(TOPIC, sameName);
    const waiting = member("w", ProducerAccessMode.WaitForExclusive);
    producers.attach(TOPIC, waiting);
    const fencing = member("f", ProducerAccessMode.ExclusiveWithFencing);
    expect(producers.attach(TOPIC, fencing)).toEqual({ kind: "attached", topicEpoch: 0n });
    expect([shared.events, sameName.events, waiting.events]).toEqual([["fenced"], ["fenced"], ["fenced"]]);
    expect(producers.attachedNames(TOPIC)).toEqual(["f"]);
    // A fenced producer detaching later changes nothing.
    producers.detach(TOPIC, sameName);
    expect(producers.attachedNames(TOPIC)).toEqual(["f"]);
  });

  test("a reconnecting exclusive producer keeps its epoch, unless the topic moved past it (ProducerFenced)", () => {
    const producers = new TopicProducers();
    const first = member("x", ProducerAccessMode.Exclusive);
    producers.attach(TOPIC, first);
    producers.detach(TOPIC, first);
    expect(producers.attach(TOPIC, member("x", ProducerAccessMode.Exclusive, 0n))).toEqual({
      kind: "attached",
      topicEpoch: 0n,
    });
    const taker = member("y", ProducerAccessMode.ExclusiveWithFencing);
    expect(producers.attach(TOPIC, taker)).toEqual({ kind: "attached", topicEpoch: 1n });
    producers.detach(TOPIC, taker);
    expect(producers.attach(TOPIC, member("x", ProducerAccessMode.Exclusive, 0n))).toMatchObject({
      kind: "refused",
      error: ServerError.ProducerFenced,
    });
    expect(producers.attach(TOPIC, member("x", ProducerAccessMode.WaitForExclusive, 0n))).toMatchObject({
      error: ServerError.ProducerFenced,
    });
    expect(producers.attach(TOPIC, member("x", ProducerAccessMode.Exclusive, 1n))).toEqual({
      kind: "attached",
      topicEpoch: 1n,
    });
  });

  test("an unknown access mode is refused NotAllowedError", () => {
    const producers = new TopicProducers();
    expect(producers.attach(TOPIC, member("z", 9))).toMatchObject({
      kind: "refused",
      error: ServerError.NotAllowedError,
    });
    expect(producers.attachedNames(TOPIC)).toEqual([]);
  });
});
