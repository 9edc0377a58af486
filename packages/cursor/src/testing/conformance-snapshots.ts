// Conformance scenarios of snapshots: with small inline limits the ack state spills into snapshot objects and a
// restart hydrates exactly the same state; a referenced snapshot that is corrupt or gone fails the open with
// METADATA_INVARIANT_VIOLATION (never a silent fallback to older state).
import { ErrorCode, type ObjectStore } from "@nereus/core";
import { expectNereusError } from "@nereus/core/testing";
import { describe, expect } from "vitest";
import type { CursorHandle } from "../cursor/cursor-handle.js";
import type { CursorLimits } from "../store/cursor-store-options.js";
import type { OpenCursorConformanceFixture } from "./cursor-conformance-fixture.js";
import { type ConformanceRun, acking } from "./conformance-run.js";
import { conformanceTest } from "./conformance-test.js";

/** Inline limits small enough that a few acks spill. */
const SPILLING: Partial<CursorLimits> = { minInlineItems: 4, maxInlineItems: 8 };

/** Whole acks of every third entry in [from, to) and a partial ack of every entry ≡ 1 (mod 7) among the rest. */
async function ackPattern(handle: CursorHandle, from: number, to: number): Promise<void> {
  for (let offset = from; offset < to; offset++) {
    if (offset % 3 === 0) await handle.individualAck([{ offset }]);
    else if (offset % 7 === 1) await handle.individualAck([{ offset, batch: acking(0, 2) }]);
  }
}

/** A stream whose cursor "sub" references a snapshot; returns the stream and the snapshot's object key. */
async function spilledCursor(run: ConformanceRun): Promise<{ streamId: string; objectKey: string }> {
  const streamId = await run.newStream("snapshot", 200);
  const store = run.store(SPILLING);
  const cursors = await store.openStream(streamId);
  const handle = await cursors.createCursor("sub", { initialOffset: 2 });
  await ackPattern(handle, 2, 200);
  await handle.cumulativeAck(20);
  expect(store.counters.snapshotsWritten).toBeGreaterThan(1);
  const reference = handle.state.root.snapshot;
  expect(reference).toBeDefined();
  return { streamId, objectKey: reference?.objectKey ?? "" };
}

async function flipMiddleBit(objects: ObjectStore, key: string): Promise<void> {
  const bytes = await objects.get(key);
  const middle = Math.floor(bytes.length / 2);
  bytes[middle] = (bytes[middle] ?? 0) ^ 0x01;
  await objects.deleteMany([key]);
  await objects.putIfAbsent(key, bytes);
}

export function describeSnapshotScenarios(open: OpenCursorConformanceFixture): void {
  describe("snapshots", () => {
    conformanceTest(open, "spills into snapshots and a restart hydrates the identical state", async (run) => {
      const streamId = await run.newStream("spill", 200);
      const store = run.store(SPILLING);
      const cursors = await store.openStream(streamId);
      const handle = await cursors.createCursor("sub", { initialOffset: 2 });
      await ackPattern(handle, 2, 120);
      await handle.cumulativeAck(20);
      await ackPattern(handle, 120, 200);
      expect(store.counters.snapshotsWritten).toBeGreaterThan(1);
      const root = handle.state.root;
      expect(root.snapshot).toBeDefined();
      expect(root.inlineRanges.length + root.inlinePartials.length).toBeLessThanOrEqual(SPILLING.maxInlineItems ?? 0);
      const before = await run.summary(cursors);
      const restarted = await run.restart(streamId, SPILLING);
      expect(await run.summary(restarted)).toEqual(before);
      expect(run.handle(restarted, "sub").state.root.snapshot).toEqual(root.snapshot);
      await run.expectInvariant(streamId);
    });

    conformanceTest(
      open,
      "fails the open with METADATA_INVARIANT_VIOLATION when the snapshot is corrupt",
      async (run) => {
        const { streamId, objectKey } = await spilledCursor(run);
        await run.closeStores();
        await flipMiddleBit(run.fixture.objects, objectKey);
        await expectNereusError(run.open(streamId, SPILLING), ErrorCode.METADATA_INVARIANT_VIOLATION);
      },
    );

    conformanceTest(open, "fails the open with METADATA_INVARIANT_VIOLATION when the snapshot is gone", async (run) => {
      const { streamId, objectKey } = await spilledCursor(run);
      await run.closeStores();
      await run.fixture.objects.deleteMany([objectKey]);
      await expectNereusError(run.open(streamId, SPILLING), ErrorCode.METADATA_INVARIANT_VIOLATION);
    });
  });
}
