import { ErrorCode } from "@nereus/core";
import { expectNereusError, manualGate } from "@nereus/core/testing";
import { describe, expect, it } from "vitest";
import { streamFixture } from "./test-fixtures/stream-fixture.js";
import { memoryStreamProviders } from "../../test/memory-stream-providers.js";

const providers = memoryStreamProviders;

describe("StreamCursors: create, recreate, delete", () => {
  it("creates at latest by default, at earliest, at an offset, and clamps beyond the committed end", async () => {
    const fixture = await streamFixture(providers, 10);
    await fixture.streams.trim(fixture.streamId, 2);
    const cursors = await fixture.open();
    const positions = [
      ["latest", undefined, 10],
      ["earliest", "earliest", 2],
      ["middle", 5, 5],
      ["beyond", 99, 10],
    ] as const;
    for (const [name, initialOffset, expected] of positions) {
      const handle = await cursors.createCursor(name, { initialOffset });
      expect(handle.markDeleteOffset).toBe(expected);
      expect(handle.generation).toBe(1);
      expect(handle.ackStateEpoch).toBe(1);
      await fixture.expectRetentionInvariant();
    }
    expect(cursors.list().map((handle) => handle.name)).toEqual(["beyond", "earliest", "latest", "middle"]);
    const stored = await fixture.storedRoot("middle");
    expect(stored).toMatchObject({ lifecycle: "ACTIVE", mutationSequence: 1, ownerSessionId: cursors.ownerSessionId });
    expect(stored?.lastProtectionAttemptId).toMatch(/^[0-9a-f]{32}$/);
    expect(cursors.retention()).toMatchObject({ lifecycle: "ACTIVE", protectedFloorOffset: 2 });
  });

  it("lowers the floor for a cursor created below it", async () => {
    const fixture = await streamFixture(providers, 10);
    const cursors = await fixture.open();
    await cursors.raiseFloor();
    expect(cursors.retention().protectedFloorOffset).toBe(10);
    await cursors.createCursor("late", { initialOffset: 4 });
    expect(cursors.retention().protectedFloorOffset).toBe(4);
    await fixture.expectRetentionInvariant();
  });

  it("keeps the cursor properties it was created with", async () => {
    const fixture = await streamFixture(providers, 1);
    const cursors = await fixture.open();
    const handle = await cursors.createCursor("sub", { properties: new Map([["team", "a"]]) });
    expect(handle.cursorProperties).toEqual(new Map([["team", "a"]]));
    expect((await fixture.open()).get("sub")?.cursorProperties).toEqual(new Map([["team", "a"]]));
  });

  it("refuses bad input before any I/O, an existing name, and a start below the trim", async () => {
    const fixture = await streamFixture(providers, 10);
    await fixture.streams.trim(fixture.streamId, 3);
    const cursors = await fixture.open();
    await cursors.createCursor("sub");
    await expectNereusError(cursors.createCursor(""), ErrorCode.INVALID_ARGUMENT);
    await expectNereusError(cursors.createCursor("x", { initialOffset: -1 }), ErrorCode.INVALID_ARGUMENT);
    await expectNereusError(
      cursors.createCursor("x", { properties: new Map([["#nereus.internal", "v"]]) }),
      ErrorCode.INVALID_ARGUMENT,
    );
    await expectNereusError(cursors.createCursor("sub"), ErrorCode.CURSOR_ALREADY_EXISTS);
    await expectNereusError(cursors.createCursor("x", { initialOffset: 2 }), ErrorCode.OFFSET_TRIMMED);
    expect(await fixture.storedRoot("x")).toBeUndefined();
    await fixture.expectRetentionInvariant();
  });

  it("deletes to a tombstone and recreates it with generation + 1 and epoch 1", async () => {
    const fixture = await streamFixture(providers, 10);
    const cursors = await fixture.open();
    const handle = await cursors.createCursor("sub", { initialOffset: 0 });
    await handle.cumulativeAck(3);
    await handle.resetForward(6);
    await cursors.deleteCursor("sub");
    expect(cursors.get("sub")).toBeUndefined();
    expect(cursors.list()).toEqual([]);
    expect(await fixture.storedRoot("sub")).toMatchObject({
      lifecycle: "DELETED",
      cursorGeneration: 1,
      ackStateEpoch: 2,
      markDeleteOffset: 6,
    });
    await expectNereusError(cursors.deleteCursor("sub"), ErrorCode.CURSOR_NOT_FOUND);
    await expectNereusError(handle.cumulativeAck(8), ErrorCode.STORAGE_CLOSED);
    await fixture.expectRetentionInvariant();

    const recreated = await cursors.createCursor("sub", { initialOffset: 1 });
    expect(recreated).not.toBe(handle);
    expect(recreated).toMatchObject({ generation: 2, ackStateEpoch: 1, markDeleteOffset: 1 });
    const stored = await fixture.storedRoot("sub");
    expect(stored).toMatchObject({ lifecycle: "ACTIVE", cursorGeneration: 2, mutationSequence: 5 });
    await fixture.expectRetentionInvariant();
    expect((await fixture.open()).get("sub")).toMatchObject({ generation: 2, markDeleteOffset: 1 });
  });

  it("caps the cursor records of a stream, tombstones included", async () => {
    const fixture = await streamFixture(providers, 1);
    const cursors = await fixture.open({ maxCursorsPerStream: 2 });
    await cursors.createCursor("a");
    await cursors.createCursor("b");
    await cursors.deleteCursor("b");
    await expectNereusError(cursors.createCursor("c"), ErrorCode.METADATA_LIMIT_EXCEEDED);
    await cursors.createCursor("b");
    expect(cursors.list().map((handle) => handle.name)).toEqual(["a", "b"]);
  });
});

describe("StreamCursors: reset", () => {
  it("resets forward with one root CAS and no retention change", async () => {
    const fixture = await streamFixture(providers, 10);
    const cursors = await fixture.open();
    const handle = await cursors.createCursor("sub", { initialOffset: 2 });
    await handle.individualAck([{ offset: 4 }]);
    const before = cursors.retention();
    expect(await cursors.resetCursor("sub", 7)).toEqual({ alreadyApplied: false });
    expect(handle).toMatchObject({ markDeleteOffset: 7, ackStateEpoch: 2 });
    expect(cursors.retention()).toEqual(before);
    await fixture.expectRetentionInvariant();
  });

  it("resets backward through the protection: floor lowered, attempt recorded, epoch + 1", async () => {
    const fixture = await streamFixture(providers, 10);
    const cursors = await fixture.open();
    const handle = await cursors.createCursor("sub", { initialOffset: 8 });
    const createdAttempt = (await fixture.storedRoot("sub"))?.lastProtectionAttemptId;
    await cursors.raiseFloor();
    expect(cursors.retention().protectedFloorOffset).toBe(8);
    const partial = { batchSize: 4, remaining: [0b1100n] };
    await cursors.resetCursor("sub", 3, { partial });
    expect(handle).toMatchObject({ markDeleteOffset: 3, ackStateEpoch: 2 });
    expect(handle.isAcked(3, 0)).toBe(true);
    expect(handle.isAcked(3, 2)).toBe(false);
    expect(handle.readPosition).toBe(3);
    expect(cursors.retention()).toMatchObject({ lifecycle: "ACTIVE", protectedFloorOffset: 3 });
    const stored = await fixture.storedRoot("sub");
    expect(stored?.inlinePartials).toEqual([{ offset: 3, batchSize: 4, remaining: [0b1100n] }]);
    expect(stored?.lastProtectionAttemptId).toMatch(/^[0-9a-f]{32}$/);
    expect(stored?.lastProtectionAttemptId).not.toBe(createdAttempt);
    await fixture.expectRetentionInvariant();
    await handle.cumulativeAck(4);
    expect(handle.markDeleteOffset).toBe(5);
  });

  it("refuses a reset below the stream's trim and a partial beyond the end; clamps a target beyond the end", async () => {
    const fixture = await streamFixture(providers, 10);
    const cursors = await fixture.open();
    await cursors.createCursor("sub", { initialOffset: 6 });
    await cursors.raiseFloor();
    await cursors.trim(5, "retention");
    await expectNereusError(cursors.resetCursor("sub", 4), ErrorCode.OFFSET_TRIMMED);
    await expectNereusError(
      cursors.resetCursor("sub", 10, { partial: { batchSize: 2, remaining: [1n] } }),
      ErrorCode.INVALID_ARGUMENT,
    );
    await expectNereusError(cursors.resetCursor("missing", 6), ErrorCode.CURSOR_NOT_FOUND);
    await cursors.resetCursor("sub", 50);
    expect(cursors.get("sub")?.markDeleteOffset).toBe(10);
    await fixture.expectRetentionInvariant();
  });

  it("gives up a protection when the stream was trimmed above the target after the intent, keeping it ACTIVE", async () => {
    const fixture = await streamFixture(providers, 10);
    const cursors = await fixture.open();
    await cursors.createCursor("sub", { initialOffset: 8 });
    let heads = 0;
    // The head read after the intent reports a trim above the target (someone else trimmed).
    fixture.access.mapHead = (head) => (++heads === 2 ? { ...head, trimOffset: 5 } : head);
    await expectNereusError(cursors.resetCursor("sub", 3), ErrorCode.OFFSET_TRIMMED);
    fixture.access.mapHead = undefined;
    expect(cursors.get("sub")?.markDeleteOffset).toBe(8);
    expect(cursors.retention()).toMatchObject({ lifecycle: "ACTIVE", pendingProtection: undefined });
    await fixture.expectRetentionInvariant();
  });
});

describe("StreamCursors: floor raise and trim", () => {
  it("raises the floor to the lowest ACTIVE cursor and trims up to it", async () => {
    const fixture = await streamFixture(providers, 10);
    const cursors = await fixture.open();
    const slow = await cursors.createCursor("slow", { initialOffset: 0 });
    const fast = await cursors.createCursor("fast", { initialOffset: 0 });
    await slow.cumulativeAck(3);
    await fast.cumulativeAck(8);
    expect(await cursors.raiseFloor()).toMatchObject({ protectedFloorOffset: 4, lastCompletedTrimOffset: 0 });
    await fixture.expectRetentionInvariant();
    await expectNereusError(cursors.trim(5, "too far"), ErrorCode.INVALID_ARGUMENT);
    const trimmed = await cursors.trim(4, "retention");
    expect(trimmed).toMatchObject({ lifecycle: "ACTIVE", lastCompletedTrimOffset: 4, pendingTrim: undefined });
    expect((await fixture.head()).trimOffset).toBe(4);
    await fixture.expectRetentionInvariant();
    // At or below the last completed trim: nothing happens.
    const trims = fixture.access.trims;
    expect(await cursors.trim(2, "again")).toEqual(trimmed);
    expect(fixture.access.trims).toBe(trims);
    // Deleting the slow cursor lets the floor follow the fast one.
    await cursors.deleteCursor("slow");
    expect((await cursors.raiseFloor()).protectedFloorOffset).toBe(9);
    await cursors.trim(9, "retention");
    await fixture.expectRetentionInvariant();
  });

  it("raises the floor to the committed end when the stream has no cursor; never lowers it", async () => {
    const fixture = await streamFixture(providers, 7);
    const cursors = await fixture.open();
    expect((await cursors.raiseFloor()).protectedFloorOffset).toBe(7);
    const again = await cursors.raiseFloor();
    expect(again.mutationSequence).toBe(cursors.retention().mutationSequence);
    await fixture.expectRetentionInvariant();
  });

  it("refuses a trim beyond the committed end and bad arguments", async () => {
    const fixture = await streamFixture(providers, 3);
    const cursors = await fixture.open();
    await cursors.raiseFloor();
    await expectNereusError(cursors.trim(-1, "x"), ErrorCode.INVALID_ARGUMENT);
    await expectNereusError(cursors.trim(1, 7 as unknown as string), ErrorCode.INVALID_ARGUMENT);
    await expectNereusError(cursors.trim(4, "x"), ErrorCode.INVALID_ARGUMENT);
    await fixture.expectRetentionInvariant();
  });
});

describe("StreamCursors: busy states", () => {
  it("a trim in flight makes other retention transitions fail CURSOR_BUSY; acks and forward moves go on", async () => {
    const fixture = await streamFixture(providers, 10);
    const cursors = await fixture.open();
    const handle = await cursors.createCursor("sub", { initialOffset: 5 });
    await cursors.raiseFloor();
    const gate = manualGate();
    fixture.access.beforeTrim = () => gate.promise;
    const trim = cursors.trim(5, "retention");
    await vitestTick();
    expect((await fixture.storedRetention())?.lifecycle).toBe("TRIM_PENDING");
    const busy = await expectNereusError(cursors.createCursor("other"), ErrorCode.CURSOR_BUSY);
    expect(busy.retryable).toBe(true);
    await expectNereusError(cursors.raiseFloor(), ErrorCode.CURSOR_BUSY);
    await expectNereusError(cursors.resetCursor("sub", 5 - 1), ErrorCode.CURSOR_BUSY);
    await expectNereusError(cursors.trim(5, "again"), ErrorCode.CURSOR_BUSY);
    await handle.cumulativeAck(6);
    await cursors.resetCursor("sub", 8);
    gate.resolve();
    expect(await trim).toMatchObject({ lifecycle: "ACTIVE", lastCompletedTrimOffset: 5 });
    await cursors.createCursor("other", { initialOffset: 5 });
    await fixture.expectRetentionInvariant();
  });

  it("a protection in flight blocks trims and other protections", async () => {
    const fixture = await streamFixture(providers, 10);
    const cursors = await fixture.open();
    await cursors.raiseFloor();
    const gate = manualGate();
    let held = false;
    const original = fixture.access.getHead.bind(fixture.access);
    fixture.access.getHead = async (streamId, options) => {
      if (!held && (await fixture.storedRetention())?.lifecycle === "PROTECTION_PENDING") {
        held = true;
        await gate.promise;
      }
      return original(streamId, options);
    };
    const create = cursors.createCursor("sub", { initialOffset: 2 });
    await waitFor(() => held);
    await expectNereusError(cursors.trim(1, "x"), ErrorCode.CURSOR_BUSY);
    await expectNereusError(cursors.createCursor("other"), ErrorCode.CURSOR_BUSY);
    gate.resolve();
    expect((await create).markDeleteOffset).toBe(2);
    await fixture.expectRetentionInvariant();
  });

  it("a pending trim left by a failed call is completed before the next transition", async () => {
    const fixture = await streamFixture(providers, 10);
    const cursors = await fixture.open();
    await cursors.raiseFloor();
    fixture.access.beforeTrim = () => Promise.reject(new Error("stream store unreachable"));
    await expect(cursors.trim(6, "retention")).rejects.toThrow("stream store unreachable");
    fixture.access.beforeTrim = undefined;
    expect((await fixture.storedRetention())?.pendingTrim?.offset).toBe(6);
    await expectNereusError(cursors.createCursor("sub", { initialOffset: 3 }), ErrorCode.OFFSET_TRIMMED);
    expect((await fixture.head()).trimOffset).toBe(6);
    expect(cursors.retention()).toMatchObject({ lifecycle: "ACTIVE", lastCompletedTrimOffset: 6 });
    await cursors.createCursor("sub", { initialOffset: 6 });
    await fixture.expectRetentionInvariant();
  });

  it("a pending protection left by a failed call is completed before the next transition", async () => {
    const fixture = await streamFixture(providers, 10);
    const cursors = await fixture.open();
    fixture.crashAtTxn(2, "before");
    await expectNereusError(cursors.createCursor("sub", { initialOffset: 4 }), ErrorCode.METADATA_UNAVAILABLE);
    fixture.recover();
    expect(cursors.get("sub")).toBeUndefined();
    expect((await fixture.storedRetention())?.lifecycle).toBe("PROTECTION_PENDING");
    await cursors.raiseFloor();
    expect(cursors.get("sub")?.markDeleteOffset).toBe(4);
    expect(cursors.retention()).toMatchObject({ lifecycle: "ACTIVE", protectedFloorOffset: 4 });
    await fixture.expectRetentionInvariant();
  });
});

describe("StreamCursors: a backward reset left pending", () => {
  it("is completed through the cursor's handle before the next transition", async () => {
    const fixture = await streamFixture(providers, 10);
    const cursors = await fixture.open();
    const handle = await cursors.createCursor("sub", { initialOffset: 8 });
    await cursors.raiseFloor();
    fixture.crashAtTxn(2, "before");
    await expectNereusError(cursors.resetCursor("sub", 3), ErrorCode.METADATA_UNAVAILABLE);
    fixture.recover();
    expect(handle.markDeleteOffset).toBe(8);
    await cursors.raiseFloor();
    expect(cursors.get("sub")).toBe(handle);
    expect(handle).toMatchObject({ markDeleteOffset: 3, ackStateEpoch: 2 });
    expect(cursors.retention()).toMatchObject({ lifecycle: "ACTIVE", protectedFloorOffset: 3 });
    await handle.cumulativeAck(5);
    expect((await fixture.storedRoot("sub"))?.markDeleteOffset).toBe(6);
    await fixture.expectRetentionInvariant();
  });
});

describe("StreamCursors: lost answers", () => {
  it("resolves a lost answer of every transaction by reading back, and goes on", async () => {
    const fixture = await streamFixture(providers, 10);
    const cursors = await fixture.open();
    fixture.metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", times: 3 });
    const handle = await cursors.createCursor("sub", { initialOffset: 2 });
    expect(handle.markDeleteOffset).toBe(2);
    fixture.metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", times: 3 });
    await cursors.raiseFloor();
    await cursors.trim(2, "retention");
    await cursors.deleteCursor("sub");
    expect(cursors.retention()).toMatchObject({ lifecycle: "ACTIVE", lastCompletedTrimOffset: 2 });
    expect(await fixture.storedRetention()).toEqual(cursors.retention());
    await fixture.expectRetentionInvariant();
  });

  it("reads the retention record back after a write whose outcome stayed unknown", async () => {
    const fixture = await streamFixture(providers, 10);
    const cursors = await fixture.open();
    await cursors.raiseFloor();
    fixture.crashAtTxn(1, "after");
    await expectNereusError(cursors.trim(7, "retention"), ErrorCode.METADATA_UNAVAILABLE);
    fixture.recover();
    expect(cursors.retention().lifecycle).toBe("ACTIVE");
    expect((await fixture.storedRetention())?.lifecycle).toBe("TRIM_PENDING");
    await cursors.raiseFloor();
    expect((await fixture.head()).trimOffset).toBe(7);
    expect(cursors.retention()).toMatchObject({ lifecycle: "ACTIVE", lastCompletedTrimOffset: 7 });
    await fixture.expectRetentionInvariant();
  });
});

describe("StreamCursors: owner fencing", () => {
  it("a second open fences every mutation of the first", async () => {
    const fixture = await streamFixture(providers, 10);
    const first = await fixture.open();
    const handle = await first.createCursor("sub", { initialOffset: 0 });
    await first.createCursor("other", { initialOffset: 0 });
    const second = await fixture.open();

    await expectNereusError(handle.cumulativeAck(3), ErrorCode.CURSOR_FENCED);
    await expectNereusError(first.createCursor("new"), ErrorCode.CURSOR_FENCED);
    await expectNereusError(first.deleteCursor("other"), ErrorCode.CURSOR_FENCED);
    await expectNereusError(first.trim(0, "x"), ErrorCode.CURSOR_FENCED);
    await expectNereusError(first.raiseFloor(), ErrorCode.CURSOR_FENCED);

    const current = second.get("sub");
    await current?.cumulativeAck(3);
    await second.deleteCursor("other");
    await second.raiseFloor();
    await second.trim(4, "retention");
    expect(await fixture.storedRoot("sub")).toMatchObject({
      markDeleteOffset: 4,
      ownerSessionId: second.ownerSessionId,
    });
    expect(await fixture.storedRoot("other")).toMatchObject({ lifecycle: "DELETED" });
    await fixture.expectRetentionInvariant();
  });

  it("close refuses further operations", async () => {
    const fixture = await streamFixture(providers, 1);
    const store = fixture.cursorStore();
    const cursors = await store.openStream(fixture.streamId);
    await store.close();
    await expectNereusError(cursors.createCursor("sub"), ErrorCode.STORAGE_CLOSED);
  });
});

function vitestTick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 10));
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 500 && !condition(); attempt++) await vitestTick();
  expect(condition()).toBe(true);
}
