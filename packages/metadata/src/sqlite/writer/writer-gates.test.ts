import { SharedDurabilityGates } from "@nereus/core";
import { describe, expect, it } from "vitest";
import type { WriterOperation } from "./sqlite-writer-protocol.js";
import { gatesSettled, readyCount, waitForGate } from "./writer-gates.js";

const gated = (gates: SharedDurabilityGates, sequence: number): WriterOperation => ({
  kind: "txns",
  txns: [{ compares: [], writes: [], gate: { words: gates.words, sequence } }],
});

describe("writer gates", () => {
  it("a round takes the first operation and the settled ones after it, up to the first still in flight", () => {
    const gates = new SharedDurabilityGates();
    const queue: WriterOperation[] = [
      gated(gates, 2),
      { kind: "expire" },
      gated(gates, 1),
      gated(gates, 3),
      { kind: "expire" },
    ];
    expect(readyCount(queue)).toBe(2);
    gates.open(1);
    expect(gatesSettled(queue[2] as WriterOperation)).toBe(true);
    expect(readyCount(queue)).toBe(3);
    gates.fail();
    expect(readyCount(queue)).toBe(5);
  });

  it("waiting says why a gate did not open: failed, or not durable before the deadline", () => {
    const opened = new SharedDurabilityGates();
    opened.open(4);
    expect(waitForGate({ words: opened.words, sequence: 3 }, Date.now() + 1000, 1000)).toBeUndefined();
    const failed = new SharedDurabilityGates();
    failed.fail();
    expect(waitForGate({ words: failed.words, sequence: 1 }, Date.now() + 1000, 1000)).toBe("the write failed");
    const pending = new SharedDurabilityGates();
    expect(waitForGate({ words: pending.words, sequence: 1 }, Date.now() + 20, 20)).toBe(
      "the write was not durable within 20 ms",
    );
  });
});
