import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { KafkaKeyspace } from "../topics/kafka-keys.js";
import { producerCheckpointCodec } from "./producer-checkpoint-codec.js";
import {
  type ProducedBatch,
  type ProducerEntry,
  checkBatch,
  expireProducers,
  lastSequenceOf,
  replayBatch,
  withBatch,
} from "./producer-state.js";

const batch = (producerEpoch: number, baseSequence: number, recordCount = 1, producerId = 7n): ProducedBatch => ({
  producerId,
  producerEpoch,
  baseSequence,
  lastOffsetDelta: recordCount - 1,
  recordCount,
  maxTimestamp: 1_000 + baseSequence,
});

function appendAll(batches: readonly ProducedBatch[]): ProducerEntry | undefined {
  let entry: ProducerEntry | undefined;
  let offset = 0;
  for (const next of batches) {
    entry = withBatch(entry, next, offset);
    offset += next.recordCount;
  }
  return entry;
}

describe("producer state (Kafka's idempotence rules)", () => {
  test("an unknown producer may start at any sequence; then sequences must continue", () => {
    expect(checkBatch(undefined, batch(0, 0))).toEqual({ kind: "append" });
    expect(checkBatch(undefined, batch(0, 42))).toEqual({ kind: "append" });
    const entry = appendAll([batch(0, 0, 3)]);
    expect(checkBatch(entry, batch(0, 3))).toEqual({ kind: "append" });
    expect(checkBatch(entry, batch(0, 4)).kind).toBe("out-of-order");
    expect(checkBatch(entry, batch(0, 1)).kind).toBe("out-of-order");
  });

  test("an exact retry of one of the last five batches is a duplicate with the original offset; older ones are not", () => {
    const entry = appendAll([batch(0, 0, 2), batch(0, 2), batch(0, 3), batch(0, 4), batch(0, 5), batch(0, 6)]);
    expect(entry?.batches).toHaveLength(5);
    expect(checkBatch(entry, batch(0, 2))).toEqual({
      kind: "duplicate",
      batch: expect.objectContaining({ baseOffset: 2, firstSequence: 2, lastSequence: 2 }),
    });
    expect(checkBatch(entry, batch(0, 6))).toMatchObject({ kind: "duplicate", batch: { baseOffset: 6 } });
    expect(checkBatch(entry, batch(0, 0, 2)).kind).toBe("out-of-order");
    // Same first sequence, different length: not a duplicate.
    expect(checkBatch(entry, batch(0, 5, 2)).kind).toBe("out-of-order");
    // A retry from another epoch is not a duplicate.
    expect(checkBatch(entry, batch(1, 6)).kind).toBe("out-of-order");
  });

  test("an older epoch is fenced; a newer epoch must start at sequence 0 and forgets the old batches", () => {
    const entry = appendAll([batch(3, 0), batch(3, 1)]);
    expect(checkBatch(entry, batch(2, 2))).toMatchObject({ kind: "invalid-epoch" });
    expect(checkBatch(entry, batch(4, 5))).toMatchObject({ kind: "out-of-order" });
    expect(checkBatch(entry, batch(4, 0))).toEqual({ kind: "append" });
    const bumped = withBatch(entry, batch(4, 0), 10);
    expect(bumped).toMatchObject({ epoch: 4, batches: [{ baseOffset: 10, firstSequence: 0 }] });
  });

  test("sequences wrap after Int32.MAX", () => {
    expect(lastSequenceOf(0x7fff_fffe, 3)).toBe(1);
    const entry = appendAll([batch(0, 0x7fff_fffe, 2)]);
    expect(entry?.batches[0]?.lastSequence).toBe(0x7fff_ffff);
    expect(checkBatch(entry, batch(0, 0))).toEqual({ kind: "append" });
  });

  test("producers idle for longer than the expiration are forgotten", () => {
    const entries = new Map<bigint, ProducerEntry>();
    replayBatch(entries, { ...batch(0, 0), producerId: 1n, maxTimestamp: 100 }, 0);
    replayBatch(entries, { ...batch(0, 0), producerId: 2n, maxTimestamp: 5_000 }, 1);
    replayBatch(entries, { ...batch(0, 0), producerId: -1n }, 2);
    expect(expireProducers(entries, 6_000, 2_000)).toBe(1);
    expect([...entries.keys()]).toEqual([2n]);
  });

  test("replaying from a checkpoint gives the same table as replaying everything", () => {
    const keyspace = new KafkaKeyspace("c");
    const codec = producerCheckpointCodec(keyspace);
    const streamId = `s-${"b".repeat(52)}`;
    const key = keyspace.producerStateKey(streamId);
    const history = fc.array(
      fc.record({
        producerId: fc.integer({ min: -1, max: 4 }).map(BigInt),
        epoch: fc.integer({ min: 0, max: 2 }),
        sequence: fc.integer({ min: 0, max: 20 }),
        records: fc.integer({ min: 1, max: 4 }),
      }),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(history, fc.nat(), (steps, cut) => {
        const batches = steps.map((step) => ({ ...batch(step.epoch, step.sequence, step.records, step.producerId) }));
        const split = batches.length === 0 ? 0 : cut % (batches.length + 1);
        const full = new Map<bigint, ProducerEntry>();
        const prefix = new Map<bigint, ProducerEntry>();
        let offset = 0;
        let checkpointEnd = 0;
        batches.forEach((next, index) => {
          replayBatch(full, next, offset);
          if (index < split) replayBatch(prefix, next, offset);
          offset += next.recordCount;
          if (index === split - 1) checkpointEnd = offset;
        });
        const producers = [...prefix.values()].sort((left, right) => (left.producerId < right.producerId ? -1 : 1));
        const restored = codec.decode(
          codec.encode({ streamId, endOffset: Math.max(checkpointEnd, 1), producers }),
          key,
        );
        const resumed = new Map(restored.producers.map((producer) => [producer.producerId, producer]));
        offset = checkpointEnd;
        batches.slice(split).forEach((next) => {
          replayBatch(resumed, next, offset);
          offset += next.recordCount;
        });
        expect(resumed).toEqual(full);
      }),
    );
  });
});
