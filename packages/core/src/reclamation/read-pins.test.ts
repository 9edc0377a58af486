import { describe, expect, it } from "vitest";
import { ReadPins, objectPhysicalId, physicalTargetId } from "./read-pins.js";

describe("ReadPins", () => {
  it("a pinned id cannot be condemned; a condemned id cannot be pinned until absolved", () => {
    const pins = new ReadPins();
    const release = pins.pin(["a", "b"]);
    expect(release).toBeDefined();
    expect(pins.condemn("a")).toBe(false);
    expect(pins.condemn("c")).toBe(true);
    expect(pins.pin(["b", "c"])).toBeUndefined();
    // A refused pin pins nothing.
    release?.();
    expect(pins.isPinned("b")).toBe(false);
    expect(pins.condemn("a")).toBe(true);
    pins.absolve("c");
    expect(pins.pin(["c"])).toBeDefined();
  });

  it("counts overlapping pins and releases each once", () => {
    const pins = new ReadPins();
    const first = pins.pin(["x"]);
    const second = pins.pin(["x"]);
    first?.();
    first?.();
    expect(pins.isPinned("x")).toBe(true);
    second?.();
    expect(pins.isPinned("x")).toBe(false);
    expect(pins.pinnedCount).toBe(0);
  });

  it("names every slice of one object, and a ledger, by the physical thing", () => {
    const slice = {
      type: "OBJECT_SLICE",
      version: 1,
      objectKey: "c/wal/k.nrs",
      objectType: "MULTI_STREAM_WAL_OBJECT",
      sliceOffset: 48,
      sliceLength: 10,
      sliceChecksum: 1,
      entryCount: 1,
    } as const;
    expect(physicalTargetId(slice)).toBe(objectPhysicalId("c/wal/k.nrs"));
    expect(physicalTargetId({ ...slice, sliceOffset: 90 })).toBe(physicalTargetId(slice));
    expect(
      physicalTargetId({
        type: "BOOKKEEPER_ENTRY_RANGE",
        version: 1,
        clusterAlias: "bk",
        ledgerId: "7",
        firstEntryId: 0,
        entryCount: 1,
        rangeChecksum: 0,
      }),
    ).toBe("bookkeeper:bk/7");
  });
});
