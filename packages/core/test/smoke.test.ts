import { describe, expect, it } from "vitest";
import { bytes, memoryStack } from "./support/memory-stack.js";

describe("smoke", () => {
  it("appends and reads", async () => {
    const stack = memoryStack();
    const store = stack.open();
    const { streamId } = await store.createStream("s1", { profile: "OBJECT_WAL" });
    const first = await store.append(streamId, { payloadFormat: "KAFKA_RECORD_BATCH", entries: [{ payload: bytes("a"), recordCount: 100 }] });
    expect(first.endOffset).toBe(100);
    stack.metadata.stats.reset();
    const second = await store.append(streamId, {
      payloadFormat: "KAFKA_RECORD_BATCH",
      entries: [{ payload: bytes("bbb"), recordCount: 3 }, { payload: bytes("cc"), recordCount: 2 }],
    });
    expect(stack.metadata.stats.roundTrips).toBe(1);
    expect(second).toMatchObject({ startOffset: 100, endOffset: 105, commitVersion: 2 });
    const read = await store.read(streamId, 101);
    expect(read.entries.map((entry) => entry.offset)).toEqual([100, 103]);
    await store.close();
  });
});
