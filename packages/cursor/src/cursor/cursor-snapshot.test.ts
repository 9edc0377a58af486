import { ErrorCode } from "@nereus/core";
import { InMemoryMetadataStore, InMemoryObjectStore, expectNereusError } from "@nereus/core/testing";
import { describe, expect, it, vi } from "vitest";
import { cursorNameHash } from "../keys/cursor-keys.js";
import { publishSnapshot } from "../snapshot/publish-snapshot.js";
import type { CursorLimits } from "../store/cursor-store-options.js";
import type { CursorHandle } from "./cursor-handle.js";
import { hydrateCursor } from "./hydrate-cursor.js";
import { cursorFixture as fixtureOver } from "./test-fixtures/cursor-fixture.js";

/** Small inline limits, so a few acks spill. */
const SPILLY: Partial<CursorLimits> = { minInlineItems: 4, maxInlineItems: 8 };

function cursorFixture(limits: Partial<CursorLimits> = SPILLY) {
  return fixtureOver({ metadata: new InMemoryMetadataStore(), objects: new InMemoryObjectStore() }, limits);
}

/** Whole acks of every third entry in [from, to), and a partial ack at every entry ≡ 1 (mod 7). */
async function ackPattern(handle: CursorHandle, from: number, to: number): Promise<void> {
  for (let offset = from; offset < to; offset++) {
    if (offset % 3 === 0) await handle.individualAck([{ offset }]);
    else if (offset % 7 === 1) await handle.individualAck([{ offset, batch: { batchSize: 3, remaining: [0b110n] } }]);
  }
}

function expectSameAckState(left: CursorHandle, right: CursorHandle, to: number): void {
  expect(right.markDeleteOffset).toBe(left.markDeleteOffset);
  expect(right.firstUnacked()).toBe(left.firstUnacked());
  expect(right.backlog(to)).toBe(left.backlog(to));
  for (let offset = 0; offset < to; offset++) {
    expect(right.isAcked(offset)).toBe(left.isAcked(offset));
    expect(right.isAcked(offset, 0)).toBe(left.isAcked(offset, 0));
  }
}

async function corruptObject(objects: InMemoryObjectStore, key: string): Promise<void> {
  const bytes = await objects.get(key);
  const middle = Math.floor(bytes.length / 2);
  bytes[middle] = (bytes[middle] ?? 0) ^ 0x01;
  await objects.deleteMany([key]);
  await objects.putIfAbsent(key, bytes);
}

describe("cursor snapshots", () => {
  it("spills the inline state into a snapshot and a fresh handle hydrates the same state", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 2);
    const handle = await fixture.openHandle("sub");
    await ackPattern(handle, 2, 200);
    await handle.cumulativeAck(20);
    expect(fixture.counters.snapshotsWritten).toBeGreaterThan(1);
    const stored = await fixture.storedRoot("sub");
    expect(stored.root.snapshot).toBeDefined();
    expect(stored.root.inlineRanges.length + stored.root.inlinePartials.length).toBeLessThanOrEqual(8);
    const fresh = await fixture.openHandle("sub");
    expect(fresh.state.root).toEqual(handle.state.root);
    expectSameAckState(handle, fresh, 210);
  });

  it("keeps the decoded base while the reference is unchanged (no object read on reload)", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    await ackPattern(handle, 0, 60);
    expect(handle.state.root.snapshot).toBeDefined();
    const gets = fixture.objects.stats.gets;
    await handle.reload();
    await handle.individualAck([{ offset: 100 }]);
    expect(fixture.objects.stats.gets).toBe(gets);
  });

  it("drops the snapshot reference once markDelete passed everything in it", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    for (let offset = 1; offset < 40; offset += 2) await handle.individualAck([{ offset }]);
    expect(handle.state.root.snapshot).toBeDefined();
    await handle.cumulativeAck(100);
    expect(handle.state.root.snapshot).toBeUndefined();
    expect((await fixture.storedRoot("sub")).root.snapshot).toBeUndefined();
  });

  it("fails hydration with METADATA_INVARIANT_VIOLATION when the referenced snapshot is missing", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    await ackPattern(handle, 0, 60);
    const reference = handle.state.root.snapshot!;
    await fixture.objects.deleteMany([reference.objectKey]);
    await expectNereusError(
      hydrateCursor(fixture.owner, cursorNameHash("sub")),
      ErrorCode.METADATA_INVARIANT_VIOLATION,
    );
  });

  it("fails hydration with METADATA_INVARIANT_VIOLATION when the referenced snapshot is corrupt", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    await ackPattern(handle, 0, 60);
    await corruptObject(fixture.objects, handle.state.root.snapshot!.objectKey);
    const error = await expectNereusError(
      hydrateCursor(fixture.owner, cursorNameHash("sub")),
      ErrorCode.METADATA_INVARIANT_VIOLATION,
    );
    expect(error.retryable).toBe(false);
  });

  it("reads again through one corrupt read in transit, and fails retriably on a transient read error", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    await ackPattern(handle, 0, 60);
    fixture.objects.faults.add({ op: "get", mode: "corrupt-read" });
    const hydrated = await hydrateCursor(fixture.owner, cursorNameHash("sub"));
    expect(hydrated.root).toEqual(handle.state.root);
    fixture.objects.faults.add({ op: "get", mode: "fail-before-apply" });
    const error = await expectNereusError(
      hydrateCursor(fixture.owner, cursorNameHash("sub")),
      ErrorCode.OBJECT_READ_FAILED,
    );
    expect(error.retryable).toBe(true);
  });

  it("hydrates the newer root when the root moves while its snapshot is read", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const writer = await fixture.openHandle("sub");
    await ackPattern(writer, 0, 60);
    const realGet = fixture.objects.get.bind(fixture.objects);
    vi.spyOn(fixture.objects, "get").mockImplementationOnce(async (...args) => {
      const bytes = await realGet(...args);
      await ackPattern(writer, 60, 120);
      return bytes;
    });
    const hydrated = await hydrateCursor(fixture.owner, cursorNameHash("sub"));
    expect(hydrated.root).toEqual(writer.state.root);
    expect(hydrated.modRevision).toBe(writer.state.modRevision);
  });

  it("publishes under a new random id when the key is taken", async () => {
    const fixture = await cursorFixture();
    const created = await fixture.createCursor("sub", 0);
    const ids = ["a".repeat(32), "a".repeat(32), "b".repeat(32)];
    const first = await publishSnapshot(fixture.env, created.root, created.view, { newSnapshotId: () => ids.shift()! });
    const second = await publishSnapshot(fixture.env, created.root, created.view, {
      newSnapshotId: () => ids.shift()!,
    });
    expect(first.reference.snapshotId).toBe("a".repeat(32));
    expect(second.reference.snapshotId).toBe("b".repeat(32));
    const info = await fixture.objects.head(second.reference.objectKey);
    expect(info?.size).toBe(second.reference.sizeBytes);
  });

  it("ends in one consistent state when the response of a spilling CAS is lost", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    await ackPattern(handle, 0, 20);
    const written = fixture.counters.snapshotsWritten;
    fixture.metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", times: 3 });
    await ackPattern(handle, 20, 60);
    expect(fixture.counters.snapshotsWritten).toBeGreaterThan(written);
    const fresh = await fixture.openHandle("sub");
    expect(fresh.state.root).toEqual(handle.state.root);
    expectSameAckState(handle, fresh, 70);
  });

  it("leaves an orphan and keeps the state right when a spilling CAS loses to another writer", async () => {
    const fixture = await cursorFixture();
    await fixture.createCursor("sub", 0);
    const current = await fixture.openHandle("sub");
    await current.individualAck([2, 4, 6, 8].map((offset) => ({ offset })));
    const stale = await fixture.openHandle("sub");
    await current.individualAck([{ offset: 100 }]);
    expect(fixture.counters.snapshotsWritten).toBe(1);
    expect(await stale.individualAck([{ offset: 200 }])).toEqual({ alreadyApplied: false });
    expect(fixture.counters.snapshotsWritten).toBe(2);
    expect(fixture.counters.casConflicts).toBe(1);
    const stored = await fixture.storedRoot("sub");
    expect(stored.root.snapshot?.objectKey).toBe(current.state.root.snapshot?.objectKey);
    const listed = await fixture.objects.list("cursor-snapshots/");
    expect(listed.items.length).toBe(2);
    const fresh = await fixture.openHandle("sub");
    for (let offset = 0; offset < 210; offset++) {
      expect(fresh.isAcked(offset)).toBe([2, 4, 6, 8, 100, 200].includes(offset));
    }
  });
});
