// Crash at every step of the protection and trim protocols: the process dies (every later cursor metadata call
// fails), a new process opens the stream, and the result is exactly one correct state: the transition fully
// applied once its intent was durable, not at all before; the retention invariant holds; the old process is fenced.
import { ErrorCode } from "@nereus/core";
import { expectNereusError } from "@nereus/core/testing";
import { describe, expect, it } from "vitest";
import type { StreamCursors } from "./stream-cursors.js";
import { type StreamFixture, streamFixture } from "./test-fixtures/stream-fixture.js";
import { memoryStreamProviders } from "../../test/memory-stream-providers.js";

const providers = memoryStreamProviders;

type CrashPoint = { readonly txn: number; readonly when: "before" | "after" };

/** Crash points of a transition that sends `txns` cursor transactions; the first is the intent. */
function crashPoints(txns: number): CrashPoint[] {
  const points: CrashPoint[] = [];
  for (let txn = 1; txn <= txns; txn++) points.push({ txn, when: "before" }, { txn, when: "after" });
  return points;
}

const intentDurable = (point: CrashPoint): boolean => point.txn > 1 || point.when === "after";

interface Scenario {
  readonly name: string;
  /** Cursor transactions the transition sends. */
  readonly txns: number;
  /** Cursor transactions an open that completes the transition sends (owner claim, retention claim, the rest). */
  readonly openTxns: number;
  setUp(fixture: StreamFixture, cursors: StreamCursors): Promise<void>;
  run(cursors: StreamCursors): Promise<unknown>;
  expectState(fixture: StreamFixture, reopened: StreamCursors, applied: boolean): Promise<void>;
}

const scenarios: readonly Scenario[] = [
  {
    name: "create",
    txns: 3,
    openTxns: 4,
    async setUp(_fixture, cursors) {
      await cursors.raiseFloor();
    },
    run: (cursors) => cursors.createCursor("sub", { initialOffset: 3 }),
    async expectState(fixture, reopened, applied) {
      const root = await fixture.storedRoot("sub");
      if (!applied) {
        expect(root).toBeUndefined();
        expect(reopened.get("sub")).toBeUndefined();
        return;
      }
      expect(root).toMatchObject({ lifecycle: "ACTIVE", cursorGeneration: 1, markDeleteOffset: 3 });
      expect(reopened.get("sub")).toMatchObject({ generation: 1, markDeleteOffset: 3 });
      expect(reopened.retention().protectedFloorOffset).toBe(3);
    },
  },
  {
    name: "recreate",
    txns: 3,
    openTxns: 4,
    async setUp(_fixture, cursors) {
      await cursors.createCursor("sub", { initialOffset: 8 });
      await cursors.deleteCursor("sub");
      await cursors.raiseFloor();
    },
    run: (cursors) => cursors.createCursor("sub", { initialOffset: 2 }),
    async expectState(fixture, reopened, applied) {
      const root = await fixture.storedRoot("sub");
      if (!applied) {
        expect(root).toMatchObject({ lifecycle: "DELETED", cursorGeneration: 1, markDeleteOffset: 8 });
        expect(reopened.get("sub")).toBeUndefined();
        return;
      }
      expect(root).toMatchObject({ lifecycle: "ACTIVE", cursorGeneration: 2, ackStateEpoch: 1, markDeleteOffset: 2 });
      expect(reopened.get("sub")).toMatchObject({ generation: 2, markDeleteOffset: 2 });
    },
  },
  {
    name: "backward reset",
    txns: 3,
    openTxns: 4,
    async setUp(_fixture, cursors) {
      const handle = await cursors.createCursor("sub", { initialOffset: 5 });
      await handle.individualAck([{ offset: 7 }]);
      await cursors.raiseFloor();
    },
    run: (cursors) => cursors.resetCursor("sub", 1),
    async expectState(fixture, reopened, applied) {
      const root = await fixture.storedRoot("sub");
      const handle = reopened.get("sub");
      if (!applied) {
        expect(root).toMatchObject({ markDeleteOffset: 5, ackStateEpoch: 1 });
        expect(handle?.isAcked(7)).toBe(true);
        return;
      }
      expect(root).toMatchObject({ markDeleteOffset: 1, ackStateEpoch: 2, inlineRanges: [] });
      expect(handle?.isAcked(7)).toBe(false);
      expect(reopened.retention().protectedFloorOffset).toBe(1);
    },
  },
  {
    name: "trim",
    txns: 2,
    openTxns: 3,
    async setUp(_fixture, cursors) {
      await cursors.createCursor("sub", { initialOffset: 6 });
      await cursors.raiseFloor();
    },
    run: (cursors) => cursors.trim(6, "retention"),
    async expectState(fixture, reopened, applied) {
      const expected = applied ? 6 : 0;
      expect((await fixture.head()).trimOffset).toBe(expected);
      expect(reopened.retention().lastCompletedTrimOffset).toBe(expected);
    },
  },
];

async function expectOneCorrectState(
  fixture: StreamFixture,
  scenario: Scenario,
  crashed: StreamCursors,
  applied: boolean,
): Promise<void> {
  const reopened = await fixture.open();
  expect(reopened.retention()).toMatchObject({
    lifecycle: "ACTIVE",
    pendingProtection: undefined,
    pendingTrim: undefined,
  });
  await fixture.expectRetentionInvariant();
  await scenario.expectState(fixture, reopened, applied);
  // A second reopen finds nothing left to do and the same state.
  const again = await fixture.open();
  await scenario.expectState(fixture, again, applied);
  await expectNereusError(crashed.raiseFloor(), ErrorCode.CURSOR_FENCED);
}

describe.each(scenarios)("crash during $name", (scenario) => {
  it.each(crashPoints(scenario.txns))("at cursor transaction $txn ($when)", async (point) => {
    const fixture = await streamFixture(providers, 10);
    const cursors = await fixture.open();
    await scenario.setUp(fixture, cursors);
    fixture.crashAtTxn(point.txn, point.when);
    await expect(scenario.run(cursors)).rejects.toThrow();
    fixture.recover();
    await expectOneCorrectState(fixture, scenario, cursors, intentDurable(point));
  });

  it("while the next owner completes it at open, then completed by the one after", async () => {
    for (let openTxn = 1; openTxn <= scenario.openTxns; openTxn++) {
      const fixture = await streamFixture(providers, 10);
      const cursors = await fixture.open();
      await scenario.setUp(fixture, cursors);
      fixture.crashAtTxn(2, "before");
      await expect(scenario.run(cursors)).rejects.toThrow();
      fixture.recover();
      fixture.crashAtTxn(openTxn, "after");
      await expect(fixture.open()).rejects.toThrow();
      fixture.recover();
      await expectOneCorrectState(fixture, scenario, cursors, true);
    }
  });
});

describe("crash around the stream's own trim", () => {
  for (const moment of ["before the stream trim applies", "after the stream trim applied"] as const) {
    it(moment, async () => {
      const fixture = await streamFixture(providers, 10);
      const cursors = await fixture.open();
      await cursors.createCursor("sub", { initialOffset: 6 });
      await cursors.raiseFloor();
      const crash = (): Promise<void> => {
        fixture.crashNow();
        return Promise.reject(new Error("process died"));
      };
      if (moment === "before the stream trim applies") fixture.access.beforeTrim = crash;
      else fixture.access.afterTrim = crash;
      await expect(cursors.trim(6, "retention")).rejects.toThrow("process died");
      fixture.access.beforeTrim = undefined;
      fixture.access.afterTrim = undefined;
      fixture.recover();
      expect((await fixture.storedRetention())?.pendingTrim?.offset).toBe(6);
      const reopened = await fixture.open();
      expect((await fixture.head()).trimOffset).toBe(6);
      expect(reopened.retention()).toMatchObject({ lifecycle: "ACTIVE", lastCompletedTrimOffset: 6 });
      await fixture.expectRetentionInvariant();
    });
  }
});
