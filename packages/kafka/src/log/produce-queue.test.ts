// ProduceQueue: groups are cut from the head in ticket order — up to a reserved ticket, of one topic id, within the
// limits (the first batch always) — cancelled tickets are dropped, and a refused admission takes nothing.
import { describe, expect, test } from "vitest";
import { batchOf } from "../../test/broker-harness.js";
import { readRecordBatchHeader } from "../protocol/records/record-batch-header.js";
import type { KafkaTopic } from "../topics/kafka-topic.js";
import { ProduceQueue } from "./produce-queue.js";
import { ProduceTicket } from "./produce-ticket.js";

const topicOf = (topicId: string): KafkaTopic => ({
  name: "t",
  topicId,
  state: "ACTIVE",
  partitionCount: 1,
  profile: "OBJECT_WAL_SYNC_OBJECT",
  configs: {},
  createdAtMillis: 0,
});
const A = topicOf("11111111-2222-4333-8444-555555555555");
const B = topicOf("66666666-2222-4333-8444-555555555555");
const LIMITS = { maxAppendBytes: 1 << 20, maxAppendBatches: 100 };
const admitAll = (): boolean => true;

function reserved(queue: ProduceQueue): ProduceTicket {
  const ticket = new ProduceTicket(() => undefined);
  queue.push(ticket);
  return ticket;
}

function submitted(queue: ProduceQueue, value: string, topic: KafkaTopic = A): ProduceTicket {
  const ticket = reserved(queue);
  const batch = batchOf([value]);
  void ticket.submit({ topic, batch, header: readRecordBatchHeader(batch), timeoutMs: 1_000 });
  return ticket;
}

const valuesOf = (group: readonly ProduceTicket[] | undefined): number[] | undefined =>
  group?.map((ticket) => ticket.submission?.batch.byteLength ?? -1);

describe("ProduceQueue", () => {
  test("takes the submitted head tickets up to the first reserved one, skipping cancelled ones", () => {
    const queue = new ProduceQueue();
    const first = submitted(queue, "a");
    reserved(queue).cancel();
    const third = submitted(queue, "c");
    const blocker = reserved(queue);
    submitted(queue, "e");
    expect(queue.take(LIMITS, admitAll)).toEqual([first, third]);
    expect(queue.headResolved).toBe(false);
    expect(queue.take(LIMITS, admitAll)).toBeUndefined();
    blocker.cancel();
    expect(queue.headResolved).toBe(true);
    expect(queue.take(LIMITS, admitAll)?.length).toBe(1);
    expect(queue.length).toBe(0);
  });

  test("a group holds one topic id and stays within the byte and batch limits, but always takes its first batch", () => {
    const queue = new ProduceQueue();
    const size = batchOf(["x"]).byteLength;
    for (const value of ["a", "b", "c"]) submitted(queue, value);
    submitted(queue, "d", B);
    expect(valuesOf(queue.take({ maxAppendBytes: 2 * size, maxAppendBatches: 100 }, admitAll))).toEqual([size, size]);
    expect(valuesOf(queue.take({ maxAppendBytes: 1, maxAppendBatches: 100 }, admitAll))).toEqual([size]);
    const last = queue.take({ maxAppendBytes: 1 << 20, maxAppendBatches: 1 }, admitAll);
    expect(last?.[0]?.submission?.topic.topicId).toBe(B.topicId);
    expect(queue.length).toBe(0);
  });

  test("admission is asked with the head's topic id and the bytes the group would hold; a refusal takes nothing", () => {
    const queue = new ProduceQueue();
    reserved(queue).cancel();
    const first = submitted(queue, "a");
    const second = submitted(queue, "b");
    const asked: Array<[string, number]> = [];
    expect(queue.take(LIMITS, (topicId, bytes) => (asked.push([topicId, bytes()]), false))).toBeUndefined();
    const bytes = (first.submission?.batch.byteLength ?? 0) + (second.submission?.batch.byteLength ?? 0);
    expect(asked).toEqual([[A.topicId, bytes]]);
    // The cancelled head went; both submitted tickets stayed.
    expect(queue.length).toBe(2);
    expect(queue.take(LIMITS, admitAll)).toEqual([first, second]);
  });

  test("nothing to take: an empty queue or a reserved head is never admitted", () => {
    const queue = new ProduceQueue();
    let asked = 0;
    const admit = (): boolean => (asked += 1) > 0;
    expect(queue.take(LIMITS, admit)).toBeUndefined();
    reserved(queue);
    submitted(queue, "a");
    expect(queue.take(LIMITS, admit)).toBeUndefined();
    expect(asked).toBe(0);
  });
});
