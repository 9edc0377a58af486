// Conformance scenarios of acknowledgements: cumulative, partial (batch index) and individual acks with their
// already-applied reports, group commit of concurrent acks, and the epoch rule (an ack decided before a reset or
// a clear never brings back what that erased).
import { ErrorCode } from "@nereus/core";
import { expectNereusError } from "@nereus/core/testing";
import { describe, expect } from "vitest";
import type { OpenCursorConformanceFixture } from "./cursor-conformance-fixture.js";
import { acking } from "./conformance-run.js";
import { conformanceTest } from "./conformance-test.js";

const APPLIED = { alreadyApplied: false };
const ALREADY = { alreadyApplied: true };

export function describeAckScenarios(open: OpenCursorConformanceFixture): void {
  describe("acks", () => {
    conformanceTest(
      open,
      "applies cumulative, partial and individual acks and reports what was already applied",
      async (run) => {
        const streamId = await run.newStream("acks", 30);
        const cursors = await run.open(streamId);
        const handle = await cursors.createCursor("sub", { initialOffset: 0 });
        expect(await handle.cumulativeAck(4)).toEqual(APPLIED);
        expect(await handle.cumulativeAck(2)).toEqual(ALREADY);
        expect(await handle.individualAck([{ offset: 7 }, { offset: 9 }, { offset: 8 }])).toEqual(APPLIED);
        expect(await handle.individualAck([{ offset: 8 }, { offset: 3 }])).toEqual(ALREADY);
        expect(await handle.individualAck([{ offset: 12, batch: acking(0, 2) }])).toEqual(APPLIED);
        expect(await handle.individualAck([{ offset: 12, batch: acking(0) }])).toEqual(ALREADY);
        expect([handle.isAcked(12, 0), handle.isAcked(12, 1), handle.isAcked(12, 2), handle.isAcked(12)]).toEqual([
          true,
          false,
          true,
          false,
        ]);
        expect(await handle.individualAck([{ offset: 12, batch: acking(1, 3) }])).toEqual(APPLIED);
        expect(handle.isAcked(12)).toBe(true);
        expect(await handle.cumulativeAck(5, { partial: acking(1) })).toEqual(APPLIED);
        expect([handle.markDeleteOffset, handle.isAcked(5, 1), handle.isAcked(5, 0)]).toEqual([5, true, false]);
        expect(await handle.cumulativeAck(5, { partial: acking(0, 2, 3) })).toEqual(APPLIED);
        expect(handle.markDeleteOffset).toBe(6);
        expect(handle.firstUnacked()).toBe(6);
        expect(handle.backlog(30)).toBe(20);
        const before = await run.summary(cursors);
        await run.expectInvariant(streamId);
        expect(await run.summary(await run.restart(streamId))).toEqual(before);
      },
    );

    conformanceTest(
      open,
      "commits 1,000 concurrent acks in far fewer CAS, each caller learning its own outcome",
      async (run) => {
        const streamId = await run.newStream("coalesce", 2_000);
        const store = run.store();
        const cursors = await store.openStream(streamId);
        const handle = await cursors.createCursor("sub", { initialOffset: 0 });
        store.counters.reset();
        const acks = Array.from({ length: 1_000 }, (_, index) => handle.individualAck([{ offset: 2 * index + 1 }]));
        const duplicate = handle.individualAck([{ offset: 1 }]);
        const results = await Promise.all(acks);
        expect(results.every((result) => !result.alreadyApplied)).toBe(true);
        expect(await duplicate).toEqual(ALREADY);
        expect(store.counters.acksCommitted).toBe(1_000);
        expect(store.counters.casCommits).toBeLessThanOrEqual(20);
        expect(handle.backlog(2_000)).toBe(1_000);
        const restarted = run.handle(await run.restart(streamId), "sub");
        for (let offset = 0; offset < 2_000; offset++) expect(restarted.isAcked(offset)).toBe(offset % 2 === 1);
      },
    );

    conformanceTest(open, "never resurrects an ack decided before a forward reset or a clear", async (run) => {
      const streamId = await run.newStream("epoch", 40);
      const cursors = await run.open(streamId);
      const handle = await cursors.createCursor("sub", { initialOffset: 0 });
      await handle.individualAck([{ offset: 20 }]);
      const reset = handle.resetForward(10);
      const late = handle.individualAck([{ offset: 15 }]);
      const subsumed = handle.individualAck([{ offset: 5 }]);
      expect(await reset).toEqual(APPLIED);
      await expectNereusError(late, ErrorCode.CURSOR_STATE_CONFLICT);
      expect(await subsumed).toEqual(ALREADY);
      expect([handle.markDeleteOffset, handle.ackStateEpoch, handle.isAcked(15), handle.isAcked(20)]).toEqual([
        10,
        2,
        false,
        false,
      ]);

      const clear = handle.clearBacklog(30);
      const afterClear = handle.individualAck([{ offset: 35 }]);
      const below = handle.individualAck([{ offset: 25 }]);
      await clear;
      await expectNereusError(afterClear, ErrorCode.CURSOR_STATE_CONFLICT);
      expect(await below).toEqual(ALREADY);
      expect([handle.markDeleteOffset, handle.ackStateEpoch, handle.isAcked(35)]).toEqual([30, 3, false]);
      expect(await handle.individualAck([{ offset: 35 }])).toEqual(APPLIED);

      const restarted = run.handle(await run.restart(streamId), "sub");
      expect([
        restarted.markDeleteOffset,
        restarted.ackStateEpoch,
        restarted.isAcked(36),
        restarted.isAcked(35),
      ]).toEqual([30, 3, false, true]);
    });
  });
}
