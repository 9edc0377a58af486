import { ErrorCode } from "@nereus/core";
import { expectNereusError } from "@nereus/core/testing";
import { describe, expect, it } from "vitest";
import { newCursorRecord } from "../cursor/cursor-record-transforms.js";
import { cursorNameHash, cursorRetentionKey, cursorRootKey } from "../keys/cursor-keys.js";
import { cursorRetentionCodec } from "../records/cursor-retention-codec.js";
import { cursorStateCodec } from "../records/cursor-state-codec.js";
import { CLUSTER, streamFixture } from "./test-fixtures/stream-fixture.js";
import { memoryStreamProviders } from "../../test/memory-stream-providers.js";

const providers = memoryStreamProviders;

describe("writable open", () => {
  it("bootstraps a stream without cursors: owner claimed, retention ACTIVE at the stream's trim", async () => {
    const fixture = await streamFixture(providers, 10);
    await fixture.streams.trim(fixture.streamId, 3);
    const cursors = await fixture.open();
    expect(await fixture.storedOwner()).toMatchObject({ ownerSessionId: cursors.ownerSessionId, claimSequence: 1 });
    expect(cursors.retention()).toMatchObject({
      lifecycle: "ACTIVE",
      ownerSessionId: cursors.ownerSessionId,
      protectedFloorOffset: 3,
      lastCompletedTrimOffset: 3,
      mutationSequence: 1,
    });
    expect(await fixture.storedRetention()).toEqual(cursors.retention());
    expect(cursors.list()).toEqual([]);
    await fixture.expectRetentionInvariant();
  });

  it("claims again on every open: new session, claimSequence + 1, retention written by the new owner", async () => {
    const fixture = await streamFixture(providers, 4);
    const first = await fixture.open();
    await first.createCursor("sub", { initialOffset: 2 });
    const second = await fixture.open();
    expect(second.ownerSessionId).not.toBe(first.ownerSessionId);
    expect(await fixture.storedOwner()).toMatchObject({ ownerSessionId: second.ownerSessionId, claimSequence: 2 });
    expect(second.retention().ownerSessionId).toBe(second.ownerSessionId);
    expect(second.retention().mutationSequence).toBe(first.retention().mutationSequence + 1);
    expect(second.list().map((handle) => [handle.name, handle.markDeleteOffset])).toEqual([["sub", 2]]);
    await fixture.expectRetentionInvariant();
  });

  it("hydrates cursors whose state lives in a snapshot, and keeps tombstones", async () => {
    const fixture = await streamFixture(providers, 40);
    const limits = { minInlineItems: 1, maxInlineItems: 2 };
    const first = await fixture.open(limits);
    const handle = await first.createCursor("sub", { initialOffset: 0 });
    for (const offset of [3, 5, 7, 9, 11]) await handle.individualAck([{ offset }]);
    await first.createCursor("gone");
    await first.deleteCursor("gone");
    expect((await fixture.storedRoot("sub"))?.snapshot).toBeDefined();

    const second = await fixture.open(limits);
    const reopened = second.get("sub");
    expect(reopened?.isAcked(9)).toBe(true);
    expect(reopened?.isAcked(10)).toBe(false);
    expect(reopened?.firstUnacked()).toBe(0);
    expect(second.get("gone")).toBeUndefined();
    expect(second.list().map((cursor) => cursor.name)).toEqual(["sub"]);
    await fixture.expectRetentionInvariant();
  });

  it("refuses a missing stream and a deleted one", async () => {
    const fixture = await streamFixture(providers);
    await expectNereusError(fixture.cursorStore().openStream("no-such-stream"), ErrorCode.STREAM_NOT_FOUND);
    await fixture.streams.delete(fixture.streamId);
    await expectNereusError(fixture.open(), ErrorCode.STREAM_NOT_ACTIVE);
  });

  it("opens a SEALED stream", async () => {
    const fixture = await streamFixture(providers, 2);
    await fixture.streams.seal(fixture.streamId);
    const cursors = await fixture.open();
    await cursors.createCursor("sub");
    await fixture.expectRetentionInvariant();
  });

  it("fails on cursor roots without a retention record", async () => {
    const fixture = await streamFixture(providers, 2);
    const hash = cursorNameHash("orphan");
    const root = newCursorRecord(
      { streamId: fixture.streamId, cursorName: "orphan", cursorNameHash: hash },
      { ownerSessionId: "0".repeat(32), markDeleteOffset: 0, attemptId: "", now: 1 },
    );
    await fixture.inner.txn({
      compares: [],
      writes: [
        { type: "put", key: cursorRootKey(CLUSTER, fixture.streamId, hash), value: cursorStateCodec.encode(root) },
      ],
    });
    await expectNereusError(fixture.open(), ErrorCode.METADATA_INVARIANT_VIOLATION);
  });

  it("fails when the stream was trimmed past the last completed trim", async () => {
    const fixture = await streamFixture(providers, 6);
    await fixture.open();
    await fixture.streams.trim(fixture.streamId, 2);
    await expectNereusError(fixture.open(), ErrorCode.METADATA_INVARIANT_VIOLATION);
  });

  it("fails when an ACTIVE cursor is below the protected floor", async () => {
    const fixture = await streamFixture(providers, 6);
    const cursors = await fixture.open();
    await cursors.createCursor("sub", { initialOffset: 1 });
    const key = cursorRetentionKey(CLUSTER, fixture.streamId);
    const stored = await fixture.inner.get(key);
    if (stored === undefined) throw new Error("no retention record");
    const raised = { ...cursorRetentionCodec.decode(stored.value, key), protectedFloorOffset: 4 };
    await fixture.inner.txn({
      compares: [],
      writes: [{ type: "put", key, value: cursorRetentionCodec.encode(raised) }],
    });
    await expectNereusError(fixture.open(), ErrorCode.METADATA_INVARIANT_VIOLATION);
  });
});
