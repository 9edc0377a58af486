// Conformance scenarios of the retention floor: a sequence of creates, acks, floor raises, trims and resets with
// the invariant (stream trim <= last completed trim <= floor <= every ACTIVE markDelete) checked on the stored
// records after every step, and the refusals that keep it: no trim above the floor, no position below the trim.
import { ErrorCode } from "@nereus/core";
import { expectNereusError } from "@nereus/core/testing";
import { describe, expect } from "vitest";
import type { OpenCursorConformanceFixture } from "./cursor-conformance-fixture.js";
import { acking } from "./conformance-run.js";
import { conformanceTest } from "./conformance-test.js";

export function describeRetentionScenarios(open: OpenCursorConformanceFixture): void {
  describe("retention", () => {
    conformanceTest(
      open,
      "keeps trim <= last completed trim <= floor <= every ACTIVE markDelete after each step",
      async (run) => {
        const streamId = await run.newStream("retention", 40);
        const cursors = await run.open(streamId);
        const step = async (action: () => Promise<unknown>): Promise<void> => {
          await action();
          await run.expectInvariant(streamId);
        };
        await run.expectInvariant(streamId);
        const a = await cursors.createCursor("a", { initialOffset: 0 });
        await run.expectInvariant(streamId);
        const b = await cursors.createCursor("b", { initialOffset: 5 });
        await run.expectInvariant(streamId);
        await step(() => a.cumulativeAck(11));
        await step(() => cursors.raiseFloor());
        expect(cursors.retention().protectedFloorOffset).toBe(5);
        await expectNereusError(cursors.trim(6, "above the floor"), ErrorCode.INVALID_ARGUMENT);
        await step(() => cursors.trim(5, "conformance"));
        expect((await run.fixture.streams.getHead(streamId)).trimOffset).toBe(5);
        expect(cursors.retention()).toMatchObject({ lifecycle: "ACTIVE", lastCompletedTrimOffset: 5 });
        await step(() => b.cumulativeAck(19));
        await step(() => cursors.raiseFloor());
        expect(cursors.retention().protectedFloorOffset).toBe(12);
        await step(() => cursors.resetCursor("b", 7, { partial: acking(2) }));
        expect([b.markDeleteOffset, b.isAcked(7, 2), b.isAcked(7, 0)]).toEqual([7, true, false]);
        expect(cursors.retention().protectedFloorOffset).toBe(7);
        await expectNereusError(cursors.resetCursor("a", 4), ErrorCode.OFFSET_TRIMMED);
        await expectNereusError(cursors.createCursor("c", { initialOffset: 4 }), ErrorCode.OFFSET_TRIMMED);
        await step(() => cursors.createCursor("c", { initialOffset: "earliest" }));
        expect(run.handle(cursors, "c").markDeleteOffset).toBe(5);
        await step(() => cursors.deleteCursor("c"));
        await step(() => cursors.raiseFloor());
        await step(() => cursors.trim(7, "conformance"));
        await step(() => cursors.trim(6, "below the last trim changes nothing"));
        expect(cursors.retention()).toMatchObject({ lastCompletedTrimOffset: 7, protectedFloorOffset: 7 });
        const before = await run.summary(cursors);
        const restarted = await run.restart(streamId);
        expect(await run.summary(restarted)).toEqual(before);
        await run.expectInvariant(streamId);
      },
    );

    conformanceTest(open, "raises the floor to the committed end when no cursor is ACTIVE", async (run) => {
      const streamId = await run.newStream("no-cursors", 9);
      const cursors = await run.open(streamId);
      await cursors.createCursor("only", { initialOffset: 2 });
      await cursors.deleteCursor("only");
      expect((await cursors.raiseFloor()).protectedFloorOffset).toBe(9);
      await cursors.trim(9, "everything");
      await run.expectInvariant(streamId);
      await expectNereusError(cursors.createCursor("late", { initialOffset: 3 }), ErrorCode.OFFSET_TRIMMED);
      expect((await cursors.createCursor("late", { initialOffset: "earliest" })).markDeleteOffset).toBe(9);
      await run.expectInvariant(streamId);
    });
  });
}
