import { ErrorCode } from "@nereus/core";
import { InMemoryMetadataStore, InMemoryObjectStore, expectNereusError } from "@nereus/core/testing";
import type { CursorLimits } from "../store/cursor-store-options.js";
import { describe, expect, it } from "vitest";
import { cursorNameHash, cursorRootKey } from "../keys/cursor-keys.js";
import { cursorStateCodec } from "../records/cursor-state-codec.js";
import { ownedTxn } from "../store/owner-context.js";
import { deletedCursorRecord } from "./cursor-record-transforms.js";
import { hydratedCursorOf } from "./hydrated-cursor.js";
import {
  CLUSTER,
  FIXTURE_COMMITTED_END,
  STREAM_ID,
  cursorFixture as fixtureOver,
} from "./test-fixtures/cursor-fixture.js";

function cursorFixture(limits: Partial<CursorLimits> = {}) {
  return fixtureOver({ metadata: new InMemoryMetadataStore(), objects: new InMemoryObjectStore() }, limits);
}

const whole = (offset: number) => ({ offset });

describe("CursorHandle acks", () => {
  it("acknowledges cumulatively and individually and reports what was already applied", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 10);
    const handle = await fixture.openHandle("sub");
    expect(handle.markDeleteOffset).toBe(10);
    expect(await handle.cumulativeAck(14)).toEqual({ alreadyApplied: false });
    expect(handle.markDeleteOffset).toBe(15);
    expect(await handle.cumulativeAck(12)).toEqual({ alreadyApplied: true });
    expect(await handle.individualAck([whole(17), whole(16)])).toEqual({ alreadyApplied: false });
    expect(await handle.individualAck([whole(16), whole(3)])).toEqual({ alreadyApplied: true });
    expect(handle.isAcked(16)).toBe(true);
    expect(handle.isAcked(18)).toBe(false);
    expect(handle.firstUnacked()).toBe(15);
    expect(handle.backlog(20)).toBe(3);
    expect(await handle.individualAck([whole(15)])).toEqual({ alreadyApplied: false });
    expect(handle.markDeleteOffset).toBe(18);
    const stored = await fixture.storedRoot("sub");
    expect(stored.root).toEqual(handle.state.root);
    expect(stored.modRevision).toBe(handle.state.modRevision);
  });

  it("refuses acks of entries at or beyond the committed end, alone, writing nothing for them", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    const before = await fixture.storedRoot("sub");
    await expectNereusError(handle.cumulativeAck(FIXTURE_COMMITTED_END), ErrorCode.INVALID_ARGUMENT);
    await expectNereusError(
      handle.individualAck([whole(5), whole(FIXTURE_COMMITTED_END + 7)]),
      ErrorCode.INVALID_ARGUMENT,
    );
    expect((await fixture.storedRoot("sub")).modRevision).toBe(before.modRevision);
    const [beyond, within] = await Promise.allSettled([
      handle.individualAck([whole(FIXTURE_COMMITTED_END)]),
      handle.individualAck([whole(FIXTURE_COMMITTED_END - 1)]),
    ]);
    expect(beyond.status).toBe("rejected");
    expect(within).toEqual({ status: "fulfilled", value: { alreadyApplied: false } });
    expect(handle.isAcked(FIXTURE_COMMITTED_END - 1)).toBe(true);
    expect(handle.isAcked(5)).toBe(false);
  });

  it("acknowledges batch indexes and keeps position properties with the mark-delete position", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    await handle.individualAck([{ offset: 3, batch: { batchSize: 4, remaining: [0b1100n] } }]);
    expect(handle.isAcked(3, 0)).toBe(true);
    expect(handle.isAcked(3, 2)).toBe(false);
    await handle.cumulativeAck(1, { positionProperties: new Map([["ledger", 7n]]) });
    expect(handle.positionProperties).toEqual(new Map([["ledger", 7n]]));
    expect(await handle.cumulativeAck(1, { positionProperties: new Map([["ledger", 8n]]) })).toEqual({
      alreadyApplied: false,
    });
    expect(handle.positionProperties).toEqual(new Map([["ledger", 8n]]));
    expect(await handle.cumulativeAck(0, { positionProperties: new Map([["ledger", 9n]]) })).toEqual({
      alreadyApplied: true,
    });
    expect((await fixture.storedRoot("sub")).root.positionProperties).toEqual(new Map([["ledger", 8n]]));
  });

  it("commits 1,000 concurrent individual acks in a handful of CAS, each caller learning its own outcome", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    const acks = Array.from({ length: 1000 }, (_, index) => handle.individualAck([whole(2 * index + 1)]));
    const duplicate = handle.individualAck([whole(1)]);
    const results = await Promise.all(acks);
    expect(results.every((result) => !result.alreadyApplied)).toBe(true);
    expect(await duplicate).toEqual({ alreadyApplied: true });
    expect(fixture.counters.casAttempts).toBeLessThanOrEqual(3);
    expect(fixture.counters.acksCommitted).toBe(1000);
    expect(handle.backlog(2000)).toBe(1000);
    const reopened = await fixture.openHandle("sub");
    for (let offset = 0; offset < 2000; offset++) expect(reopened.isAcked(offset)).toBe(offset % 2 === 1);
  });

  it("never puts more than maxAcksPerCas acks into one CAS", async () => {
    const fixture = await cursorFixture({ maxAcksPerCas: 100 });
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    await Promise.all(Array.from({ length: 1000 }, (_, index) => handle.individualAck([whole(2 * index + 1)])));
    expect(fixture.counters.casCommits).toBe(10);
  });

  it("refuses a request above maxAcksPerRequest, or a malformed one, before any I/O", async () => {
    const fixture = await cursorFixture({ maxAcksPerRequest: 3 });
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    const before = fixture.metadata.stats.roundTrips;
    await expectNereusError(handle.individualAck([1, 2, 3, 4].map(whole)), ErrorCode.INVALID_ARGUMENT);
    await expectNereusError(handle.individualAck([whole(-1)]), ErrorCode.INVALID_ARGUMENT);
    await expectNereusError(handle.cumulativeAck(1.5), ErrorCode.INVALID_ARGUMENT);
    await expectNereusError(
      handle.cumulativeAck(1, { partial: { batchSize: 2, remaining: [0b100n] } }),
      ErrorCode.INVALID_ARGUMENT,
    );
    await expectNereusError(handle.resetForward(-2), ErrorCode.INVALID_ARGUMENT);
    await expectNereusError(handle.replaceProperties(new Map([["#nereus.x", "y"]])), ErrorCode.INVALID_ARGUMENT);
    expect(fixture.metadata.stats.roundTrips).toBe(before);
  });

  it("fails one coalesced ack alone when the state refuses it", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    await handle.individualAck([{ offset: 5, batch: { batchSize: 4, remaining: [0b1110n] } }]);
    const [good, bad, later] = await Promise.allSettled([
      handle.individualAck([whole(7)]),
      handle.individualAck([{ offset: 5, batch: { batchSize: 8, remaining: [0b11111110n] } }]),
      handle.individualAck([whole(9)]),
    ]);
    expect(good.status).toBe("fulfilled");
    expect(bad.status === "rejected" && (bad.reason as { code: string }).code).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(later.status).toBe("fulfilled");
    expect(handle.isAcked(7) && handle.isAcked(9)).toBe(true);
  });
});

describe("CursorHandle epoch rule", () => {
  it("fails an ack queued behind a reset (never resurrected) unless the reset already covers it", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    const reset = handle.resetForward(50);
    const lateAbove = handle.individualAck([whole(60)]);
    const lateBelow = handle.individualAck([whole(20)]);
    expect(await reset).toEqual({ alreadyApplied: false });
    await expectNereusError(lateAbove, ErrorCode.CURSOR_STATE_CONFLICT);
    expect(await lateBelow).toEqual({ alreadyApplied: true });
    expect(handle.ackStateEpoch).toBe(2);
    expect(handle.isAcked(60)).toBe(false);
    expect((await fixture.storedRoot("sub")).view.inlineRanges).toEqual([]);
  });

  it("a stale handle's ack that lost its CAS to a reset fails with CURSOR_STATE_CONFLICT", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const stale = await fixture.openHandle("sub");
    const current = await fixture.openHandle("sub");
    await current.resetForward(100);
    await expectNereusError(stale.individualAck([whole(120)]), ErrorCode.CURSOR_STATE_CONFLICT);
    expect(await stale.cumulativeAck(80)).toEqual({ alreadyApplied: true });
    expect(stale.markDeleteOffset).toBe(100);
    const stored = await fixture.storedRoot("sub");
    expect(stored.root.ackStateEpoch).toBe(2);
    expect(stored.view.inlineRanges).toEqual([]);
  });

  it("reapplies an ack that lost its CAS to another ack under the same epoch", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const stale = await fixture.openHandle("sub");
    const current = await fixture.openHandle("sub");
    await current.individualAck([whole(5)]);
    expect(await stale.individualAck([whole(7)])).toEqual({ alreadyApplied: false });
    expect(await stale.individualAck([whole(5)])).toEqual({ alreadyApplied: true });
    const stored = await fixture.storedRoot("sub");
    expect(stored.view.inlineRanges).toEqual([
      { start: 5, end: 6 },
      { start: 7, end: 8 },
    ]);
    expect(fixture.counters.casConflicts).toBe(1);
  });

  it("clears the backlog to the committed end with a new epoch", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    await handle.individualAck([whole(3), whole(40)]);
    await handle.clearBacklog(30);
    expect(handle.markDeleteOffset).toBe(30);
    expect(handle.ackStateEpoch).toBe(2);
    expect(handle.isAcked(40)).toBe(false);
    expect(handle.backlog(35)).toBe(5);
  });

  it("refuses a forward reset below the mark-delete offset", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 10);
    const handle = await fixture.openHandle("sub");
    await expectNereusError(handle.resetForward(5), ErrorCode.INVALID_ARGUMENT);
    expect(handle.ackStateEpoch).toBe(1);
  });
});

describe("CursorHandle skip, properties and dispatch position", () => {
  it("skips entries counting or not counting the individually acknowledged ones", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    await handle.individualAck([whole(2), whole(3)]);
    await handle.skip(3, { committedEnd: 100 });
    expect(handle.markDeleteOffset).toBe(5);
    await handle.skip(3, { committedEnd: 100, countIndividuallyAcked: true });
    expect(handle.markDeleteOffset).toBe(8);
    expect(await handle.skip(5, { committedEnd: 8 })).toEqual({ alreadyApplied: true });
  });

  it("replaces cursor properties keeping the internal ones, and conflicts with another writer", async () => {
    const fixture = await cursorFixture();
    const created = await fixture.createCursor("sub", 0);
    const key = cursorRootKey(CLUSTER, STREAM_ID, cursorNameHash("sub"));
    const withInternal = {
      ...created.root,
      mutationSequence: 2,
      cursorProperties: new Map([
        ["#nereus.kind", "durable"],
        ["a", "1"],
      ]),
    };
    await ownedTxn(fixture.owner, {
      compares: [{ key, modRevision: created.modRevision }],
      writes: [{ type: "put", key, value: cursorStateCodec.encode(withInternal) }],
    });
    const stale = await fixture.openHandle("sub");
    const current = await fixture.openHandle("sub");
    expect(await current.replaceProperties(new Map([["b", "2"]]))).toEqual({ alreadyApplied: false });
    expect(current.cursorProperties).toEqual(
      new Map([
        ["#nereus.kind", "durable"],
        ["b", "2"],
      ]),
    );
    await expectNereusError(stale.replaceProperties(new Map([["c", "3"]])), ErrorCode.CURSOR_STATE_CONFLICT);
    expect(await stale.replaceProperties(new Map([["b", "2"]]))).toEqual({ alreadyApplied: true });
  });

  it("keeps a process-local read position that starts at firstUnacked and follows acks and resets", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 4);
    const handle = await fixture.openHandle("sub");
    expect(handle.readPosition).toBe(4);
    expect(handle.seekLocal(2)).toBe(4);
    expect(handle.seekLocal(30)).toBe(30);
    await handle.cumulativeAck(9);
    expect(handle.readPosition).toBe(30);
    await handle.cumulativeAck(39);
    expect(handle.readPosition).toBe(40);
    await handle.resetForward(45);
    handle.seekLocal(60);
    await handle.resetForward(50);
    expect(handle.readPosition).toBe(50);
    const rootBefore = (await fixture.storedRoot("sub")).root;
    handle.seekLocal(70);
    expect((await fixture.storedRoot("sub")).root).toEqual(rootBefore);
  });
});

describe("CursorHandle lifecycle and fencing", () => {
  it("fails every mutation with CURSOR_FENCED once another session claimed the stream", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const mutations = [
      (h: Awaited<ReturnType<typeof fixture.openHandle>>) => h.cumulativeAck(5),
      (h: Awaited<ReturnType<typeof fixture.openHandle>>) => h.individualAck([whole(9)]),
      (h: Awaited<ReturnType<typeof fixture.openHandle>>) => h.skip(2, { committedEnd: 100 }),
      (h: Awaited<ReturnType<typeof fixture.openHandle>>) => h.resetForward(20),
      (h: Awaited<ReturnType<typeof fixture.openHandle>>) => h.clearBacklog(50),
      (h: Awaited<ReturnType<typeof fixture.openHandle>>) => h.replaceProperties(new Map([["x", "y"]])),
    ];
    const handles = await Promise.all(mutations.map(() => fixture.openHandle("sub")));
    const before = (await fixture.storedRoot("sub")).root;
    await fixture.claimByAnotherSession();
    for (const [index, mutate] of mutations.entries()) {
      const handle = handles[index]!;
      await expectNereusError(mutate(handle), ErrorCode.CURSOR_FENCED);
      // Sticky: even a mutation that would change nothing fails now.
      await expectNereusError(handle.cumulativeAck(0), ErrorCode.CURSOR_FENCED);
    }
    expect((await fixture.storedRoot("sub")).root).toEqual(before);
  });

  it("runs a protected transition in the lane and adopts its result (delete ⇒ CURSOR_NOT_FOUND)", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    const key = cursorRootKey(CLUSTER, STREAM_ID, handle.cursorNameHash);
    const queuedAck = handle.individualAck([whole(3)]);
    const deleted = handle.runExclusive(async (current) => {
      expect(current.view.inlineRanges).toEqual([{ start: 3, end: 4 }]);
      const tombstone = deletedCursorRecord(current.root, fixture.env.now());
      const result = await ownedTxn(fixture.owner, {
        compares: [{ key, modRevision: current.modRevision }],
        writes: [{ type: "put", key, value: cursorStateCodec.encode(tombstone) }],
      });
      if (!result.succeeded) throw new Error("lost");
      return hydratedCursorOf(tombstone, result.revision);
    });
    await queuedAck;
    expect((await deleted).root.lifecycle).toBe("DELETED");
    expect(handle.lifecycle).toBe("DELETED");
    await expectNereusError(handle.individualAck([whole(4)]), ErrorCode.CURSOR_NOT_FOUND);
  });

  it("a handle of a cursor deleted elsewhere learns it on its next write", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    const other = await fixture.openHandle("sub");
    await other.runExclusive(async (current) => {
      const key = cursorRootKey(CLUSTER, STREAM_ID, current.root.cursorNameHash);
      const tombstone = deletedCursorRecord(current.root, fixture.env.now());
      const result = await ownedTxn(fixture.owner, {
        compares: [{ key, modRevision: current.modRevision }],
        writes: [{ type: "put", key, value: cursorStateCodec.encode(tombstone) }],
      });
      if (!result.succeeded) throw new Error("lost");
      return hydratedCursorOf(tombstone, result.revision);
    });
    await expectNereusError(handle.cumulativeAck(3), ErrorCode.CURSOR_NOT_FOUND);
    await expectNereusError(handle.resetForward(3), ErrorCode.CURSOR_NOT_FOUND);
  });

  it("refuses new mutations once closed, after finishing the queued ones", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    const queued = handle.cumulativeAck(3);
    await handle.close();
    expect(await queued).toEqual({ alreadyApplied: false });
    await expectNereusError(handle.cumulativeAck(4), ErrorCode.STORAGE_CLOSED);
  });
});
