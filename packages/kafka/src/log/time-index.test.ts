import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { BatchSummary } from "./stored-batch.js";
import { TimeIndex } from "./time-index.js";

function batches(timestamps: readonly number[]): BatchSummary[] {
  let offset = 0;
  return timestamps.map((maxTimestamp, index) => {
    const recordCount = (index % 3) + 1;
    const batch = { baseOffset: offset, recordCount, maxTimestamp, bytes: 100 + index, producer: undefined };
    offset += recordCount;
    return batch;
  });
}

function scanner(all: readonly BatchSummary[], reads: { count: number }) {
  return async function* (from: number, until: number): AsyncIterable<BatchSummary> {
    for (const batch of all) {
      if (batch.baseOffset + batch.recordCount <= from) continue;
      if (batch.baseOffset >= until) return;
      reads.count += 1;
      yield batch;
    }
  };
}

describe("TimeIndex", () => {
  test("finds the first batch whose max timestamp reaches the target, like a full scan, reading at most one interval", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 1_000 }), { maxLength: 80 }),
        fc.integer({ min: -10, max: 1_100 }),
        fc.nat(),
        async (timestamps, target, cut) => {
          const all = batches(timestamps);
          // Cover the log from a batch boundary (as after a checkpoint-bounded replay); the rest is scanned in.
          const start = all.length === 0 ? 0 : (all[cut % all.length]?.baseOffset ?? 0);
          const index = new TimeIndex(start, 250);
          for (const batch of all) if (batch.baseOffset >= start) index.observe(batch);
          const reads = { count: 0 };
          const found = await index.find(target, 0, scanner(all, reads));
          const expected = all.find((batch) => batch.maxTimestamp >= target);
          expect(found?.batch).toEqual(expected);
          // A second query does not rescan the range below the original coverage.
          reads.count = 0;
          await index.find(target, 0, scanner(all, reads));
          expect(reads.count).toBeLessThanOrEqual(5);
          expect(index.maxTimestamp).toBe(all.length === 0 ? Number.NEGATIVE_INFINITY : Math.max(...timestamps));
        },
      ),
    );
  });
});
