// Conformance scenarios of ownership and restarts: a new writable open fences every handle of the older owner
// (CURSOR_FENCED, nothing it sends lands), and a restarted process resumes dispatch at the first unacknowledged
// entry (the dispatch position is never durable) with an exact backlog.
import { ErrorCode } from "@nereus/core";
import { expectNereusError } from "@nereus/core/testing";
import { describe, expect } from "vitest";
import type { OpenCursorConformanceFixture } from "./cursor-conformance-fixture.js";
import { conformanceTest } from "./conformance-test.js";

export function describeOwnershipScenarios(open: OpenCursorConformanceFixture): void {
  describe("ownership and restart", () => {
    conformanceTest(
      open,
      "fences every operation of the older owner once another process opened the stream",
      async (run) => {
        const streamId = await run.newStream("fencing", 20);
        const old = await run.open(streamId);
        const oldHandle = await old.createCursor("sub", { initialOffset: 0 });
        await oldHandle.cumulativeAck(3);
        const newer = await run.open(streamId, {}, await run.reopenClients());
        const before = await run.summary(newer);
        await expectNereusError(oldHandle.individualAck([{ offset: 8 }]), ErrorCode.CURSOR_FENCED);
        await expectNereusError(oldHandle.cumulativeAck(10), ErrorCode.CURSOR_FENCED);
        await expectNereusError(old.createCursor("other"), ErrorCode.CURSOR_FENCED);
        await expectNereusError(old.deleteCursor("sub"), ErrorCode.CURSOR_FENCED);
        await expectNereusError(old.raiseFloor(), ErrorCode.CURSOR_FENCED);
        await expectNereusError(old.resetCursor("sub", 1), ErrorCode.CURSOR_FENCED);
        const newHandle = newer.get("sub");
        expect(newHandle?.markDeleteOffset).toBe(4);
        await newHandle?.reload();
        expect(await run.summary(newer)).toEqual(before);
        expect(await newHandle?.individualAck([{ offset: 8 }])).toEqual({ alreadyApplied: false });
        await run.expectInvariant(streamId);
      },
    );

    conformanceTest(
      open,
      "resumes at the first unacknowledged entry after a restart, never at the dispatch position",
      async (run) => {
        const streamId = await run.newStream("resume", 30);
        const cursors = await run.open(streamId);
        const handle = await cursors.createCursor("sub", { initialOffset: 0 });
        await handle.cumulativeAck(4);
        await handle.individualAck([{ offset: 5 }, { offset: 6 }, { offset: 8 }, { offset: 12 }]);
        expect(handle.firstUnacked()).toBe(7);
        expect(handle.seekLocal(20)).toBe(20);
        expect(handle.readPosition).toBe(20);
        expect(handle.nextUnacked(8)).toBe(9);
        const restarted = run.handle(await run.restart(streamId), "sub");
        expect([restarted.markDeleteOffset, restarted.firstUnacked(), restarted.readPosition]).toEqual([7, 7, 7]);
        expect(restarted.backlog(30)).toBe(21);
        expect(restarted.nextUnacked(8)).toBe(9);
        expect(restarted.nextUnacked(12)).toBe(13);
        expect(restarted.seekLocal(3)).toBe(7);
      },
    );
  });
}
