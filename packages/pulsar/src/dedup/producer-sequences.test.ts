import { describe, expect, test } from "vitest";
import { NO_SEQUENCE_ID, ProducerSequences } from "./producer-sequences.js";

describe("ProducerSequences", () => {
  test("a send above the pushed sequence is new; at or below the persisted one a duplicate; in between unknown", () => {
    const sequences = new ProducerSequences();
    expect(sequences.lastPushed("p")).toBe(NO_SEQUENCE_ID);
    expect(sequences.check("p", 0n)).toBe("accept");
    sequences.push("p", 4n);
    sequences.applyEntry(0, "p", 2n);
    expect(sequences.lastPersisted("p")).toBe(2n);
    expect(sequences.lastPushed("p")).toBe(4n);
    expect(sequences.check("p", 1n)).toBe("duplicate");
    expect(sequences.check("p", 2n)).toBe("duplicate");
    expect(sequences.check("p", 3n)).toBe("unknown");
    expect(sequences.check("p", 4n)).toBe("unknown");
    expect(sequences.check("p", 5n)).toBe("accept");
    expect(sequences.check("other", 0n)).toBe("accept");
  });

  test("after a failed append the pushed table falls back to the persisted one", () => {
    const sequences = new ProducerSequences();
    sequences.applyEntry(0, "p", 2n);
    sequences.push("p", 9n);
    sequences.push("q", 3n);
    sequences.resetPushed();
    expect(sequences.lastPushed("p")).toBe(2n);
    expect(sequences.lastPushed("q")).toBe(NO_SEQUENCE_ID);
    expect(sequences.check("p", 3n)).toBe("accept");
  });

  test("replay applies committed entries once, in offset order, and never lowers a sequence id", () => {
    const sequences = new ProducerSequences(10);
    sequences.applyEntry(9, "p", 100n);
    expect(sequences.lastPersisted("p")).toBe(NO_SEQUENCE_ID);
    sequences.applyEntry(10, "p", 5n);
    sequences.applyEntry(11, "p", 3n);
    expect(sequences.lastPersisted("p")).toBe(5n);
    expect(sequences.appliedEnd).toBe(12);
    sequences.advanceTo(20);
    expect(sequences.checkpoint("s").endOffset).toBe(20);
    sequences.forget("p");
    expect(sequences.size).toBe(0);
  });
});
