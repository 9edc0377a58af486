// AppendBatch.handOverPayloads: the flag reaches the WAL writer's request only when every batch of an append group
// handed its payloads over; otherwise the writer is asked to copy (the default), so a caller that reuses its buffers
// after `append` returns never changes stored bytes.
import { afterEach, describe, expect, it } from "vitest";
import type { AppendBatch } from "../src/domain/append-types.js";
import { AppendProtocolHarness, opaqueBatch } from "../src/testing/append-protocol-harness.js";
import { InMemoryMetadataStore } from "../src/testing/in-memory-metadata-store.js";

const harnesses: AppendProtocolHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((item) => item.dispose()));
});

const handedOver = (text: string): AppendBatch => ({ ...opaqueBatch(text), handOverPayloads: true });

async function openStream(gate?: { held: Array<() => void>; gating: boolean }) {
  const harness = new AppendProtocolHarness(new InMemoryMetadataStore());
  harnesses.push(harness);
  const store = harness.open({
    autoRecovery: false,
    pipelineDepth: 1,
    stepHooks: {
      afterWalWrite: async () => {
        if (gate?.gating !== true) return;
        await new Promise<void>((resolve) => gate.held.push(resolve));
      },
    },
  });
  const { streamId } = await store.createStream("hand-over", { profile: "OBJECT_WAL_SYNC_OBJECT" });
  harness.objectWal.stats.reset();
  return { harness, store, streamId };
}

describe("handing payloads over", () => {
  it("tells the writer when the append's payloads were handed over, and not otherwise", async () => {
    const { harness, store, streamId } = await openStream();
    await store.append(streamId, handedOver("mine no more"));
    expect(harness.objectWal.stats).toMatchObject({ prepares: 1, handedOverPrepares: 1 });
    await store.append(streamId, opaqueBatch("still mine"));
    expect(harness.objectWal.stats).toMatchObject({ prepares: 2, handedOverPrepares: 1 });
  });

  it("a group that merges a caller-owned batch with handed-over ones copies them all", async () => {
    const gate = { held: [] as Array<() => void>, gating: true };
    const { harness, store, streamId } = await openStream(gate);
    const first = store.append(streamId, handedOver("blocker"));
    for (let spin = 0; gate.held.length === 0; spin++) {
      if (spin > 10_000) throw new Error("the first WAL write never reached the gate");
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const owned = new TextEncoder().encode("owned");
    const merged = [
      store.append(streamId, handedOver("a")),
      store.append(streamId, { payloadFormat: "OPAQUE_RECORD_BATCH", entries: [{ payload: owned, recordCount: 1 }] }),
      store.append(streamId, handedOver("b")),
    ];
    gate.gating = false;
    for (const release of gate.held.splice(0)) release();
    await first;
    const results = await Promise.all(merged);
    expect(new Set(results.map((result) => result.commitId)).size).toBe(1);
    expect(harness.objectWal.stats).toMatchObject({ prepares: 2, handedOverPrepares: 1 });
    owned.set(new TextEncoder().encode("XXXXX"));
    const read = await store.read(streamId, results[1]?.startOffset ?? -1);
    expect(new TextDecoder().decode(read.entries[0]?.payload)).toBe("owned");
  });
});
