import { describe, expect, it } from "vitest";
import { ConsumerState } from "./consumer-state.js";
import { chooseActiveConsumer } from "./failover-order.js";

const listener = { deliver: () => undefined };
const consumer = (id: number, name: string, priorityLevel = 0) =>
  new ConsumerState({ consumerId: BigInt(id), consumerName: name, type: "Failover", priorityLevel, listener }, id);

describe("chooseActiveConsumer", () => {
  it("orders by priority level, then name, then join order", () => {
    const consumers = [consumer(1, "b"), consumer(2, "a", 1), consumer(3, "b"), consumer(4, "c")];
    expect(chooseActiveConsumer(consumers, -1)?.id).toBe(1n);
    expect([0, 1, 2, 3].map((partition) => chooseActiveConsumer(consumers, partition)?.id)).toEqual([1n, 3n, 4n, 1n]);
    expect(chooseActiveConsumer([], 0)).toBeUndefined();
  });

  it("refuses bad consumer options", () => {
    expect(() => consumer(1, "x", -1)).toThrow(/priority level/);
    expect(
      () => new ConsumerState({ consumerId: 1n, consumerName: "x", type: "Failover", ackTimeoutMs: 0, listener }, 1),
    ).toThrow(/ack timeout/);
  });
});
