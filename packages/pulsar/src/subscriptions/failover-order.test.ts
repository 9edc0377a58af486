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

  it("on a topic that is not a partition, picks by the topic name's place on a hash ring of the names", () => {
    const consumers = [consumer(1, "c0"), consumer(2, "c1"), consumer(3, "c9", 1)];
    // What Apache Pulsar 4.2.4 made active for two Failover consumers named c0 and c1 on these topics.
    const seen = { a: "c1", b: "c0", c: "c1", d: "c1", e: "c0", f: "c1" };
    const picked = Object.fromEntries(
      Object.keys(seen).map((suffix) => [
        suffix,
        chooseActiveConsumer(consumers, -1, `persistent://public/default/fonp-${suffix}`)?.name,
      ]),
    );
    expect(picked).toEqual(seen);
    expect(chooseActiveConsumer(consumers.reverse(), -1, "persistent://public/default/fonp-b")?.name).toBe("c0");
    expect(chooseActiveConsumer([consumer(4, "c9", 1)], -1, "persistent://public/default/fonp-a")?.name).toBe("c9");
  });

  it("refuses bad consumer options", () => {
    expect(() => consumer(1, "x", -1)).toThrow(/priority level/);
    expect(
      () => new ConsumerState({ consumerId: 1n, consumerName: "x", type: "Failover", ackTimeoutMs: 0, listener }, 1),
    ).toThrow(/ack timeout/);
  });
});
