import { describe, expect, it } from "vitest";
import { Deadline } from "../timing/deadline.js";
import type { ExecutionPlan } from "../profiles/resolve-execution-plan.js";
import type { PayloadFormat } from "../domain/append-types.js";
import { LaneOperation } from "./lane-operation.js";
import { PendingAppend } from "./pending-append.js";
import { takeAppendGroup } from "./take-append-group.js";

const plan = { profile: "BOOKKEEPER_WAL_ONLY", ackBoundary: "STABLE_HEAD", walWriter: {} } as unknown as ExecutionPlan;
const otherPlan = { ...plan, ackBoundary: "GENERATION_ZERO_VISIBLE" } as ExecutionPlan;
const pending = (bytes: number, entries = 1, format: PayloadFormat = "OPAQUE_RECORD_BATCH", withPlan = plan) =>
  new PendingAppend(
    {
      payloadFormat: format,
      entries: Array.from({ length: entries }, () => ({ payload: new Uint8Array(bytes / entries), recordCount: 1 })),
      recordCount: entries,
      entryCount: entries,
      logicalBytes: bytes,
      handedOver: false,
    },
    withPlan,
    undefined,
    Deadline.start(10_000),
  );

describe("takeAppendGroup", () => {
  it("takes the leading run of mergeable appends within the bounds and leaves the rest queued", () => {
    const queue = [pending(10), pending(10), pending(10), pending(10)];
    const group = takeAppendGroup(queue, { maxBytes: 25, maxEntries: 100 });
    expect(group).toHaveLength(2);
    expect(queue).toHaveLength(2);
    expect(takeAppendGroup(queue, { maxBytes: 1_000, maxEntries: 1 })).toHaveLength(1);
  });

  it("always takes the first append, even above the bounds; without limits only the first", () => {
    const queue = [pending(100, 5), pending(1)];
    expect(takeAppendGroup(queue, { maxBytes: 10, maxEntries: 2 })).toHaveLength(1);
    const unbounded = [pending(1), pending(1)];
    expect(takeAppendGroup(unbounded, undefined)).toHaveLength(1);
  });

  it("stops at a lifecycle operation, a different payload format or a different plan", () => {
    const limits = { maxBytes: 1_000, maxEntries: 1_000 };
    const operation = new LaneOperation(Deadline.start(10_000), async () => undefined);
    expect(takeAppendGroup([pending(1), operation, pending(1)], limits)).toHaveLength(1);
    expect(takeAppendGroup([pending(1), pending(1, 1, "KAFKA_RECORD_BATCH")], limits)).toHaveLength(1);
    expect(takeAppendGroup([pending(1), pending(1, 1, "OPAQUE_RECORD_BATCH", otherPlan)], limits)).toHaveLength(1);
    expect(takeAppendGroup([operation], limits)).toEqual([]);
  });
});
