// Conformance scenarios of a cursor's lifecycle: create at the three kinds of initial position, duplicate create,
// delete to a tombstone, recreate under the next generation, properties, and all of it surviving a restart.
import { ErrorCode } from "@nereus/core";
import { expectNereusError, nereusRejectionOf } from "@nereus/core/testing";
import { describe, expect } from "vitest";
import type { OpenCursorConformanceFixture } from "./cursor-conformance-fixture.js";
import { conformanceTest } from "./conformance-test.js";

export function describeLifecycleScenarios(open: OpenCursorConformanceFixture): void {
  describe("lifecycle", () => {
    conformanceTest(
      open,
      "creates, refuses a duplicate, deletes and recreates under the next generation",
      async (run) => {
        const streamId = await run.newStream("lifecycle", 10);
        const cursors = await run.open(streamId);
        const created = await cursors.createCursor("sub", { initialOffset: 3 });
        expect([created.generation, created.ackStateEpoch, created.markDeleteOffset]).toEqual([1, 1, 3]);
        expect(cursors.list().map((handle) => handle.name)).toEqual(["sub"]);
        await expectNereusError(cursors.createCursor("sub"), ErrorCode.CURSOR_ALREADY_EXISTS);
        await created.cumulativeAck(6);
        await cursors.deleteCursor("sub");
        expect(cursors.get("sub")).toBeUndefined();
        expect(cursors.list()).toEqual([]);
        await expectNereusError(cursors.deleteCursor("sub"), ErrorCode.CURSOR_NOT_FOUND);
        const stale = await nereusRejectionOf(created.cumulativeAck(8));
        expect([ErrorCode.STORAGE_CLOSED, ErrorCode.CURSOR_NOT_FOUND]).toContain(stale.code);
        await run.expectInvariant(streamId);

        const restarted = await run.restart(streamId);
        expect(restarted.get("sub")).toBeUndefined();
        const recreated = await restarted.createCursor("sub", { initialOffset: 2 });
        expect([recreated.generation, recreated.ackStateEpoch, recreated.markDeleteOffset]).toEqual([2, 1, 2]);
        expect(recreated.isAcked(4)).toBe(false);
        await run.expectInvariant(streamId);

        const again = await run.restart(streamId);
        const handle = run.handle(again, "sub");
        expect([handle.generation, handle.markDeleteOffset]).toEqual([2, 2]);
      },
    );

    conformanceTest(
      open,
      "resolves earliest, latest and offsets beyond the end; refuses trimmed offsets",
      async (run) => {
        const streamId = await run.newStream("positions", 12);
        const cursors = await run.open(streamId);
        await cursors.createCursor("anchor", { initialOffset: 5 });
        await cursors.raiseFloor();
        await cursors.trim(4, "conformance");
        expect((await cursors.createCursor("early", { initialOffset: "earliest" })).markDeleteOffset).toBe(4);
        expect((await cursors.createCursor("late", { initialOffset: "latest" })).markDeleteOffset).toBe(12);
        expect((await cursors.createCursor("beyond", { initialOffset: 1_000 })).markDeleteOffset).toBe(12);
        expect((await cursors.createCursor("default")).markDeleteOffset).toBe(12);
        await expectNereusError(cursors.createCursor("trimmed", { initialOffset: 3 }), ErrorCode.OFFSET_TRIMMED);
        expect(cursors.get("trimmed")).toBeUndefined();
        await run.expectInvariant(streamId);
        const restarted = await run.restart(streamId);
        expect(restarted.list().map((handle) => [handle.name, handle.markDeleteOffset])).toEqual([
          ["anchor", 5],
          ["beyond", 12],
          ["default", 12],
          ["early", 4],
          ["late", 12],
        ]);
      },
    );

    conformanceTest(open, "keeps cursor properties across replacement and restart", async (run) => {
      const streamId = await run.newStream("properties", 4);
      const cursors = await run.open(streamId);
      const handle = await cursors.createCursor("sub", { initialOffset: 0, properties: new Map([["owner", "a"]]) });
      expect(handle.cursorProperties).toEqual(new Map([["owner", "a"]]));
      await handle.replaceProperties(
        new Map([
          ["owner", "b"],
          ["mode", "shared"],
        ]),
      );
      const restarted = await run.restart(streamId);
      expect(run.handle(restarted, "sub").cursorProperties).toEqual(
        new Map([
          ["mode", "shared"],
          ["owner", "b"],
        ]),
      );
    });
  });
}
